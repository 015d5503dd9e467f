// savepoint-cli telemetry: a run's telemetry (one sample a second while it
// trained), as JSON, one object a sample, or as a table per session that stays
// readable for a long run (one row per 10 s or more) with min/mean/max after it.
#include "cli_commands.h"
#include "cli_home.h"
#include "cli_output.h"  // format_duration

#include "platform/telemetry_sample.h"
#include "training/train_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>

namespace savepoint {
namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json sample_json(const TelemetrySample& s) {
    nlohmann::json gpu = nullptr;
    if (s.gpu) {
        const GpuSample& g = *s.gpu;
        gpu = {{"util_percent", number_or_null(g.util_percent)},
               {"mem_used_bytes", g.mem_used_bytes},
               {"mem_total_bytes", g.mem_total_bytes},
               {"temp_c", number_or_null(g.temp_c)},
               {"power_w", number_or_null(g.power_w)},
               {"sm_clock_mhz", number_or_null(g.sm_clock_mhz)},
               {"throttle", g.throttle},
               {"throttle_reasons", throttle_reason_names(g.throttle)}};
    }
    return {{"t", s.t},
            {"session", s.session_id},
            {"wall_time", s.wall_time},
            {"cpu_percent", s.cpu_percent},
            {"rss_bytes", s.rss_bytes},
            {"mem_available_bytes", s.mem_available_bytes},
            {"written_bytes", s.written_bytes},
            {"disk_free_bytes", s.disk_free_bytes},
            {"gpu", gpu}};
}

std::string format_bytes(double b) {
    if (!std::isfinite(b)) return "-";
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (std::fabs(b) >= 1024 && u < 5) {
        b /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
    return buf;
}

std::string format_number(double v, const char* f) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string utc_time(double t) {
    const std::time_t s = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
    return buf;
}

// min, mean and max of the finite values given.
struct Spread {
    double min = INFINITY, max = -INFINITY, sum = 0;
    long n = 0;
    void add(double v) {
        if (!std::isfinite(v)) return;
        min = std::min(min, v);
        max = std::max(max, v);
        sum += v;
        ++n;
    }
    double mean() const { return n ? sum / static_cast<double>(n) : NAN; }
    double lo() const { return n ? min : NAN; }
    double hi() const { return n ? max : NAN; }
};

// Seconds between printed rows: every sample up to 100 of them, else the
// shortest of 10 s, 30 s, 1 min, 5 min, 10 min that keeps the table near 360 rows.
double row_step(const std::vector<const TelemetrySample*>& rows) {
    if (rows.size() <= 100) return 0;
    const double span = rows.back()->t - rows.front()->t;
    for (double step : {10.0, 30.0, 60.0, 300.0})
        if (span / step <= 360) return step;
    return 600;
}

void print_session(std::ostream& out, const SessionRow* session, std::int64_t session_id,
                   const std::vector<const TelemetrySample*>& rows) {
    const bool any_gpu = std::any_of(rows.begin(), rows.end(), [](const TelemetrySample* s) { return s->gpu; });
    const double step = row_step(rows);
    out << "session " << session_id;
    if (session) out << " (" << to_string(session->kind) << ", started " << utc_time(session->started_at) << ")";
    out << ": " << rows.size() << " sample" << (rows.size() == 1 ? "" : "s") << " over "
        << format_duration(rows.back()->t - rows.front()->t);
    if (step > 0) out << ", a row every " << step << " s";
    out << (any_gpu ? "" : "; no GPU watched (no NVIDIA driver, or trained on the CPU)") << "\n";

    char line[256];
    std::snprintf(line, sizeof line, "%9s %7s %10s %10s %10s %10s", "t (s)", "cpu %", "rss", "mem avail", "written",
                  "disk free");
    out << line;
    if (any_gpu) {
        std::snprintf(line, sizeof line, " %6s %19s %6s %8s %7s  %s", "gpu %", "gpu mem", "temp", "power", "sm MHz",
                      "throttle");
        out << line;
    }
    out << "\n";
    // "written" counts from the session's first sample: the process's counter began before it.
    const double written0 = static_cast<double>(rows.front()->written_bytes);
    double next_t = -INFINITY;
    for (const TelemetrySample* s : rows) {
        if (s->t < next_t && s != rows.back()) continue;
        next_t = step > 0 ? (std::floor(s->t / step) + 1) * step : -INFINITY;
        std::snprintf(line, sizeof line, "%9.1f %7.1f %10s %10s %10s %10s", s->t, s->cpu_percent,
                      format_bytes(static_cast<double>(s->rss_bytes)).c_str(),
                      format_bytes(static_cast<double>(s->mem_available_bytes)).c_str(),
                      format_bytes(static_cast<double>(s->written_bytes) - written0).c_str(),
                      format_bytes(static_cast<double>(s->disk_free_bytes)).c_str());
        out << line;
        if (s->gpu) {
            const GpuSample& g = *s->gpu;
            std::string reasons;
            for (const auto& r : throttle_reason_names(g.throttle)) reasons += (reasons.empty() ? "" : ",") + r;
            const std::string mem = format_bytes(static_cast<double>(g.mem_used_bytes)) + " / " +
                                    format_bytes(static_cast<double>(g.mem_total_bytes));
            std::snprintf(line, sizeof line, " %6s %19s %6s %8s %7s  %s", format_number(g.util_percent, "%.0f").c_str(),
                          mem.c_str(), format_number(g.temp_c, "%.0f C").c_str(),
                          format_number(g.power_w, "%.1f W").c_str(), format_number(g.sm_clock_mhz, "%.0f").c_str(),
                          reasons.empty() ? "-" : reasons.c_str());
            out << line;
        }
        out << "\n";
    }

    struct Figure {
        const char* name;
        bool bytes;
        Spread v;
    };
    enum { kCpu, kRss, kMemAvail, kDiskFree, kGpuUtil, kGpuMem, kTemp, kPower, kClock, kFigures };
    Figure figures[kFigures] = {{"cpu %", false, {}},    {"rss", true, {}},      {"mem avail", true, {}},
                                {"disk free", true, {}}, {"gpu %", false, {}},   {"gpu mem", true, {}},
                                {"temp C", false, {}},   {"power W", false, {}}, {"sm MHz", false, {}}};
    std::map<std::string, long> slowdowns;  // reason -> samples that had it
    long slowed = 0;
    for (const TelemetrySample* s : rows) {
        figures[kCpu].v.add(s->cpu_percent);
        figures[kRss].v.add(static_cast<double>(s->rss_bytes));
        figures[kMemAvail].v.add(static_cast<double>(s->mem_available_bytes));
        figures[kDiskFree].v.add(static_cast<double>(s->disk_free_bytes));
        if (!s->gpu) continue;
        figures[kGpuUtil].v.add(s->gpu->util_percent);
        figures[kGpuMem].v.add(static_cast<double>(s->gpu->mem_used_bytes));
        figures[kTemp].v.add(s->gpu->temp_c);
        figures[kPower].v.add(s->gpu->power_w);
        figures[kClock].v.add(s->gpu->sm_clock_mhz);
        if (throttle_is_slowdown(s->gpu->throttle)) {
            ++slowed;
            for (const auto& r : throttle_reason_names(s->gpu->throttle)) ++slowdowns[r];
        }
    }
    std::snprintf(line, sizeof line, "  %-10s %10s %10s %10s\n", "", "min", "mean", "max");
    out << line;
    for (const Figure& f : figures) {
        if (f.v.n == 0) continue;
        auto cell = [&](double x) { return f.bytes ? format_bytes(x) : format_number(x, "%.1f"); };
        std::snprintf(line, sizeof line, "  %-10s %10s %10s %10s\n", f.name, cell(f.v.lo()).c_str(),
                      cell(f.v.mean()).c_str(), cell(f.v.hi()).c_str());
        out << line;
    }
    const double written = static_cast<double>(rows.back()->written_bytes) - written0;
    const double span = rows.back()->t - rows.front()->t;
    out << "  written    " << format_bytes(written);
    if (span > 0) out << " (" << format_bytes(written / span) << "/s)";
    out << "\n";
    if (any_gpu) {
        out << "  slowed     " << slowed << " of " << rows.size() << " samples";
        std::string reasons;
        for (const auto& [r, n] : slowdowns) reasons += (reasons.empty() ? "" : ", ") + r + " " + std::to_string(n);
        if (!reasons.empty()) out << " (" << reasons << ")";
        out << "\n";
    }
}

}  // namespace

int telemetry_command(const std::string& resolved_home, const std::string& run_name, std::int64_t session_id, bool json,
                      std::ostream& out, std::ostream& err) {
    validate_run_name(run_name);
    if (!home_has_registry(resolved_home)) {
        note_files_without_registry(resolved_home, err);
        throw no_run_named(run_name, resolved_home);
    }
    auto reg = open_registry_to_read(resolved_home, err);
    const RunRow run = require_run(*reg, run_name);
    const std::vector<SessionRow> sessions = reg->sessions(run.id);
    if (session_id != 0 &&
        std::none_of(sessions.begin(), sessions.end(), [&](const SessionRow& s) { return s.id == session_id; })) {
        std::string ids;
        for (const auto& s : sessions) ids += (ids.empty() ? "" : ", ") + std::to_string(s.id);
        throw InputError("session",
                         "a session of run '" + run_name + "' (" + (ids.empty() ? "it has none" : ids) +
                             "; see: savepoint-cli runs --json)",
                         std::to_string(session_id));
    }
    const std::vector<TelemetrySample> rows = reg->telemetry(run.id, session_id);
    if (json) {
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& s : rows) arr.push_back(sample_json(s));
        out << arr.dump(2) << "\n";
        return 0;
    }
    if (rows.empty()) {
        out << "no telemetry for run '" << run_name << "'" << (session_id ? " in that session" : "")
            << " (it is recorded once a second while training)\n";
        return 0;
    }
    std::map<std::int64_t, std::vector<const TelemetrySample*>> by_session;
    for (const auto& s : rows) by_session[s.session_id].push_back(&s);
    bool first = true;
    for (const auto& [id, samples] : by_session) {
        if (!first) out << "\n";
        first = false;
        const SessionRow* session = nullptr;
        for (const auto& s : sessions)
            if (s.id == id) session = &s;
        print_session(out, session, id, samples);
    }
    return 0;
}

}  // namespace savepoint
