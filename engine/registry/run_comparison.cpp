#include "registry/run_comparison.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "registry/sqlite_stmt.h"
#include "storage/durable_io.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace savepoint {
namespace {

// Settings a person chose, in the order a label names them; keys not listed follow, alphabetically.
const char* const kKeyOrder[] = {"model",       "data",
                                 "loss",        "optimizer",
                                 "lr",          "batch",
                                 "epochs",      "steps_per_epoch",
                                 "seed",        "save_every_steps",
                                 "keep",        "async_policy",
                                 "device",      "threads",
                                 "data_sha256", "model_sha256"};

bool is_bookkeeping(const std::string& key) { return key == "data_sha256" || key == "model_sha256"; }

int key_rank(const std::string& key) {
    const auto* end = std::end(kKeyOrder);
    const auto* it = std::find(std::begin(kKeyOrder), end, key);
    return it == end ? int(std::size(kKeyOrder)) : int(it - std::begin(kKeyOrder));
}

// A fingerprint is long; its first 8 hex digits tell two apart.
std::string short_hash(const nlohmann::json& v) {
    std::string all;
    if (v.is_string()) all = v.get<std::string>();
    if (v.is_object())
        for (const auto& entry : v.items())
            all += entry.value().is_string() ? entry.value().get<std::string>() : entry.value().dump();
    return "sha256 " + all.substr(0, 8);
}

std::string shown_value(const std::string& key, const nlohmann::json& v) {
    if (v.is_null()) return "-";
    if (is_bookkeeping(key)) return short_hash(v);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return short_number(v.get<double>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    return v.dump();
}

InputError unknown_run(Registry& reg, const std::string& name) {
    std::string there;
    for (const auto& r : reg.list_runs()) there += (there.empty() ? "" : ", ") + r.name;
    return InputError("run", "a run in " + reg.home(), "'" + name + "'",
                      InputError::Says{"no run named '" + name + "' in " + reg.home() +
                                       (there.empty() ? " (it has no runs)" : " (the runs there: " + there + ")")});
}

// The validation rows in the order they were recorded (session, then step).
void read_validations(Registry& reg, ComparedRun& c) {
    std::map<std::int64_t, std::int64_t> number;  // branch id -> its number within the run
    for (const auto& b : reg.branches(c.run.id)) number[b.id] = b.number;
    Stmt s(reg.db(),
           "SELECT branch_id, global_step, epoch, step, loss, accuracy FROM metrics WHERE run_id=? AND kind=? "
           "ORDER BY session_id, global_step",
           reg.path());
    s.bind(1, c.run.id).bind(2, static_cast<int>(MetricKind::Validation));
    while (s.step()) {
        ValidationFigure f;
        f.branch = number.count(s.i64(0)) ? number[s.i64(0)] : s.i64(0);
        f.global_step = s.i64(1);
        f.epoch = s.i64(2);
        f.step = s.i64(3);
        f.loss = s.f64(4);
        f.accuracy = s.f64(5);
        ++c.validations;
        c.final_val = f;
        // Strictly better only: the earliest of equal figures is the best.
        if (!c.best_loss.known() || f.loss < c.best_loss.loss) c.best_loss = f;
        if (!c.best_accuracy.known() || f.accuracy > c.best_accuracy.accuracy) c.best_accuracy = f;
    }
    if (planted_bug(PlantedBug::CompareBestIsLast)) c.best_loss = c.best_accuracy = c.final_val;  // negative control
}

void read_times(Registry& reg, ComparedRun& c) {
    for (const auto& s : reg.sessions(c.run.id)) {
        if (s.ended_at > s.started_at) c.wall_seconds += s.ended_at - s.started_at;
        c.train_seconds += s.train_seconds;
    }
}

std::vector<SettingDifference> differences(const std::vector<ComparedRun>& runs) {
    std::set<std::string> keys;
    for (const auto& r : runs)
        for (const auto& entry : r.config.items()) keys.insert(entry.key());
    std::vector<std::string> ordered(keys.begin(), keys.end());
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const std::string& a, const std::string& b) { return key_rank(a) < key_rank(b); });
    std::vector<SettingDifference> out;
    for (const auto& key : ordered) {
        SettingDifference d;
        d.key = key;
        d.bookkeeping = is_bookkeeping(key);
        for (const auto& r : runs) {
            d.values.push_back(r.config.contains(key) ? r.config[key] : nlohmann::json(nullptr));
            d.shown.push_back(shown_value(key, d.values.back()));
        }
        if (std::all_of(d.values.begin(), d.values.end(), [&](const nlohmann::json& v) { return v == d.values[0]; }))
            continue;
        out.push_back(std::move(d));
    }
    return out;
}

// A fingerprint says nothing new beside its setting when that differs too ("data synthetic" already tells).
bool said_by_its_setting(const SettingDifference& d, const std::vector<SettingDifference>& all) {
    if (!d.bookkeeping) return false;
    const std::string setting = d.key.substr(0, d.key.find('_'));  // data_sha256 -> data
    return std::any_of(all.begin(), all.end(), [&](const SettingDifference& o) { return o.key == setting; });
}

void label_runs(RunComparison& c) {
    for (std::size_t i = 0; i < c.runs.size(); ++i) {
        std::string label;
        for (const auto& d : c.differences)
            if (!said_by_its_setting(d, c.differences))
                label += (label.empty() ? "" : " · ") + setting_short_name(d.key) + " " + d.shown[i];
        c.runs[i].label = label.empty() ? c.runs[i].run.name : label;
    }
    // Runs with the same settings among others that differ: their names tell them apart.
    std::map<std::string, int> uses;
    for (const auto& r : c.runs) ++uses[r.label];
    for (auto& r : c.runs)
        if (uses[r.label] > 1 && r.label != r.run.name) r.label += " (" + r.run.name + ")";
}

}  // namespace

std::string short_number(double v) {
    if (std::isnan(v)) return "-";
    char b[48];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(b, sizeof b, "%.0f", v);
        return b;
    }
    const double a = std::fabs(v);
    if (a >= 0.01 && a < 1e5) {
        std::snprintf(b, sizeof b, "%.4g", v);
        return b;
    }
    // Scientific with the fewest mantissa digits that say it: 1e-3, 2.5e-4.
    std::snprintf(b, sizeof b, "%.3e", v);
    std::string s = b;
    const auto e = s.find('e');
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    while (mantissa.find('.') != std::string::npos && (mantissa.back() == '0' || mantissa.back() == '.'))
        mantissa.pop_back();
    const bool negative = exponent[0] == '-';
    exponent = exponent.substr(1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    return mantissa + "e" + (negative ? "-" : "") + exponent;
}

std::string setting_short_name(const std::string& key) {
    static const std::map<std::string, std::string> names = {{"steps_per_epoch", "steps/epoch"},
                                                             {"save_every_steps", "save every"},
                                                             {"async_policy", "async"},
                                                             {"optimizer", "opt"},
                                                             {"data_sha256", "data"},
                                                             {"model_sha256", "model"}};
    const auto it = names.find(key);
    return it == names.end() ? key : it->second;
}

void check_comparison_names(const std::vector<std::string>& names) {
    if (names.size() < 2)
        throw InputError("run", "two or more runs", names.empty() ? "none" : "only '" + names[0] + "'")
            .with(Remedy{Remedy::Kind::NameTwoRuns});
    for (std::size_t i = 0; i < names.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (names[i] == names[j])
                throw InputError("run", "each run once", "'" + names[i] + "' twice",
                                 InputError::Says{"'" + names[i] + "' is named twice (compare different runs)"});
}

RunComparison compare_runs(Registry& reg, const std::vector<std::string>& names) {
    check_comparison_names(names);
    RunComparison out;
    for (const auto& name : names) {
        auto run = reg.find_run(name);
        if (!run) throw unknown_run(reg, name);
        ComparedRun c;
        c.run = *run;
        c.config = nlohmann::json::parse(run->config_json, nullptr, false);
        if (!c.config.is_object()) c.config = nlohmann::json::object();
        read_validations(reg, c);
        read_times(reg, c);
        out.runs.push_back(std::move(c));
    }
    out.differences = differences(out.runs);
    label_runs(out);
    return out;
}

}  // namespace savepoint
