#include "plot/csv_export.h"

#include "data/data_order.h"

#include <QCoreApplication>
#include <QSaveFile>

#include <cmath>
#include <cstdio>
#include <string>

namespace savepoint::ui {

static void put(std::string& out, double v) {
    if (!std::isfinite(v)) return;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    out += buf;
}

QString exportMetricsCsv(const PlotSeriesStore& store, const QString& path) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("CsvExport", "Cannot write %1: %2").arg(path, f.errorString());
    std::string out =
        "branch,segment,state,kind,global_step,epoch,step,wall_time,loss,loss_smoothed,accuracy,accuracy_smoothed\n";
    const std::int64_t spe = store.stepsPerEpoch();
    for (const auto& s : store.segments()) {
        const std::string head =
            std::to_string(s.branch_id) + "," + std::to_string(s.index) + "," + (s.abandoned ? "abandoned" : "live");
        auto row = [&](const char* kind, double gs, double wall, double loss, double lema, double acc, double aema) {
            const auto g = static_cast<std::int64_t>(gs);
            const savepoint::Position p = savepoint::position_of(g, spe);
            out += head;
            out += ",";
            out += kind;
            out += "," + std::to_string(g) + "," + std::to_string(p.epoch) + "," + std::to_string(p.step) + ",";
            put(out, wall);
            out += ",";
            put(out, loss);
            out += ",";
            put(out, lema);
            out += ",";
            put(out, acc);
            out += ",";
            put(out, aema);
            out += "\n";
        };
        for (int i = 0; i < s.size(); ++i)
            row("train", s.gs[i], s.wall[i], s.loss[i], s.loss_ema[i], s.acc[i], s.acc_ema[i]);
        for (int i = 0; i < s.vgs.size(); ++i) row("validation", s.vgs[i], s.vwall[i], s.vloss[i], NAN, s.vacc[i], NAN);
        if (out.size() > (1 << 22)) {
            f.write(out.data(), qint64(out.size()));
            out.clear();
        }
    }
    f.write(out.data(), qint64(out.size()));
    if (!f.commit()) return QCoreApplication::translate("CsvExport", "Cannot write %1: %2").arg(path, f.errorString());
    return {};
}

}  // namespace savepoint::ui
