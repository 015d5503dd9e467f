// What the window says before and after a destructive step (issue 31): the
// question names what is at stake and is the same on every rollback path; a
// folder that cannot be shown is named; each event is listed once and
// counted; event labels on the plot never overlap. Real window offscreen,
// real runs on the synthetic dataset.
#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "plot/metrics_plot.h"
#include "registry/checkpoint_actions.h"
#include "registry/registry.h"
#include "train_configs.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"
#include "window_home.h"
#include "window_support.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace savepoint::ui;

class TestMainWindowConfirmations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void everyRollbackPathAsksTheSameQuestion();
    void deletingAPinnedCheckpointSaysItIsPinned();
    void aFolderThatCannotBeShownIsNamed();
    void eventsAreListedOnceAndCounted();
    void eventLabelsDoNotOverlap();

private:
    // Trains run `name` (3 epochs x 20 steps, a checkpoint every 5) and crashes it after step 30.
    void trainAndCrash(const QString& name);
    bool selectCheckpointAt(std::int64_t gs);

    testsupport::WindowHome home_;
    std::unique_ptr<QTemporaryDir>& dir_ = home_.dir;
    std::unique_ptr<MainWindow>& w_ = home_.window;
    QStringList questions_;
    bool answer_ = true;
};

void TestMainWindowConfirmations::initTestCase() { testsupport::WindowHome::prepareTestCase(); }

void TestMainWindowConfirmations::init() {
    QVERIFY(home_.create());
    questions_.clear();
    answer_ = true;
    home_.open([this](const QString& title, const QString& text) {
        questions_ << title + QStringLiteral(" | ") + text;
        return answer_;
    });
    QVERIFY(home_.show());
}

void TestMainWindowConfirmations::cleanup() { home_.close(); }

void TestMainWindowConfirmations::trainAndCrash(const QString& name) {
    QSignalSpy finished(w_->worker(), &TrainerWorker::finished);
    QVERIFY(w_->training()->startRun(name, testsupport::syntheticMlp(3, 20, 16, 5)));
    w_->worker()->crashAt(30);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.at(0).at(0).value<WorkerOutcome>().outcome, savepoint::Outcome::Crashed);
    QTRY_VERIFY_WITH_TIMEOUT(selectCheckpointAt(10), 10000);
}

bool TestMainWindowConfirmations::selectCheckpointAt(std::int64_t gs) {
    return testsupport::selectCheckpointAt(*w_, gs);
}

void TestMainWindowConfirmations::everyRollbackPathAsksTheSameQuestion() {
    trainAndCrash(QStringLiteral("paths"));
    answer_ = false;  // every question is answered Cancel: nothing may start
    auto* epoch = w_->findChild<QSpinBox*>(QStringLiteral("resumeEpochField"));
    auto* step = w_->findChild<QSpinBox*>(QStringLiteral("resumeStepField"));
    QVERIFY(epoch && step);

    // 1. Resume at, typed: epoch 1, step 10 (global step 10).
    epoch->setValue(1);
    step->setValue(10);
    w_->action(QStringLiteral("resumeAt"))->trigger();
    QCOMPARE(questions_.size(), 1);
    // 2. Enter in the step field.
    step->setFocus();
    QTest::keyClick(step, Qt::Key_Return);
    QCOMPARE(questions_.size(), 2);
    // 3. Resume from here on the plot (its context menu's action).
    w_->training()->resumeAtGlobalStep(10);
    QCOMPARE(questions_.size(), 3);
    // 4. The checkpoint at global step 10: the Resume from here button, and 5. a double-click on its row.
    QVERIFY(selectCheckpointAt(10));
    QTest::mouseClick(w_->findChild<QPushButton*>(QStringLiteral("resumeHereButton")), Qt::LeftButton);
    QCOMPARE(questions_.size(), 4);
    QTableView* view = w_->checkpointView();
    const QRect cell = view->visualRect(view->model()->index(view->currentIndex().row(), 0));
    QVERIFY(view->viewport()->rect().contains(cell.center()));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());  // a double-click's first press
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());

    QCOMPARE(questions_.size(), 5);
    for (const QString& q : questions_) QCOMPARE(q, questions_.front());
    // It says what is at stake: a new branch, and the 20 steps (11..30) past that point.
    QVERIFY2(questions_.front().contains(QStringLiteral("new branch")), qPrintable(questions_.front()));
    QVERIFY2(questions_.front().contains(QStringLiteral("20 step")), qPrintable(questions_.front()));
    QVERIFY2(questions_.front().contains(QStringLiteral("epoch 1, step 10 (global step 10)")),
             qPrintable(questions_.front()));
    QVERIFY(!w_->worker()->isRunning());
    savepoint::Registry reg(w_->home().toStdString());
    QCOMPARE(int(reg.sessions(reg.find_run("paths")->id).size()), 1);
}

void TestMainWindowConfirmations::deletingAPinnedCheckpointSaysItIsPinned() {
    trainAndCrash(QStringLiteral("pins"));
    savepoint::Registry reg(w_->home().toStdString());
    const auto run = reg.find_run("pins");
    std::int64_t at10 = 0, at20 = 0;
    for (const auto& c : reg.checkpoints(run->id)) {
        if (c.global_step == 10) at10 = c.id;
        if (c.global_step == 20) at20 = c.id;
    }
    QVERIFY(at10 > 0 && at20 > 0);
    savepoint::set_checkpoint_pinned(reg, *run, at10, true);
    w_->runData()->refreshSelected();
    answer_ = false;
    QVERIFY(!w_->runData()->deleteCheckpoint(at20));
    QVERIFY(!w_->runData()->deleteCheckpoint(at10));
    QCOMPARE(questions_.size(), 2);
    QVERIFY2(!questions_[0].contains(QStringLiteral("pinned")), qPrintable(questions_[0]));
    QVERIFY2(questions_[1].contains(QStringLiteral("It is pinned")), qPrintable(questions_[1]));
    QCOMPARE(reg.checkpoint(at10)->state, savepoint::CheckpointState::Committed);  // Cancel kept it
}

void TestMainWindowConfirmations::aFolderThatCannotBeShownIsNamed() {
    trainAndCrash(QStringLiteral("show"));
    QStringList opened;
    w_->runData()->setFolderOpener([&opened](const QString& path) {
        opened << path;
        return false;  // no file manager on this machine
    });
    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(w_->findChild<QPushButton*>(QStringLiteral("revealButton")), Qt::LeftButton);
    savepoint::Registry reg(w_->home().toStdString());
    const auto row = w_->runData()->selectedCheckpoint();
    QVERIFY(row);
    const QString file = QFileInfo(QString::fromStdString(reg.absolute(row->path))).absoluteFilePath();
    QCOMPARE(opened, QStringList{QFileInfo(file).absolutePath()});
    QVERIFY(w_->banner()->isVisible());
    QCOMPARE(w_->banner()->kind(), Banner::Kind::Error);
    QVERIFY2(w_->banner()->text().contains(file), qPrintable(w_->banner()->text()));
    QCOMPARE(QGuiApplication::clipboard()->text(), file);
}

void TestMainWindowConfirmations::eventsAreListedOnceAndCounted() {
    trainAndCrash(QStringLiteral("events"));
    // Roll back and train to the end in this window: events arrive live and from the registry polls.
    QSignalSpy finished(w_->worker(), &TrainerWorker::finished);
    w_->training()->resumeFromSelectedCheckpoint();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    for (int i = 0; i < 3; ++i) {
        w_->runData()->refreshRuns();
        w_->runData()->refreshSelected();
        QTest::qWait(50);
    }
    savepoint::Registry reg(w_->home().toStdString());
    const auto events = reg.events(reg.find_run("events")->id);
    QVERIFY(events.size() >= 5);
    const QString text = w_->findChild<QPlainTextEdit*>(QStringLiteral("eventLog"))->toPlainText();
    bool rollback = false;
    for (const auto& e : events) {
        rollback = rollback || e.kind == savepoint::EventKind::Rollback;
        const QString line = QStringLiteral("[%1] %2").arg(QString::fromLatin1(savepoint::to_string(e.kind)),
                                                           QString::fromStdString(e.message));
        QVERIFY2(text.count(line) == 1, qPrintable(line + QStringLiteral("\n--- in ---\n") + text));
    }
    QVERIFY(rollback);
    // The first line counts them all, the live ones included (no translator here: the source's plural).
    QVERIFY2(text.startsWith(QStringLiteral("Run “events”: %1 event(s) recorded").arg(events.size())),
             qPrintable(text.left(200)));
}

void TestMainWindowConfirmations::eventLabelsDoNotOverlap() {
    // Events a step apart (a rollback right after a stop, say) at several zooms.
    MetricsPlot plot;
    plot.resize(900, 500);
    plot.setRunInfo(100, 0);
    savepoint::BranchRow b;
    b.id = 1;
    b.run_id = 1;
    plot.setBranches({b});
    std::vector<savepoint::MetricRow> rows;
    for (int gs = 1; gs <= 400; ++gs) {
        savepoint::MetricRow m;
        m.session_id = 1;
        m.branch_id = 1;
        m.global_step = gs;
        m.kind = savepoint::MetricKind::TrainingStep;
        m.loss = 1.0 / gs;
        m.accuracy = 0.5;
        m.wall_time = gs;
        rows.push_back(m);
    }
    plot.appendMetrics(rows);
    std::vector<savepoint::EventRow> events;
    const std::pair<savepoint::EventKind, int> at[] = {
        {savepoint::EventKind::Stop, 100},       {savepoint::EventKind::Rollback, 101},
        {savepoint::EventKind::Resume, 102},     {savepoint::EventKind::Interruption, 104},
        {savepoint::EventKind::Resume, 105},     {savepoint::EventKind::PreemptionNotice, 300},
        {savepoint::EventKind::Preemption, 301}, {savepoint::EventKind::Resume, 302},
        {savepoint::EventKind::Finish, 400}};
    std::int64_t id = 0;
    for (const auto& [kind, gs] : at) {
        savepoint::EventRow e;
        e.id = ++id;
        e.run_id = 1;
        e.session_id = id;
        e.kind = kind;
        e.global_step = gs;
        e.created_at = gs;
        events.push_back(e);
    }
    plot.setEvents(events);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    for (int width : {900, 500, 1600}) {
        plot.resize(width, 500);
        QCoreApplication::processEvents();
        plot.flush();
        const QVector<QRectF> r = plot.lossMarkers().labelRects();
        QVERIFY2(r.size() >= 4, qPrintable(QString::number(r.size())));
        for (int i = 0; i < r.size(); ++i)
            for (int j = i + 1; j < r.size(); ++j)
                QVERIFY2(!r[i].intersects(r[j]),
                         qPrintable(QStringLiteral("width %1: labels %2 and %3 overlap").arg(width).arg(i).arg(j)));
    }
}

QTEST_MAIN(TestMainWindowConfirmations)
#include "test_main_window_confirmations.moc"
