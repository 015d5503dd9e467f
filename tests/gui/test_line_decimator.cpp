// LineDecimator: what QCustomPlot is handed for a long line keeps every extreme
// (displaced by at most one pixel column), is a subset of the real points in
// key order, is small, and does not depend on how the points arrived.
#include "plot/line_decimator.h"

#include <QRandomGenerator>
#include <QtTest>

#include <cmath>
#include <set>

using namespace savepoint::ui;

namespace {

QSharedPointer<QCPGraphDataContainer> series(int n, quint64 seed, double spikeAt = -1) {
    QRandomGenerator rng(seed);
    QVector<QCPGraphData> pts(n);
    for (int i = 0; i < n; ++i) {
        pts[i].key = i + 1;
        pts[i].value = 2.0 * std::exp(-i / 3e5) + 0.1 * rng.generateDouble();
        if (i == spikeAt) pts[i].value = 50;
    }
    QSharedPointer<QCPGraphDataContainer> c(new QCPGraphDataContainer);
    c->set(pts, true);
    return c;
}

// Column of a key on a `pixels`-wide axis over [lo, hi].
int column(double key, double lo, double hi, int pixels) { return int(std::floor((key - lo) / (hi - lo) * pixels)); }

}  // namespace

class TestLineDecimator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shortSeriesPassesThroughUnchanged() {
        auto full = series(5000, 1);
        LineDecimator d;
        d.extend(*full);
        QCPGraphDataContainer out;
        d.decimate(*full, 0, 6000, 1000, out);  // 5 points per pixel: below one bucket per column
        QCOMPARE(full->size(), 5000);           // two empty series would compare equal below
        QCOMPARE(out.size(), full->size());
        for (int i = 0; i < out.size(); ++i) {
            QCOMPARE(out.at(i)->key, full->at(i)->key);
            QCOMPARE(out.at(i)->value, full->at(i)->value);
        }
    }

    void longSeriesKeepsEveryColumnsExtremes() {
        const int n = 1000000, pixels = 1400;
        auto full = series(n, 2, 777777);
        LineDecimator d;
        d.extend(*full);
        for (auto [lo, hi] : {std::pair<double, double>{0, n + 1.0}, {250000.5, 750000.5}, {777000, 790000}}) {
            QCPGraphDataContainer out;
            d.decimate(*full, lo, hi, pixels, out);
            QVERIFY2(out.size() <= 8 * pixels + 2 * 1024 + 2, qPrintable(QString::number(out.size())));
            // A subset of the real points, in key order.
            for (int i = 0; i < out.size(); ++i) {
                const double k = out.at(i)->key;
                QCOMPARE(full->at(int(k) - 1)->value, out.at(i)->value);
                if (i) QVERIFY(out.at(i - 1)->key < k);
            }
            // It reaches past both edges of the view.
            QVERIFY(out.constBegin()->key <= std::max(1.0, lo));
            QVERIFY((out.constEnd() - 1)->key >= std::min(double(n), hi));
            // Per pixel column: the drawn max/min within one column either side equals the true one.
            std::vector<double> trueMax(pixels, -1e300), trueMin(pixels, 1e300), drawnMax(pixels, -1e300),
                drawnMin(pixels, 1e300);
            for (auto it = full->findBegin(lo, false); it != full->findEnd(hi, false); ++it) {
                const int c = std::clamp(column(it->key, lo, hi, pixels), 0, pixels - 1);
                trueMax[c] = std::max(trueMax[c], it->value);
                trueMin[c] = std::min(trueMin[c], it->value);
            }
            for (auto it = out.constBegin(); it != out.constEnd(); ++it) {
                const int c = column(it->key, lo, hi, pixels);
                if (c < 0 || c >= pixels) continue;
                drawnMax[c] = std::max(drawnMax[c], it->value);
                drawnMin[c] = std::min(drawnMin[c], it->value);
            }
            int checked = 0;
            for (int c = 0; c < pixels; ++c) {
                if (trueMax[c] < -1e299) continue;
                double mx = -1e300, mn = 1e300;
                for (int k = std::max(0, c - 1); k <= std::min(pixels - 1, c + 1); ++k) {
                    mx = std::max(mx, drawnMax[k]);
                    mn = std::min(mn, drawnMin[k]);
                }
                QVERIFY2(mx >= trueMax[c] && mn <= trueMin[c], qPrintable(QStringLiteral("column %1").arg(c)));
                ++checked;
            }
            QVERIFY(checked > pixels / 2);
            if (lo < 777778 && hi > 777778) {  // the spike is drawn
                bool spike = false;
                for (auto it = out.constBegin(); it != out.constEnd(); ++it) spike = spike || it->value == 50;
                QVERIFY(spike);
            }
        }
    }

    void incrementalIndexEqualsOneShot() {
        const int n = 300000;
        auto full = series(n, 3);
        LineDecimator once;
        once.extend(*full);
        // The same points arriving in uneven batches, as they do while training.
        QSharedPointer<QCPGraphDataContainer> growing(new QCPGraphDataContainer);
        LineDecimator inc;
        QRandomGenerator rng(9);
        for (int at = 0; at < n;) {
            const int take = std::min(n - at, 1 + int(rng.bounded(5000u)));
            QVector<QCPGraphData> batch;
            for (int i = at; i < at + take; ++i) batch.push_back(*full->at(i));
            growing->add(batch, true);
            inc.extend(*growing);
            at += take;
        }
        QCOMPARE(inc.indexed(), n);
        QCPGraphDataContainer a, b;
        once.decimate(*full, 0, n + 1, 800, a);
        inc.decimate(*growing, 0, n + 1, 800, b);
        QVERIFY2(a.size() >= 800, qPrintable(QString::number(a.size())));  // every pixel column drawn
        QCOMPARE(a.size(), b.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(a.at(i)->key, b.at(i)->key);
            QCOMPARE(a.at(i)->value, b.at(i)->value);
        }
        QVERIFY(a.size() < n / 20);
    }

    void nanDoesNotHideExtremes() {
        QVector<QCPGraphData> pts;
        for (int i = 0; i < 200000; ++i)
            pts.push_back({double(i), i % 1000 == 0 ? std::nan("") : (i == 123457 ? -5.0 : 1.0)});
        QCPGraphDataContainer full;
        full.set(pts, true);
        LineDecimator d;
        d.extend(full);
        QCPGraphDataContainer out;
        d.decimate(full, 0, 200000, 500, out);
        QVERIFY(out.size() < 5000);
        bool low = false;
        for (auto it = out.constBegin(); it != out.constEnd(); ++it) low = low || it->value == -5.0;
        QVERIFY(low);
    }

    void resetForgetsTheIndex() {
        auto full = series(100000, 4);
        LineDecimator d;
        d.extend(*full);
        d.reset();
        QCOMPARE(d.indexed(), 0);
        QCPGraphDataContainer out;
        d.decimate(*full, 0, 100001, 100, out);  // no index: every point
        QCOMPARE(out.size(), 100000);
    }
};

QTEST_APPLESS_MAIN(TestLineDecimator)
#include "test_line_decimator.moc"
