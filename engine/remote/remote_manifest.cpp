#include "remote/remote_manifest.h"

#include <cmath>
#include <cstdio>

namespace savepoint {
namespace {

nlohmann::json num(double v) { return std::isnan(v) || std::isinf(v) ? nlohmann::json() : nlohmann::json(v); }
double num(const nlohmann::json& j, const char* k) {
    return j.contains(k) && j.at(k).is_number() ? j.at(k).get<double>() : NAN;
}
nlohmann::json opt(const std::optional<std::int64_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }
std::optional<std::int64_t> opt(const nlohmann::json& j, const char* k) {
    if (!j.contains(k) || j.at(k).is_null()) return std::nullopt;
    return j.at(k).get<std::int64_t>();
}

std::string run_dir(const S3Uri& uri, const std::string& run) { return uri.key(run) + "/"; }

}  // namespace

std::string remote_file_key(const S3Uri& uri, const std::string& run, std::int64_t id) {
    return run_dir(uri, run) + "checkpoints/" + checkpoint_file_name(id);
}

std::string remote_manifest_key(const S3Uri& uri, const std::string& run, std::int64_t id) {
    std::string name = checkpoint_file_name(id);
    return run_dir(uri, run) + "manifests/" + name.substr(0, name.rfind('.')) + ".json";
}

std::string remote_metrics_key(const S3Uri& uri, const std::string& run) { return run_dir(uri, run) + "metrics.json"; }

bool parse_manifest_key(const S3Uri& uri, const std::string& key, std::string& run, std::int64_t& id) {
    const std::string base = uri.prefix.empty() ? "" : uri.prefix + "/";
    if (key.compare(0, base.size(), base) != 0) return false;
    const std::string rest = key.substr(base.size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos) return false;
    long long n = 0;
    char tail[8] = {0};
    if (std::sscanf(rest.c_str() + slash, "/manifests/ckpt-%lld.%5s", &n, tail) != 2 || std::string(tail) != "json")
        return false;
    if (remote_manifest_key(uri, rest.substr(0, slash), n) != key) return false;
    run = rest.substr(0, slash);
    id = n;
    return true;
}

nlohmann::json manifest_json(const Manifest& m) {
    nlohmann::json branches = nlohmann::json::array();
    for (const auto& b : m.branches)
        branches.push_back({{"id", b.id},
                            {"parent_branch_id", opt(b.parent_branch_id)},
                            {"fork_checkpoint_id", opt(b.fork_checkpoint_id)},
                            {"fork_global_step", b.fork_global_step},
                            {"created_at", b.created_at},
                            {"lr", b.lr ? nlohmann::json(*b.lr) : nlohmann::json()}});
    const CheckpointRow& c = m.checkpoint;
    return {{"format", "savepoint-remote-manifest"},
            {"version", 1},
            {"run",
             {{"name", m.run.name},
              {"config_json", m.run.config_json},
              {"steps_per_epoch", m.run.steps_per_epoch},
              {"total_steps", m.run.total_steps},
              {"device", m.run.device},
              {"created_at", m.run.created_at}}},
            {"branches", branches},
            {"checkpoint",
             {{"id", c.id},
              {"branch_id", c.branch_id},
              {"parent_id", opt(c.parent_id)},
              {"epoch", c.epoch},
              {"step", c.step},
              {"global_step", c.global_step},
              {"kind", to_string(c.kind)},
              {"pinned", c.pinned},
              {"bytes", c.bytes},
              {"sha256", c.sha256},
              {"params_sha256", c.params_sha256},
              {"created_at", c.created_at},
              {"train_loss", num(c.train_loss)},
              {"train_accuracy", num(c.train_accuracy)},
              {"val_loss", num(c.val_loss)},
              {"val_accuracy", num(c.val_accuracy)},
              {"write_ms", num(c.write_ms)},
              {"stall_ms", num(c.stall_ms)},
              {"device_json", c.device_json}}},
            {"file_sha256", m.file_sha256}};
}

Manifest parse_manifest(const nlohmann::json& j) {
    if (j.value("format", "") != "savepoint-remote-manifest" || j.value("version", 0) != 1)
        throw std::runtime_error("not a Savepoint manifest of version 1");
    Manifest m;
    const auto& r = j.at("run");
    m.run.name = r.at("name").get<std::string>();
    m.run.config_json = r.at("config_json").get<std::string>();
    m.run.steps_per_epoch = r.at("steps_per_epoch").get<std::int64_t>();
    m.run.total_steps = r.at("total_steps").get<std::int64_t>();
    m.run.device = r.value("device", "");
    m.run.created_at = r.value("created_at", 0.0);
    for (const auto& b : j.at("branches")) {
        BranchRow br;
        br.id = b.at("id").get<std::int64_t>();
        br.parent_branch_id = opt(b, "parent_branch_id");
        br.fork_checkpoint_id = opt(b, "fork_checkpoint_id");
        br.fork_global_step = b.value("fork_global_step", std::int64_t(0));
        br.created_at = b.value("created_at", 0.0);
        if (b.contains("lr") && b.at("lr").is_number()) br.lr = b.at("lr").get<double>();
        m.branches.push_back(br);
    }
    const auto& c = j.at("checkpoint");
    CheckpointRow& k = m.checkpoint;
    k.id = c.at("id").get<std::int64_t>();
    k.branch_id = c.at("branch_id").get<std::int64_t>();
    k.parent_id = opt(c, "parent_id");
    k.epoch = c.at("epoch").get<std::int64_t>();
    k.step = c.at("step").get<std::int64_t>();
    k.global_step = c.at("global_step").get<std::int64_t>();
    k.kind = parse_checkpoint_kind(c.at("kind").get<std::string>());
    k.pinned = c.value("pinned", false);
    k.bytes = c.at("bytes").get<std::int64_t>();
    k.sha256 = c.at("sha256").get<std::string>();
    k.params_sha256 = c.value("params_sha256", "");
    k.created_at = c.value("created_at", 0.0);
    k.train_loss = num(c, "train_loss");
    k.train_accuracy = num(c, "train_accuracy");
    k.val_loss = num(c, "val_loss");
    k.val_accuracy = num(c, "val_accuracy");
    k.write_ms = num(c, "write_ms");
    k.stall_ms = num(c, "stall_ms");
    k.device_json = c.value("device_json", "");  // absent in manifests from before the device record
    m.file_sha256 = j.at("file_sha256").get<std::string>();
    return m;
}

nlohmann::json metrics_json(const std::vector<SessionRow>& sessions, const std::vector<MetricRow>& metrics) {
    nlohmann::json s = nlohmann::json::array(), m = nlohmann::json::array();
    for (const auto& x : sessions)
        s.push_back({x.id, x.branch_id, to_string(x.kind), opt(x.from_checkpoint_id), x.start_global_step,
                     x.target_global_step, opt(x.end_global_step), to_string(x.ended_by), x.started_at, num(x.ended_at),
                     x.pid, x.steps_computed, x.steps_replayed, x.train_seconds, x.checkpoint_seconds,
                     x.checkpoint_stall_seconds, x.world_size, x.restart_count, x.workers});
    for (const auto& x : metrics)
        m.push_back({x.session_id, x.branch_id, static_cast<int>(x.kind), x.global_step, x.epoch, x.step, num(x.loss),
                     num(x.accuracy), x.wall_time});
    return {{"format", "savepoint-remote-metrics"}, {"version", 1}, {"sessions", s}, {"metrics", m}};
}

void parse_metrics(const nlohmann::json& j, std::vector<SessionRow>& sessions, std::vector<MetricRow>& metrics) {
    if (j.value("format", "") != "savepoint-remote-metrics") throw std::runtime_error("not a Savepoint metrics object");
    for (const auto& a : j.at("sessions")) {
        SessionRow x;
        x.id = a.at(0).get<std::int64_t>();
        x.branch_id = a.at(1).get<std::int64_t>();
        x.kind = parse_session_kind(a.at(2).get<std::string>());
        if (!a.at(3).is_null()) x.from_checkpoint_id = a.at(3).get<std::int64_t>();
        x.start_global_step = a.at(4).get<std::int64_t>();
        x.target_global_step = a.at(5).get<std::int64_t>();
        if (!a.at(6).is_null()) x.end_global_step = a.at(6).get<std::int64_t>();
        x.ended_by = parse_session_end(a.at(7).get<std::string>());
        x.started_at = a.at(8).get<double>();
        x.ended_at = a.at(9).is_null() ? NAN : a.at(9).get<double>();
        x.pid = a.at(10).get<std::int64_t>();
        x.steps_computed = a.at(11).get<std::int64_t>();
        x.steps_replayed = a.at(12).get<std::int64_t>();
        x.train_seconds = a.at(13).get<double>();
        x.checkpoint_seconds = a.at(14).get<double>();
        x.checkpoint_stall_seconds = a.at(15).get<double>();
        x.world_size = a.at(16).get<std::int64_t>();
        x.restart_count = a.at(17).get<std::int64_t>();
        x.workers = a.at(18).get<std::string>();
        sessions.push_back(x);
    }
    for (const auto& a : j.at("metrics")) {
        MetricRow x;
        x.session_id = a.at(0).get<std::int64_t>();
        x.branch_id = a.at(1).get<std::int64_t>();
        x.kind = parse_metric_kind(a.at(2).get<long long>());
        x.global_step = a.at(3).get<std::int64_t>();
        x.epoch = a.at(4).get<std::int64_t>();
        x.step = a.at(5).get<std::int64_t>();
        x.loss = a.at(6).is_null() ? NAN : a.at(6).get<double>();
        x.accuracy = a.at(7).is_null() ? NAN : a.at(7).get<double>();
        x.wall_time = a.at(8).get<double>();
        metrics.push_back(x);
    }
}

}  // namespace savepoint
