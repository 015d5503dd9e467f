// A divergence in the window: the plot marks the step, the banner offers
// "Roll back to the last good checkpoint", whose dialog prefills a tenth of the
// learning rate, refuses a bad one beside the field, and rolls back on a new
// branch at the rate typed, which the legend names. Real window offscreen, a
// real run on the synthetic dataset; the divergence is injected at one step
// (SAVEPOINT_INJECT_NONFINITE, as test_divergence does through the CLI).
#include "bridge/trainer_worker.h"
#include "plot/event_markers.h"
#include "plot/metrics_plot.h"
#include "plot/qcp.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/rollback_dialog.h"
#include "window/training_controller.h"
#include "window_home.h"
#include "window_support.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace savepoint::ui;

class TestDivergenceOffer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testsupport::WindowHome::prepareTestCase(); }
    void markerAndRollbackOffer();
};

void TestDivergenceOffer::markerAndRollbackOffer() {
    testsupport::WindowHome home;
    QVERIFY(home.create());
    MainWindow* w = &home.open();
    QVERIFY(home.show());

    QSignalSpy finished(w->worker(), &TrainerWorker::finished);
    qputenv("SAVEPOINT_INJECT_NONFINITE", "loss@35");
    QVERIFY(w->training()->startRun(QStringLiteral("nan"), testsupport::syntheticMlp(3, 20, 16, 10)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    qunsetenv("SAVEPOINT_INJECT_NONFINITE");
    const auto out = finished.at(0).at(0).value<WorkerOutcome>();
    QVERIFY2(!out.threw, out.message.c_str());
    QCOMPARE(out.outcome, savepoint::Outcome::Diverged);

    // The plot marks it, at the last good step.
    w->plot()->flush();
    int marked = 0;
    for (const auto& e : w->plot()->lossMarkers().events())
        if (e.kind == savepoint::EventKind::Divergence && e.global_step == 34) ++marked;
    QCOMPARE(marked, 1);
    QCOMPARE(EventMarkers::label(savepoint::EventKind::Divergence), QStringLiteral("diverged (NaN)"));

    // The banner says so and offers the way back.
    QVERIFY(w->banner()->isVisible());
    QVERIFY2(w->banner()->text().contains(QStringLiteral("Training diverged")), qPrintable(w->banner()->text()));
    // The engine's reason with its fields, in the window's words: the button below, no CLI flag.
    const auto* why = std::get_if<savepoint::DivergedReason>(&out.reason);
    QVERIFY(why);
    QCOMPARE(why->at.global_step, 35);
    QVERIFY(why->good_checkpoint);
    QCOMPARE(*why->good_checkpoint, 3);
    QCOMPARE(why->good_at.global_step, 30);
    QCOMPARE(why->learning_rate, 0.001);
    QVERIFY(testsupport::noCliWords(w->banner()->text()));
    QVERIFY2(w->banner()->text().contains(QStringLiteral("the last good checkpoint is #3")),
             qPrintable(w->banner()->text()));
    QVERIFY2(w->banner()->text().contains(QStringLiteral("“Roll back to the last good checkpoint…”")),
             qPrintable(w->banner()->text()));
    QPushButton* offer = w->banner()->actionButton();
    QVERIFY(offer && offer->isVisible());
    QCOMPARE(offer->text(), QStringLiteral("Roll back to the last good checkpoint…"));
    offer->click();
    RollbackDialog* dlg = w->training()->rollbackDialog();
    QVERIFY(dlg && dlg->isVisible());
    QCOMPARE(dlg->lrField()->text(), QStringLiteral("0.0001"));  // a tenth of the run's 0.001
    QVERIFY(dlg->rollbackButton()->isEnabled());
    dlg->lrField()->setText(QStringLiteral("fast"));
    QVERIFY(dlg->lrError()->isVisible());
    QCOMPARE(dlg->lrError()->text(), QStringLiteral("Enter a number such as 0.001 or 1e-3"));
    QVERIFY(!dlg->rollbackButton()->isEnabled());
    dlg->lrField()->setText(QStringLiteral("20"));
    QVERIFY(dlg->lrError()->isVisible());
    QVERIFY(!dlg->rollbackButton()->isEnabled());
    dlg->lrField()->setText(QStringLiteral("5e-5"));
    QVERIFY(!dlg->lrError()->isVisible());
    QVERIFY(dlg->rollbackButton()->isEnabled());
    dlg->rollbackButton()->click();

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
    const auto again = finished.at(1).at(0).value<WorkerOutcome>();
    QVERIFY2(!again.threw, again.message.c_str());
    QCOMPARE(again.outcome, savepoint::Outcome::Finished);
    savepoint::Registry reg(w->home().toStdString());
    const auto run = reg.find_run("nan");
    const auto branches = reg.branches(run->id);
    QCOMPARE(int(branches.size()), 2);
    QCOMPARE(branches[1].lr.value_or(0), 5e-5);
    QCOMPARE(branches[1].fork_checkpoint_id.value_or(0), 3);  // the last good one, at step 30

    // The legend names the new branch's rate.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            w->plot()->flush();
            QCustomPlot* acc = w->plot()->accuracyPlot();
            for (int i = 0; i < acc->graphCount(); ++i)
                if (acc->graph(i)->name() == QStringLiteral("branch 2 · lr 5e-05")) return true;
            return false;
        }(),
        20000);
}

QTEST_MAIN(TestDivergenceOffer)
#include "test_divergence_offer.moc"
