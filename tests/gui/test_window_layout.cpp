// The window a first-time user sees, in English, French and Brazilian
// Portuguese: numbers in the reader's locale (tables, panel, plot ticks) and a
// layout that holds at 1024x700 (no header cut, room for the run list, the
// legend beside the curves, docks that grow back with the window).
#include "bridge/engine_types.h"
#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "models/run_list_model.h"
#include "plot/metrics_plot.h"
#include "plot/qcp.h"
#include "train_configs.h"
#include "window/fault_tolerance_panel.h"
#include "window/main_window.h"
#include "window/status_bar.h"
#include "window/training_controller.h"
#include "window/translations_loader.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace savepoint::ui;

class TestWindowLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void numbersAndLayout_data();
    void numbersAndLayout();
    void emptyPlotShowsNoAxesOrLegend();
    void draggedSeparatorKeepsItsShare();

private:
    // A window at 1024x700 on a home (default: the one with the run) in a language.
    std::unique_ptr<MainWindow> openWindow(const QString& lang, const QString& dir = {});
    QTemporaryDir dir_;
    QLocale before_;
};

static constexpr std::int64_t kSteps = 1200;  // four digits: the group separator shows

// One short real run into the home all the windows then open.
void TestWindowLayout::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    registerEngineMetaTypes();
    QVERIFY(dir_.isValid());
    auto w = openWindow(QStringLiteral("en"));
    QSignalSpy finished(w->worker(), &TrainerWorker::finished);
    auto c = testsupport::syntheticMlp(2, kSteps / 2, 16, 400);
    c.keep = 10;
    QVERIFY(w->training()->startRun(QStringLiteral("a-run-with-a-rather-long-name-to-shorten-in-the-middle"), c));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.at(0).at(0).value<WorkerOutcome>().outcome, savepoint::Outcome::Finished);
}

void TestWindowLayout::cleanupTestCase() {
    installTranslations(QStringLiteral("en"));
    QLocale::setDefault(before_);
}

std::unique_ptr<MainWindow> TestWindowLayout::openWindow(const QString& lang, const QString& dir) {
    installTranslations(lang);
    const QDir d(dir.isEmpty() ? dir_.path() : dir);
    MainWindowOptions o;
    o.home = d.filePath(QStringLiteral("home"));
    o.settings_path = d.filePath(lang + QStringLiteral(".ini"));  // a first start: no saved layout
    auto w = std::make_unique<MainWindow>(o);
    w->setConfirmHandler([](const QString&, const QString&) { return true; });
    w->resize(1024, 700);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    return w;
}

void TestWindowLayout::numbersAndLayout_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("steps");  // 1200 as its readers write it
    QTest::addColumn<QChar>("point");    // the decimal separator
    QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("1,200") << QChar(u'.');
    QTest::newRow("fr") << QStringLiteral("fr") << QStringLiteral("1\u202f200") << QChar(u',');
    QTest::newRow("pt_BR") << QStringLiteral("pt_BR") << QStringLiteral("1.200") << QChar(u',');
}

// Every visible section at least as wide as its text and the style's margins.
static void checkHeadersWhole(QTableView* view, const char* what) {
    QHeaderView* h = view->horizontalHeader();
    const QFontMetrics fm(h->font());
    const int margins = 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    for (int s = 0; s < h->count(); ++s) {
        if (h->isSectionHidden(s)) continue;
        const QString text = view->model()->headerData(s, Qt::Horizontal).toString();
        const int need = fm.horizontalAdvance(text) + margins;
        QVERIFY2(h->sectionSize(s) >= need, qPrintable(QStringLiteral("%1 column '%2': %3 px for %4 px of text")
                                                           .arg(QLatin1String(what), text)
                                                           .arg(h->sectionSize(s))
                                                           .arg(need)));
    }
}

void TestWindowLayout::numbersAndLayout() {
    QFETCH(QString, lang);
    QFETCH(QString, steps);
    QFETCH(QChar, point);
    auto w = openWindow(lang);
    QVERIFY(w);
    auto restore = qScopeGuard([] { installTranslations(QStringLiteral("en")); });
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()->rowCount() == 1 && w->checkpointModel()->rowCount() >= 3, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(w->plot()->store().pointCount() >= kSteps, 20000);
    w->plot()->flush();
    QTest::qWait(100);  // the docks take their shares once the window has its size

    // Tables: the run's progress and the last checkpoint's global step, loss with the decimal separator.
    const QString progress = w->runModel()->index(0, RunListModel::Progress).data().toString();
    QVERIFY2(progress.contains(steps + QLatin1Char('/') + steps), qPrintable(progress));
    const CheckpointTableModel* ck = w->checkpointModel();
    int last = -1;
    for (int r = 0; r < ck->rowCount(); ++r)
        if (ck->rowAt(r)->global_step == kSteps) last = r;
    QVERIFY(last >= 0);
    QCOMPARE(ck->index(last, CheckpointTableModel::GlobalStep).data().toString(), steps);
    const QString loss = ck->index(last, CheckpointTableModel::TrainLoss).data().toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+\\%1\\d{4}$").arg(point)).match(loss).hasMatch(),
             qPrintable(loss));

    // The panel's "≈ every N steps", N with the group separator of the language.
    FaultTolerancePanel* ft = w->faultPanel();
    ft->setForceAssumedMtbf(true);
    ft->setAssumedMtbfSeconds(100000 * 60.0);  // a long MTBF: an interval of thousands of steps
    const double n = std::round(ft->stats().optimal_interval_steps);
    QVERIFY2(n >= 1000, qPrintable(QString::number(n)));
    const QString grouped = QLocale(lang).toString(n, 'f', 0);
    QCOMPARE(grouped.size(), QString::number(n, 'f', 0).size() + int(std::log10(n)) / 3);  // separators, not digits
    bool shown = false;
    for (const QLabel* l : ft->findChildren<QLabel*>()) shown = shown || l->text().contains(grouped);
    QVERIFY2(shown, qPrintable(grouped));

    // Plot ticks: accuracy 0.2, 0.4 ... with the language's decimal separator.
    QCustomPlot* acc = w->plot()->accuracyPlot();
    acc->replot();
    const QVector<QString> ticks = acc->yAxis->tickVectorLabels();
    QVERIFY(!ticks.isEmpty());
    const QChar other = point == QLatin1Char('.') ? QLatin1Char(',') : QLatin1Char('.');
    bool decimal = false;
    for (const QString& t : ticks) {
        QVERIFY2(!t.contains(other), qPrintable(t));
        decimal = decimal || t.contains(point);
    }
    QVERIFY(decimal);

    // 1024x700: whole headers, a run list with room for a few runs, the legend beside the curves.
    QCOMPARE(w->size(), QSize(1024, 700));
    for (QTableView* v : {w->runView(), w->checkpointView()}) {
        checkHeadersWhole(v, qPrintable(v->objectName()));
        if (QTest::currentTestFailed()) return;
        // No column past the right edge (the last one, "Pinned", used to be cut there).
        QVERIFY2(v->horizontalHeader()->length() <= v->viewport()->width(), qPrintable(v->objectName()));
    }
    QVERIFY2(w->runView()->viewport()->height() >= 4 * w->runView()->verticalHeader()->defaultSectionSize(),
             qPrintable(QString::number(w->runView()->viewport()->height())));
    QVERIFY(acc->legend->visible());
    QVERIFY(!acc->legend->outerRect().intersects(acc->axisRect()->rect()));
    QVERIFY(acc->legend->outerRect().right() <= acc->width());
    // The status bar of a run in training: its fields right of the phase are whole and
    // inside the window (the last one, "Último checkpoint há 0 s", used to be cut at the edge).
    savepoint::Progress live;
    live.run = "a-run-with-a-rather-long-name-to-shorten-in-the-middle";
    live.phase = savepoint::Phase::Training;
    live.device = "cpu (2 threads)";
    live.steps_per_second = 1234.5;
    live.eta_seconds = 3700;
    live.epoch = 10, live.epochs = 10, live.step = 18750, live.steps_per_epoch = 18750;
    live.global_step = live.total_steps = 187500;
    live.last_checkpoint_at = savepoint::now_seconds();
    w->statusFields()->setProgress(live);
    QCoreApplication::processEvents();
    for (const QLabel* l : w->statusBar()->findChildren<QLabel*>()) {
        if (!l->isVisible() || l->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored) continue;
        const QRect r(l->mapTo(w.get(), QPoint(0, 0)), l->size());
        QVERIFY2(r.right() < w->width() && l->width() >= l->sizeHint().width(),
                 qPrintable(QStringLiteral("“%1”: %2 px of %3, right edge %4")
                                .arg(l->text())
                                .arg(l->width())
                                .arg(l->sizeHint().width())
                                .arg(r.right())));
    }

    // Larger again: the side column takes its share back.
    auto* runs = w->findChild<QDockWidget*>(QStringLiteral("runsDock"));
    QVERIFY(runs);
    const int narrow = runs->width();
    w->resize(1920, 1200);
    QTRY_VERIFY_WITH_TIMEOUT(runs->width() >= 1920 / 4, 5000);
    QVERIFY(runs->width() > narrow);
    w->resize(1024, 700);
    QTRY_COMPARE_WITH_TIMEOUT(runs->width(), narrow, 5000);
}

// A first start: no run, so no tick labels to read (no accuracy axis 0-5) and no legend.
void TestWindowLayout::emptyPlotShowsNoAxesOrLegend() {
    QTemporaryDir empty;
    auto w = openWindow(QStringLiteral("en"), empty.path());
    QVERIFY(w);
    w->plot()->flush();
    for (QCustomPlot* p : {w->plot()->lossPlot(), w->plot()->accuracyPlot()}) {
        QVERIFY(!p->xAxis->tickLabels() && !p->yAxis->tickLabels());
        QVERIFY(!p->yAxis->grid()->visible());
        QVERIFY(!p->legend->visible());
    }
}

// The user drags the separator right of the run list with the mouse (through the
// window system, as a real drag): the column keeps that share of the window when
// the window grows, and again in the next session (settings ui/dockShares).
void TestWindowLayout::draggedSeparatorKeepsItsShare() {
    QTemporaryDir home;
    QVERIFY(home.isValid());
    int dragged_width = 0;
    {
        auto w = openWindow(QStringLiteral("en"), home.path());
        QVERIFY(w);
        auto* runs = w->findChild<QDockWidget*>(QStringLiteral("runsDock"));
        QVERIFY(runs);
        QTRY_VERIFY(qAbs(runs->width() - int(1024 * 0.30)) < 30);  // the default share
        const int before = runs->width();
        QWindow* win = w->windowHandle();
        // The separator is the gap between the dock's right edge and the central widget.
        const QPoint top_left = runs->mapTo(w.get(), QPoint(0, 0));
        const QPoint grip(
            top_left.x() + runs->width() + w->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent) / 2,
            top_left.y() + runs->height() / 2);
        // Over the separator first, as a hand on a mouse is: the press alone starts no drag here.
        QTest::mouseMove(win, grip);
        QTest::qWait(20);
        QTest::mousePress(win, Qt::LeftButton, {}, grip);
        QTest::qWait(20);
        for (int dx = 10; dx <= 150; dx += 10) {
            QTest::mouseMove(win, grip + QPoint(dx, 0));
            QTest::qWait(20);
        }
        QTest::mouseRelease(win, Qt::LeftButton, {}, grip + QPoint(150, 0));
        QTRY_VERIFY2(runs->width() > before + 100,
                     qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(runs->width())));
        dragged_width = runs->width();
        const double share = double(dragged_width) / w->width();
        w->resize(1440, 900);
        QTRY_VERIFY2(qAbs(runs->width() - int(1440 * share)) < 30,
                     qPrintable(QStringLiteral("%1 at 1440, share %2").arg(runs->width()).arg(share)));
        w->resize(1024, 700);
        QTRY_VERIFY(qAbs(runs->width() - dragged_width) < 30);
        w->close();  // saves the settings
    }
    auto w = openWindow(QStringLiteral("en"), home.path());
    QVERIFY(w);
    auto* runs = w->findChild<QDockWidget*>(QStringLiteral("runsDock"));
    QTRY_VERIFY2(qAbs(runs->width() - dragged_width) < 30,
                 qPrintable(QStringLiteral("%1 after reopening, %2 dragged").arg(runs->width()).arg(dragged_width)));
}

QTEST_MAIN(TestWindowLayout)
#include "test_window_layout.moc"
