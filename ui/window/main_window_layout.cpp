// MainWindow: the layout. The docks, the plot controls and the checkpoint pane;
// the actions and menus are in main_window_actions.cpp, and what they do is wired in
// main_window.cpp.
#include "window/main_window.h"

#include "models/checkpoint_table_model.h"
#include "models/comparison_table_model.h"
#include "models/run_list_model.h"
#include "plot/comparison_plot.h"
#include "plot/metrics_plot.h"
#include "window/banner.h"
#include "window/dock_proportions.h"
#include "window/fault_tolerance_panel.h"
#include "window/flow_layout.h"
#include "window/status_bar.h"
#include "window/system_panel.h"
#include "window/table_columns.h"
#include "window/translations_loader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace savepoint::ui {

namespace {

// A hint that shows whole or not at all: a narrow window hides it instead of
// cutting it to a couple of letters (the plot's tooltip still says it).
class HintLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* e) override {
        if (fontMetrics().horizontalAdvance(text()) <= contentsRect().width()) QLabel::paintEvent(e);
    }
};

}  // namespace

void MainWindow::buildUi() {
    auto* central = new QWidget(this);
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(6, 4, 6, 2);
    v->setSpacing(4);
    banner_ = new Banner(central);
    v->addWidget(banner_);
    v->addWidget(buildPlotControls());
    plot_ = new MetricsPlot(central);
    plots_ = new QStackedWidget(central);
    plots_->addWidget(plot_);  // the comparison's plot is added by RunComparisonView
    v->addWidget(plots_, 1);
    compare_plot_ = new ComparisonPlot(plots_);
    setCentralWidget(central);

    runs_ = new RunListModel(this);
    run_proxy_ = new QSortFilterProxyModel(this);
    run_proxy_->setSourceModel(runs_);
    run_proxy_->setSortRole(RunListModel::SortRole);
    run_view_ = new QTableView(this);
    run_view_->setObjectName(QStringLiteral("runView"));
    run_view_->setModel(run_proxy_);
    run_view_->setSortingEnabled(true);
    run_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Ctrl- or Shift-click a second run to compare them (run_comparison_view.h).
    run_view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    run_view_->setToolTip(tr("Ctrl- or Shift-click more runs to compare their curves and settings."));
    run_view_->verticalHeader()->hide();
    run_view_->setAlternatingRowColors(true);
    // A narrow column keeps name, status and progress; the rest shows when there is room.
    new TableColumns(run_view_, RunListModel::Name,
                     {RunListModel::Model, RunListModel::Device, RunListModel::Branches, RunListModel::ValAccuracy,
                      RunListModel::Loss, RunListModel::Accuracy});
    auto* runs_dock = new QDockWidget(tr("Runs"), this);
    runs_dock->setObjectName(QStringLiteral("runsDock"));
    runs_dock->setWidget(run_view_);
    // Never squeezed to a sliver by a small window: the plot gives way first.
    runs_dock->setMinimumWidth(280);
    addDockWidget(Qt::LeftDockWidgetArea, runs_dock);

    ft_panel_ = new FaultTolerancePanel(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(ft_panel_);
    scroll->setWidgetResizable(true);
    auto* ft_dock = new QDockWidget(tr("Fault tolerance"), this);
    ft_dock->setObjectName(QStringLiteral("faultDock"));
    ft_dock->setWidget(scroll);
    // The panel's widest row (a check box does not wrap) is the column's least width;
    // its values wrap within it.
    ft_dock->setMinimumWidth(std::max(280, ft_panel_->minimumSizeHint().width() +
                                               scroll->verticalScrollBar()->sizeHint().width() +
                                               2 * scroll->frameWidth()));
    addDockWidget(Qt::LeftDockWidgetArea, ft_dock);
    splitDockWidget(runs_dock, ft_dock, Qt::Vertical);
    connect(ft_panel_, &FaultTolerancePanel::assumptionsChanged, this, &MainWindow::saveSettings);

    // The process's, the machine's and the GPU's telemetry: a tab beside the fault-tolerance figures.
    system_panel_ = new SystemPanel(this);
    auto* system_scroll = new QScrollArea(this);
    system_scroll->setWidget(system_panel_);
    system_scroll->setWidgetResizable(true);
    auto* system_dock = new QDockWidget(tr("System"), this);
    system_dock->setObjectName(QStringLiteral("systemDock"));
    system_dock->setWidget(system_scroll);
    addDockWidget(Qt::LeftDockWidgetArea, system_dock);
    tabifyDockWidget(ft_dock, system_dock);
    ft_dock->raise();

    auto* ckpt_dock = new QDockWidget(tr("Checkpoints"), this);
    ckpt_dock->setObjectName(QStringLiteral("checkpointDock"));
    ckpt_dock->setWidget(buildCheckpointPane());
    addDockWidget(Qt::BottomDockWidgetArea, ckpt_dock);

    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("eventLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    auto* log_dock = new QDockWidget(tr("Events"), this);
    log_dock->setObjectName(QStringLiteral("eventsDock"));
    log_dock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, log_dock);
    tabifyDockWidget(ckpt_dock, log_dock);
    checkpoint_dock_ = ckpt_dock;
    buildComparisonDock();
    ckpt_dock->raise();
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);  // the left column runs full height
    dock_shares_ = new DockProportions(this, runs_dock, ft_dock, ckpt_dock);

    status_ = new StatusBarFields(statusBar());
}

// The table of the compared runs, a tab beside the checkpoints shown only while comparing.
void MainWindow::buildComparisonDock() {
    compare_table_ = new ComparisonTableModel(this);
    auto* view = new QTableView(this);
    view->setObjectName(QStringLiteral("comparisonView"));
    view->setModel(compare_table_);
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->verticalHeader()->hide();
    view->setAlternatingRowColors(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    compare_dock_ = new QDockWidget(tr("Compare"), this);
    compare_dock_->setObjectName(QStringLiteral("compareDock"));
    compare_dock_->setWidget(view);
    addDockWidget(Qt::BottomDockWidgetArea, compare_dock_);
    tabifyDockWidget(checkpoint_dock_, compare_dock_);
}

QWidget* MainWindow::buildPlotControls() {
    auto* w = new QWidget(this);
    // Wraps onto a second row in a narrow window (or with French labels) instead of
    // widening the window past the screen.
    auto* flow = new FlowLayout(w, 12);
    auto group = [&] {  // a label and its control stay together on one row
        auto* g = new QWidget(w);
        auto* gl = new QHBoxLayout(g);
        gl->setContentsMargins(0, 0, 0, 0);
        flow->addWidget(g);
        return gl;
    };
    QHBoxLayout* h = group();
    h->addWidget(new QLabel(tr("X axis:"), w));
    xmode_ = new QComboBox(w);
    xmode_->addItems({tr("Global step"), tr("Epoch"), tr("Wall-clock time")});
    h->addWidget(xmode_);
    h = group();
    h->addWidget(new QLabel(tr("Smoothing:"), w));
    smoothing_ = new QSlider(Qt::Horizontal, w);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(80);
    smoothing_->setMaximumWidth(160);
    smoothing_->setMinimumWidth(90);  // a narrow window or longer labels (pt_BR) must not crush it to a dot
    smoothing_->setToolTip(
        tr("Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it."));
    smoothing_label_ = new QLabel(QStringLiteral("0.80"), w);
    h->addWidget(smoothing_);
    h->addWidget(smoothing_label_);
    log_loss_ = new QCheckBox(tr("Log scale for loss"), w);
    log_loss_->setChecked(true);
    show_raw_ = new QCheckBox(tr("Show raw steps"), w);
    show_raw_->setChecked(true);
    flow->addWidget(log_loss_);
    flow->addWidget(show_raw_);
    auto* reset = new QPushButton(tr("Reset zoom"), w);
    reset->setToolTip(tr("Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom."));
    flow->addWidget(reset);
    auto* hint = new HintLabel(tr("Right-click the plot to resume from a step"), w);
    hint->setStyleSheet(QStringLiteral("color: #666;"));
    hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // A hint, not a control: in a narrow window it is what gives way (FlowLayout gives it the row's rest).
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    flow->addWidget(hint);

    connect(xmode_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        plot_->setXMode(static_cast<XMode>(i));
        compare_plot_->setXMode(static_cast<XMode>(i));
    });
    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) {
        smoothing_label_->setText(QLocale().toString(v / 100.0, 'f', 2));
        plot_->setSmoothing(v / 100.0);
        compare_plot_->setSmoothing(v / 100.0);
    });
    connect(log_loss_, &QCheckBox::toggled, this, [this](bool on) {
        plot_->setLogLoss(on);
        compare_plot_->setLogLoss(on);
    });
    connect(show_raw_, &QCheckBox::toggled, this, [this](bool on) { plot_->setShowRaw(on); });
    connect(reset, &QPushButton::clicked, this, [this] { plot_->resetView(); });
    return w;
}

QWidget* MainWindow::buildCheckpointPane() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new FlowLayout;  // two rows rather than a window wider than the screen
    // What each does is the controllers' (connectActions).
    auto button = [&](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, w);
        b->setObjectName(name);
        b->setToolTip(tip);
        bar->addWidget(b);
        checkpoint_buttons_[name] = b;
        return b;
    };
    button(QStringLiteral("resumeHereButton"), tr("Resume from here"),
           tr("Continue training from the selected checkpoint; older than the head, this is a rollback onto a new "
              "branch."));
    button(QStringLiteral("verifyButton"), tr("Verify"),
           tr("Check the file's size, footer and checksum (built from SHA-256s; see the README's file format)."));
    button(QStringLiteral("pinButton"), tr("Pin / unpin"), tr("Pinned checkpoints are never deleted by retention."));
    button(QStringLiteral("deleteButton"), tr("Delete…"), tr("Delete the file (never the head)."));
    button(QStringLiteral("revealButton"), tr("Show file"), tr("Open the folder holding the checkpoint file."));
    show_deleted_ = new QCheckBox(tr("Show deleted"), w);
    bar->addWidget(show_deleted_);
    v->addLayout(bar);

    ckpts_ = new CheckpointTableModel(this);
    ckpt_proxy_ = new QSortFilterProxyModel(this);
    ckpt_proxy_->setSourceModel(ckpts_);
    ckpt_proxy_->setSortRole(CheckpointTableModel::SortRole);
    ckpt_view_ = new QTableView(w);
    ckpt_view_->setObjectName(QStringLiteral("checkpointView"));
    ckpt_view_->setModel(ckpt_proxy_);
    ckpt_view_->setColumnHidden(CheckpointTableModel::Remote, true);  // shown for a run synced to S3
    ckpt_view_->setSortingEnabled(true);
    ckpt_view_->sortByColumn(CheckpointTableModel::GlobalStep, Qt::DescendingOrder);
    ckpt_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    ckpt_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    ckpt_view_->verticalHeader()->hide();
    ckpt_view_->verticalHeader()->setDefaultSectionSize(22);
    ckpt_view_->setAlternatingRowColors(true);
    {
        using C = CheckpointTableModel;  // position, state and marks stay; metrics give way first
        new TableColumns(ckpt_view_, -1,
                         {C::Size, C::ValLoss, C::TrainAcc, C::Time, C::TrainLoss, C::ValAcc, C::Step, C::Epoch});
    }
    v->addWidget(ckpt_view_, 1);
    return w;
}

}  // namespace savepoint::ui
