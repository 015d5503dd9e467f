// The status bar's fields: validation shown as samples done, numbers in the
// window's locale, and a run trained by another process shown from its registry row.
#include "window/status_bar.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QtTest>

using namespace savepoint::ui;

class TestStatusBar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QLocale::setDefault(QLocale(QLocale::Portuguese, QLocale::Brazil)); }
    void cleanup() { QLocale::setDefault(QLocale::c()); }
    void validationShowsSamplesInTheLocale();
    void runTrainedElsewhereShowsItsRegistryProgress();
};

void TestStatusBar::validationShowsSamplesInTheLocale() {
    QStatusBar bar;
    StatusBarFields f(&bar);
    savepoint::Progress p;
    p.run = "cnn";
    p.phase = savepoint::Phase::Validating;
    p.global_step = 400;
    p.total_steps = 2000;
    p.validated = 3200;
    p.validation_total = 10000;
    f.setProgress(p);
    QCOMPARE(f.progressBar()->maximum(), 10000);
    QCOMPARE(f.progressBar()->value(), 3200);
    QCOMPARE(f.progressBar()->format(), StatusBarFields::tr("validating %1/%2").arg("3.200", "10.000"));
    // Back to training: the bar counts steps again, grouped the Brazilian way.
    p.phase = savepoint::Phase::Training;
    p.validated = p.validation_total = 0;
    p.global_step = 1401;
    p.epoch = 1;
    p.epochs = 1;
    p.step = 1401;
    p.steps_per_epoch = 2000;
    f.setProgress(p);
    QCOMPARE(f.progressBar()->value(), 1401);
    QCOMPARE(f.progressBar()->format(),
             StatusBarFields::tr("epoch %1/%2 · step %3/%4").arg("1", "1", "1.401", "2.000"));
}

void TestStatusBar::runTrainedElsewhereShowsItsRegistryProgress() {
    QStatusBar bar;
    StatusBarFields f(&bar);
    savepoint::Progress mine;  // the window's own last run, which must not stay on show
    mine.run = "mine";
    mine.phase = savepoint::Phase::Done;
    mine.global_step = mine.total_steps = 10;
    f.setProgress(mine);
    savepoint::RunRow other;
    other.id = 7;
    other.name = "cli";
    other.status = savepoint::RunStatus::Running;
    other.steps_per_epoch = 400;
    other.total_steps = 2000;
    other.global_step = 1458;
    other.device = "cpu";
    f.followRun(other);
    QCOMPARE(f.progressBar()->maximum(), 2000);
    QCOMPARE(f.progressBar()->value(), 1458);
    QCOMPARE(f.progressBar()->format(), StatusBarFields::tr("epoch %1/%2 · step %3/%4").arg("4", "5", "258", "400"));
    QVERIFY(f.phaseLabel()->text().startsWith(QStringLiteral("cli")));
    other.status = savepoint::RunStatus::Finished;
    other.global_step = 2000;
    f.followRun(other);
    QCOMPARE(f.phaseLabel()->text(), StatusBarFields::tr("Idle"));
    QCOMPARE(f.progressBar()->value(), 2000);
}

QTEST_MAIN(TestStatusBar)
#include "test_status_bar.moc"
