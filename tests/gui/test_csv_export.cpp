// The metrics CSV is for programs, not readers: the same bytes in every locale,
// wall time to the millisecond and metric values that read back exactly.
#include "plot/csv_export.h"
#include "plot/plot_series_store.h"

#include <QLocale>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <clocale>

using namespace savepoint::ui;

class TestCsvExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wallTimeKeepsMillisecondsAndValuesReadBackInAnyLocale();
};

void TestCsvExport::wallTimeKeepsMillisecondsAndValuesReadBackInAnyLocale() {
    // A French reader everywhere: Qt's default locale and the C library's numbers.
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
    const std::string c_before = std::setlocale(LC_NUMERIC, nullptr);
    const bool c_french = std::setlocale(LC_NUMERIC, "fr_FR.UTF-8") != nullptr;
    auto restore = qScopeGuard([&] {
        QLocale::setDefault(before);
        std::setlocale(LC_NUMERIC, c_before.c_str());
    });

    PlotSeriesStore store;
    store.setStepsPerEpoch(1000);
    std::vector<savepoint::MetricRow> rows;
    const double t0 = 1796408790.125;  // a 2026 wall clock: ten digits before the point
    for (int i = 0; i < 5; ++i) {
        savepoint::MetricRow r;
        r.session_id = r.branch_id = 1;
        r.global_step = i + 1;
        r.step = i + 1;
        r.wall_time = t0 + i * 0.001;  // one millisecond apart
        r.loss = 0.1 + i / 3.0;
        r.accuracy = 1.0 / (i + 3);
        rows.push_back(r);
    }
    store.append(rows);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("m.csv"));
    QCOMPARE(exportMetricsCsv(store, path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 5);
    const QList<QByteArray> header = lines[0].split(',');
    const int wall = header.indexOf("wall_time"), loss = header.indexOf("loss"), acc = header.indexOf("accuracy");
    QVERIFY(wall >= 0 && loss >= 0 && acc >= 0);

    const QLocale c = QLocale::c();
    QSet<qint64> millis;
    for (int i = 0; i < 5; ++i) {
        const QList<QByteArray> cells = lines[i + 1].split(',');
        QCOMPARE(cells.size(), header.size());  // a decimal comma would add cells
        bool ok = false;
        const double w = c.toDouble(QString::fromLatin1(cells[wall]), &ok);
        QVERIFY2(ok, cells[wall].constData());
        QVERIFY2(std::abs(w - rows[i].wall_time) < 0.0005, cells[wall].constData());
        millis.insert(qRound64(w * 1000));
        QCOMPARE(c.toDouble(QString::fromLatin1(cells[loss]), &ok), rows[i].loss);  // exactly
        QVERIFY(ok);
        QCOMPARE(c.toDouble(QString::fromLatin1(cells[acc]), &ok), rows[i].accuracy);
        QVERIFY(ok);
    }
    QCOMPARE(millis.size(), 5);  // every point keeps its own time
    if (!c_french) qInfo("fr_FR.UTF-8 is not installed: the C library's locale was not changed");
}

QTEST_GUILESS_MAIN(TestCsvExport)
#include "test_csv_export.moc"
