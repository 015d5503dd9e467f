#include "window/run_comparison_view.h"

#include "bridge/background_jobs.h"
#include "models/comparison_table_model.h"
#include "models/run_list_model.h"
#include "plot/comparison_plot.h"
#include "registry/run_comparison.h"

#include <QDockWidget>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>

#include <algorithm>

namespace savepoint::ui {

RunComparisonView::RunComparisonView(QString home, const Widgets& w, QObject* parent)
    : QObject(parent), home_(std::move(home)), w_(w) {
    jobs_ = new BackgroundJobs(this);
    w_.plots->addWidget(w_.plot);
    w_.dock->hide();
    connect(w_.run_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunComparisonView::selectionChanged);
}

RunComparisonView::~RunComparisonView() {
    delete jobs_;  // waits for a read still running; drops its result
    jobs_ = nullptr;
}

void RunComparisonView::selectionChanged() {
    QList<int> rows;  // in the list's order, as the user sees them
    for (const QModelIndex& i : w_.run_view->selectionModel()->selectedRows()) rows << i.row();
    std::sort(rows.begin(), rows.end());
    QStringList names;
    qint64 single = 0;
    for (int r : rows) {
        const QModelIndex idx = w_.run_proxy->index(r, RunListModel::Name);
        names << idx.data(Qt::DisplayRole).toString();
        single = idx.data(RunListModel::RunIdRole).toLongLong();
    }
    if (names.size() < 2) {
        const bool was = comparing();
        stopComparing();
        // Ctrl-clicking a run out of two leaves the other: show that one, not the one clicked.
        if (was && names.size() == 1) Q_EMIT singleRunSelected(single);
        return;
    }
    if (names == compared_) return;
    compared_ = names;
    load(names);
}

void RunComparisonView::followTraining() {
    if (!comparing() || loading_) return;
    for (int row = 0; row < w_.runs->rowCount(); ++row) {
        const savepoint::RunSummary* s = w_.runs->runAt(row);
        if (s && s->run.status == savepoint::RunStatus::Running &&
            compared_.contains(QString::fromStdString(s->run.name))) {
            load(compared_);
            return;
        }
    }
}

void RunComparisonView::stopComparing() {
    ++generation_;  // a read still running is no longer wanted
    loading_ = false;
    if (!comparing()) return;
    compared_.clear();
    w_.plots->setCurrentIndex(0);
    w_.plot->clear();
    w_.table->clear();
    w_.dock->hide();
    if (w_.checkpoint_dock) w_.checkpoint_dock->raise();
}

void RunComparisonView::load(const QStringList& names) {
    const int gen = ++generation_;
    loading_ = true;
    std::vector<std::string> wanted;
    for (const QString& n : names) wanted.push_back(n.toStdString());
    jobs_->start([this, gen, wanted, home = home_.toStdString()]() -> BackgroundJobs::Deliver {
        savepoint::RunComparison c;
        std::vector<ComparedSeries> series;
        std::string error;
        try {
            savepoint::Registry reg(home);  // its own connection, as the run's history read has
            c = savepoint::compare_runs(reg, wanted);
            for (const auto& r : c.runs) {
                ComparedSeries s;
                s.label = QString::fromStdString(r.label);
                s.steps_per_epoch = r.run.steps_per_epoch;
                s.time_origin = r.run.created_at;
                s.branches = reg.branches(r.run.id);
                s.rows = reg.metrics(r.run.id);
                series.push_back(std::move(s));
            }
        } catch (const std::exception& e) {
            error = e.what();
        }
        return [this, gen, c = std::move(c), series = std::move(series), error]() mutable {
            if (gen != generation_) return;  // the selection has changed since
            loading_ = false;
            if (!error.empty()) {
                Q_EMIT errorMessage(tr("Cannot compare these runs: %1").arg(QString::fromStdString(error)));
                return;
            }
            QVector<QColor> colours;
            for (int i = 0; i < int(c.runs.size()); ++i) colours << ComparisonPlot::runColor(i);
            w_.table->setComparison(std::move(c), colours);
            w_.plot->setRuns(series);
            w_.plots->setCurrentWidget(w_.plot);
            w_.dock->show();
            w_.dock->raise();
            Q_EMIT comparisonShown(int(series.size()));
        };
    });
}

}  // namespace savepoint::ui
