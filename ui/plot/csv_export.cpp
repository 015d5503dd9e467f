#include "plot/csv_export.h"

#include "data/data_order.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QLocale>
#include <QSaveFile>

#include <cmath>
#include <string>

namespace savepoint::ui {

// QByteArray::number always writes the C way (a '.'), whatever the process's C
// locale: QCoreApplication sets LC_NUMERIC from the environment, so printf would
// write "0,5" under a French one. Shortest: the fewest digits that read back as the same double.
static void put(std::string& out, double v, char format = 'g', int precision = QLocale::FloatingPointShortest) {
    if (!std::isfinite(v)) return;
    out += QByteArray::number(v, format, precision).toStdString();
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
            put(out, wall, 'f', 3);  // seconds since 1970 UTC to the millisecond
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
