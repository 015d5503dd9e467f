// Comparing runs in the window (window/run_comparison_view.h): two runs
// selected in the run list put both runs' curves on the plot, one colour per
// run, the legend naming each by what differs, and fill the Compare table with
// the settings that differ and the final and best validation figures, those of
// the registry's metric rows; one run selected again is the run's own plot.
// The home is made by short real runs of savepoint-cli (two learning rates; one
// rolled back, so it has two branches and its newest validation is not its best).
#include "models/comparison_table_model.h"
#include "models/run_list_model.h"
#include "plot/comparison_plot.h"
#include "plot/metrics_plot.h"
#include "plot/qcp.h"
#include "registry/registry.h"
#include "test_home.h"
#include "window/main_window.h"
#include "window/run_comparison_view.h"
#include "window_support.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using savepoint::ui::ComparisonPlot;
using savepoint::ui::ComparisonTableModel;
using savepoint::ui::RunComparisonView;
using testsupport::CliResult;

namespace {

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name) return plot->graph(i);
    return nullptr;
}

QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// The registry's validation rows of a run: the newest, and the lowest loss.
std::pair<savepoint::MetricRow, savepoint::MetricRow> finalAndBest(const QString& home, const char* run) {
    savepoint::Registry reg(home.toStdString());
    auto rows = reg.metrics(reg.find_run(run)->id);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::tie(a.session_id, a.global_step) < std::tie(b.session_id, b.global_step);
    });
    savepoint::MetricRow last, best;
    bool any = false;
    for (const auto& m : rows)
        if (m.kind == savepoint::MetricKind::Validation) {
            if (!any || m.loss < best.loss) best = m;
            last = m;
            any = true;
        }
    return {last, best};
}

}  // namespace

class TestRunComparison : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString home_;
    std::unique_ptr<savepoint::ui::MainWindow> w_;

    // Selects the run list's rows of these runs, as Ctrl-clicks would.
    void selectRuns(const QStringList& names) {
        QTableView* view = w_->runView();
        QItemSelection sel;
        for (int r = 0; r < w_->runProxy()->rowCount(); ++r) {
            const QModelIndex idx = w_->runProxy()->index(r, savepoint::ui::RunListModel::Name);
            if (names.contains(idx.data().toString())) sel.select(idx, idx);
        }
        view->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        home_ = dir_.filePath("home");
        for (const auto& [run, lr] : {std::pair<QString, QString>{"lr3", "0.001"}, {"lr4", "0.0001"}}) {
            CliResult r = testsupport::runCli(testsupport::trainArgs(home_, run, 3, 10, "epoch", {"--lr", lr}));
            QVERIFY2(r.exitCode == 0, r.describe());
        }
        CliResult r = testsupport::runCli(
            {"resume", "--home", home_, "--run", "lr3", "--epoch", "1", "--step", "10", "--interrupt-at-step", "25"});
        QVERIFY2(r.exitCode == 3, r.describe());
        const auto [last, best] = finalAndBest(home_, "lr3");
        QVERIFY2(best.loss < last.loss, "the fixture's newest validation must not be its best");
    }

    void init() {
        savepoint::ui::MainWindowOptions o;
        o.home = home_;
        o.settings_path = dir_.filePath("settings.ini");
        w_ = std::make_unique<savepoint::ui::MainWindow>(o);
        w_->resize(1400, 900);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QTRY_COMPARE_WITH_TIMEOUT(w_->runModel()->rowCount(), 2, 10000);
    }
    void cleanup() { w_.reset(); }

    void twoRunsSelectedOverlayTheirCurves() {
        QAbstractItemModelTester tester(w_->comparisonModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy shown(w_->comparison(), &RunComparisonView::comparisonShown);
        selectRuns({"lr3", "lr4"});
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QCOMPARE(shown.at(0).at(0).toInt(), 2);
        // In the run list's order, as the user sees them.
        QStringList listed;
        for (int r = 0; r < w_->runProxy()->rowCount(); ++r)
            listed << w_->runProxy()->index(r, savepoint::ui::RunListModel::Name).data().toString();
        QCOMPARE(w_->comparison()->comparedRuns(), listed);
        const int i3 = listed.indexOf("lr3"), i4 = listed.indexOf("lr4");
        ComparisonPlot* plot = w_->comparisonPlot();
        QVERIFY(plot->isVisibleTo(w_.get()));
        QVERIFY(!w_->plot()->isVisibleTo(w_.get()));
        QVERIFY(w_->findChild<QDockWidget*>("compareDock")->isVisibleTo(w_.get()));

        // The legend names each run by what differs; lr3's rollback is its second branch.
        const QStringList legend = legendNames(plot->accuracyPlot());
        for (const QString& name : QStringList{"lr 1e-3", "lr 1e-4", "lr 1e-3, branch 2", "validation (per epoch)"})
            QVERIFY2(legend.contains(name), qPrintable(legend.join(" | ")));
        // Both runs' graphs, each in its run's colour, with every training step of its live line.
        QCPGraph* a = graphNamed(plot->accuracyPlot(), "lr 1e-3");
        QCPGraph* b = graphNamed(plot->accuracyPlot(), "lr 1e-4");
        QCPGraph* a2 = graphNamed(plot->accuracyPlot(), "lr 1e-3, branch 2");
        QVERIFY(a && b && a2);
        QCOMPARE(a->pen().color(), ComparisonPlot::runColor(i3));
        QCOMPARE(b->pen().color(), ComparisonPlot::runColor(i4));
        QCOMPARE(a2->pen().style(), Qt::DashLine);
        QCOMPARE(b->data()->size(), 30);
        QCOMPARE((b->data()->constEnd() - 1)->key, 30.0);
        // lr3's first branch up to the rollback's checkpoint (step 10), then its abandoned
        // steps 11..30 faint and unnamed, and branch 2 from step 10 (where it forked) to 25.
        QCOMPARE(a->data()->size(), 10);
        QCOMPARE(a2->data()->size(), 16);
        QCOMPARE(a2->data()->constBegin()->key, 10.0);
        QCOMPARE((a2->data()->constEnd() - 1)->key, 25.0);
        int abandoned = 0;
        for (int i = 0; i < plot->accuracyPlot()->graphCount(); ++i) {
            QCPGraph* g = plot->accuracyPlot()->graph(i);
            if (g->data()->size() == 21 && g->pen().color().alpha() < 255 &&
                !plot->accuracyPlot()->legend->hasItemWithPlottable(g))
                ++abandoned;
        }
        QCOMPARE(abandoned, 1);
        // The loss plot draws the same runs (its legend is the accuracy plot's).
        int loss_lines = 0;
        for (int i = 0; i < plot->lossPlot()->graphCount(); ++i)
            loss_lines += plot->lossPlot()->graph(i)->data()->size() >= 10 ? 1 : 0;
        QCOMPARE(loss_lines, 4);

        // The table: a row per run, the differing setting, final and best validation.
        ComparisonTableModel* t = w_->comparisonModel();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->headerData(ComparisonTableModel::FixedBefore, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("lr"));
        QCOMPARE(t->index(i3, ComparisonTableModel::Label).data().toString(), QStringLiteral("lr 1e-3"));
        QCOMPARE(t->index(i4, ComparisonTableModel::FixedBefore).data().toString(), QStringLiteral("1e-4"));
        QCOMPARE(t->index(i3, ComparisonTableModel::Run).data(Qt::DecorationRole).value<QColor>(),
                 ComparisonPlot::runColor(i3));
        const auto [last, best] = finalAndBest(home_, "lr3");
        QCOMPARE(t->index(i3, t->column(ComparisonTableModel::FinalLoss)).data().toString(),
                 QLocale().toString(last.loss, 'f', 4));
        QCOMPARE(t->index(i3, t->column(ComparisonTableModel::BestLoss)).data().toString(),
                 QStringLiteral("%1 (epoch %2, global step %3)")
                     .arg(QLocale().toString(best.loss, 'f', 4))
                     .arg(best.epoch)
                     .arg(best.global_step));
        QCOMPARE(t->index(i3, t->column(ComparisonTableModel::Steps)).data().toString(), QStringLiteral("25 of 30"));
        // For a person to look at (run under xvfb-run with QT_QPA_PLATFORM=xcb): the window as it is now.
        const QString shot = qEnvironmentVariable("SAVEPOINT_COMPARE_SHOT");
        if (!shot.isEmpty()) {
            QTest::qWait(300);
            QVERIFY(w_->grab().save(shot));
        }
    }

    void oneRunSelectedIsTheRunsOwnPlotAgain() {
        QSignalSpy shown(w_->comparison(), &RunComparisonView::comparisonShown);
        selectRuns({"lr3", "lr4"});
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        selectRuns({"lr4"});
        QVERIFY(!w_->comparison()->comparing());
        QVERIFY(w_->plot()->isVisibleTo(w_.get()));
        QVERIFY(!w_->comparisonPlot()->isVisibleTo(w_.get()));
        QVERIFY(!w_->findChild<QDockWidget*>("compareDock")->isVisibleTo(w_.get()));
        QCOMPARE(w_->comparisonModel()->rowCount(), 0);
        QCOMPARE(w_->comparisonPlot()->runCount(), 0);
        // The run left selected is the one shown.
        QTRY_COMPARE_WITH_TIMEOUT(w_->selectedRunId(), qint64(2), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w_->plot()->store().pointCount() > 0 && w_->plot()->store().segments().size() == 1,
                                 30000);
    }

    // Last: it changes lr4. A compared run that trains (here: rows another process
    // would write, and its status) is read again on the window's refresh tick.
    void aComparedRunThatTrainsIsFollowed() {
        QSignalSpy shown(w_->comparison(), &RunComparisonView::comparisonShown);
        selectRuns({"lr3", "lr4"});
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        {
            savepoint::Registry reg(home_.toStdString());
            const savepoint::RunRow run = *reg.find_run("lr4");
            const savepoint::SessionRow last = reg.sessions(run.id).back();
            std::vector<savepoint::MetricRow> rows;
            for (int gs = 31; gs <= 35; ++gs) {
                savepoint::MetricRow m;
                m.session_id = last.id;
                m.branch_id = last.branch_id;
                m.global_step = gs;
                m.epoch = 4;
                m.step = gs - 30;
                m.loss = 2.0;
                m.accuracy = 0.5;
                m.wall_time = run.updated_at + gs;
                rows.push_back(m);
            }
            reg.append_metrics(run.id, rows);
            reg.set_run_status(run.id, savepoint::RunStatus::Running);
        }
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 2, 30000);
        QCPGraph* b = graphNamed(w_->comparisonPlot()->accuracyPlot(), "lr 1e-4");
        QVERIFY(b);
        QCOMPARE(b->data()->size(), 35);
        savepoint::Registry(home_.toStdString()).set_run_status(2, savepoint::RunStatus::Finished);
    }
};

QTEST_MAIN(TestRunComparison)
#include "test_run_comparison.moc"
