// The telemetry table (schema v6): one row per sample while training, the GPU's
// columns NULL when there was no GPU to watch.
#include "registry/registry.h"
#include "registry/sqlite_stmt.h"

namespace savepoint {

namespace {

constexpr const char* kTelemetryColumns =
    "session_id, t, wall_time, cpu_percent, rss_bytes, mem_available_bytes, written_bytes, disk_free_bytes, "
    "gpu_util_percent, gpu_mem_used_bytes, gpu_mem_total_bytes, gpu_temp_c, gpu_power_w, gpu_sm_clock_mhz, "
    "gpu_throttle";

// A GPU column: NULL on a row without a GPU.
std::optional<std::int64_t> gpu_column(bool has_gpu, std::int64_t v) {
    return has_gpu ? std::optional<std::int64_t>(v) : std::nullopt;
}

// The process's columns are NOT NULL: a figure that could not be read is 0 (process_stats.h).
double or_zero(double v) { return std::isfinite(v) ? v : 0.0; }

}  // namespace

void Registry::append_telemetry(std::int64_t run_id, const std::vector<TelemetrySample>& rows) {
    if (rows.empty()) return;
    // Not synced: a power loss may cost the last seconds of telemetry, which nobody
    // needs to recover, and a sync every second would land on the training cores.
    RelaxedCommits relaxed(*this);
    Transaction tx(*this);
    Stmt s(db_,
           (std::string("INSERT INTO telemetry(run_id, ") + kTelemetryColumns +
            ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
               .c_str(),
           path_);
    for (const auto& r : rows) {
        const bool gpu = r.gpu.has_value();
        const GpuSample g = r.gpu.value_or(GpuSample{});
        s.bind(1, run_id)
            .bind(2, r.session_id)
            .bind(3, or_zero(r.t))
            .bind(4, or_zero(r.wall_time))
            .bind(5, or_zero(r.cpu_percent))
            .bind(6, r.rss_bytes)
            .bind(7, r.mem_available_bytes)
            .bind(8, r.written_bytes)
            .bind(9, r.disk_free_bytes)
            .bind(10, gpu ? g.util_percent : NAN)
            .bind(11, gpu_column(gpu, g.mem_used_bytes))
            .bind(12, gpu_column(gpu, g.mem_total_bytes))
            .bind(13, gpu ? g.temp_c : NAN)
            .bind(14, gpu ? g.power_w : NAN)
            .bind(15, gpu ? g.sm_clock_mhz : NAN)
            .bind(16, gpu_column(gpu, static_cast<std::int64_t>(g.throttle)));  // SQLite's integers are signed
        s.run();
        s.reset();
    }
    tx.commit();
}

namespace {

std::vector<TelemetrySample> read_samples(Stmt& s) {
    std::vector<TelemetrySample> out;
    while (s.step()) {
        TelemetrySample r;
        r.session_id = s.i64(0);
        r.t = s.f64(1);
        r.wall_time = s.f64(2);
        r.cpu_percent = s.f64(3);
        r.rss_bytes = s.i64(4);
        r.mem_available_bytes = s.i64(5);
        r.written_bytes = s.i64(6);
        r.disk_free_bytes = s.i64(7);
        // The total is what every GPU reports; its absence is the row without a GPU.
        if (s.opt_i64(10)) {
            GpuSample g;
            g.util_percent = s.f64(8);
            g.mem_used_bytes = s.opt_i64(9).value_or(0);
            g.mem_total_bytes = s.i64(10);
            g.temp_c = s.f64(11);
            g.power_w = s.f64(12);
            g.sm_clock_mhz = s.f64(13);
            g.throttle = static_cast<std::uint64_t>(s.opt_i64(14).value_or(0));
            r.gpu = g;
        }
        out.push_back(r);
    }
    return out;
}

}  // namespace

std::vector<TelemetrySample> Registry::telemetry(std::int64_t run_id, std::int64_t session_id) {
    Stmt s(db_,
           (std::string("SELECT ") + kTelemetryColumns +
            " FROM telemetry WHERE run_id=? AND (?=0 OR session_id=?) ORDER BY session_id, t")
               .c_str(),
           path_);
    s.bind(1, run_id).bind(2, session_id).bind(3, session_id);
    return read_samples(s);
}

std::vector<TelemetrySample> Registry::telemetry_since(std::int64_t run_id, double after_wall_time) {
    Stmt s(db_,
           (std::string("SELECT ") + kTelemetryColumns +
            " FROM telemetry WHERE run_id=? AND wall_time>? ORDER BY wall_time")
               .c_str(),
           path_);
    s.bind(1, run_id).bind(2, after_wall_time);
    return read_samples(s);
}

}  // namespace savepoint
