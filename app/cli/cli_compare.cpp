// savepoint-cli compare: several runs side by side, the runs as columns: the
// settings that differ, then how far each got and its final and best
// validation figures (registry/run_comparison.h). Or the same as JSON.
#include "cli_commands.h"
#include "cli_home.h"
#include "cli_output.h"

#include "registry/run_comparison.h"
#include "training/train_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace savepoint {
namespace {

nlohmann::json num(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

std::string four(double v) {
    if (std::isnan(v)) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.4f", v);
    return b;
}

std::string where(const ValidationFigure& f) {
    return "epoch " + std::to_string(f.epoch) + ", global step " + std::to_string(f.global_step) +
           (f.branch > 1 ? ", branch " + std::to_string(f.branch) : "");
}

nlohmann::json figure_json(const ValidationFigure& f) {
    if (!f.known()) return nullptr;
    return {{"val_loss", num(f.loss)}, {"val_accuracy", num(f.accuracy)}, {"epoch", f.epoch},
            {"step", f.step},          {"global_step", f.global_step},    {"branch", f.branch}};
}

nlohmann::json comparison_json(const RunComparison& c) {
    nlohmann::json runs = nlohmann::json::array(), diffs = nlohmann::json::array();
    for (const auto& r : c.runs)
        runs.push_back({{"name", r.run.name},
                        {"label", r.label},
                        {"status", to_string(r.run.status)},
                        {"config", r.config},
                        {"global_step", r.run.global_step},
                        {"total_steps", r.run.total_steps},
                        {"wall_seconds", r.wall_seconds},
                        {"train_seconds", r.train_seconds},
                        {"validations", r.validations},
                        {"final", figure_json(r.final_val)},
                        {"best_loss", figure_json(r.best_loss)},
                        {"best_accuracy", figure_json(r.best_accuracy)}});
    for (const auto& d : c.differences)
        diffs.push_back({{"setting", d.key}, {"values", d.values}, {"shown", d.shown}, {"bookkeeping", d.bookkeeping}});
    return {{"runs", runs}, {"differences", diffs}};
}

// Rows of cells, the first column the row's name; columns padded to their widest cell.
void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    auto length = [](const std::string& s) {  // UTF-8: count code points, not bytes ("·")
        return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xc0) != 0x80; }));
    };
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], length(row[i]));
        }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) line += std::string(width[i] - length(row[i]) + 3, ' ');
        }
        out << line << "\n";
    }
}

void print_comparison(std::ostream& out, const RunComparison& c) {
    std::vector<std::vector<std::string>> rows;
    auto row = [&](const std::string& name, auto cell) {
        std::vector<std::string> r{name};
        for (const auto& run : c.runs) r.push_back(cell(run));
        rows.push_back(std::move(r));
    };
    row("run", [](const ComparedRun& r) { return r.run.name; });
    row("label", [](const ComparedRun& r) { return r.label; });
    for (std::size_t d = 0; d < c.differences.size(); ++d) {
        std::size_t i = 0;
        row(c.differences[d].key, [&](const ComparedRun&) { return c.differences[d].shown[i++]; });
    }
    row("status", [](const ComparedRun& r) { return std::string(to_string(r.run.status)); });
    row("steps", [](const ComparedRun& r) {
        return std::to_string(r.run.global_step) + "/" + std::to_string(r.run.total_steps);
    });
    row("wall time", [](const ComparedRun& r) { return format_duration(r.wall_seconds); });
    row("final val loss", [](const ComparedRun& r) { return four(r.final_val.loss); });
    row("final val acc", [](const ComparedRun& r) { return four(r.final_val.accuracy); });
    row("best val loss", [](const ComparedRun& r) {
        return r.best_loss.known() ? four(r.best_loss.loss) + " (" + where(r.best_loss) + ")" : "-";
    });
    row("best val acc", [](const ComparedRun& r) {
        return r.best_accuracy.known() ? four(r.best_accuracy.accuracy) + " (" + where(r.best_accuracy) + ")" : "-";
    });
    print_columns(out, rows);
    if (c.differences.empty()) out << "\nthe runs have the same settings\n";
    for (const auto& d : c.differences)
        if (d.bookkeeping)
            out << "\n" << setting_short_name(d.key) << " differs: the runs read different files (" << d.key << ")\n";
}

}  // namespace

int compare_command(const std::string& resolved_home, const std::vector<std::string>& runs, bool json,
                    std::ostream& out, std::ostream& err) {
    for (const auto& name : runs) validate_run_name(name);
    check_comparison_names(runs);
    if (!home_has_registry(resolved_home)) {
        note_files_without_registry(resolved_home, err);
        throw no_run_named(runs[0], resolved_home);
    }
    auto reg = open_registry_to_read(resolved_home, err);
    const RunComparison c = compare_runs(*reg, runs);
    if (json)
        out << comparison_json(c).dump(2) << "\n";
    else
        print_comparison(out, c);
    return 0;
}

}  // namespace savepoint
