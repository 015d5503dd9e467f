#include "cli_output.h"

#include "data/data_order.h"
#include "training/branch_lr.h"
#include "training/resume_plan.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace savepoint {
namespace {

nlohmann::json num(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

std::string iso_time(double t) {
    std::time_t s = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string fmt(double v, const char* f) {
    if (std::isnan(v)) return "-";
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// The active branch's learning rate when it is not the run's (resume --lr); NaN otherwise.
double active_branch_lr(const std::vector<BranchRow>& branches, const RunRow& run) {
    return recorded_branch_lr(branches, run.active_branch_id).value_or(NAN);
}

}  // namespace

std::string format_duration(double seconds) {
    if (!(seconds >= 0) || std::isinf(seconds)) return "--:--";
    long s = static_cast<long>(seconds + 0.5);
    char b[32];
    if (s >= 3600)
        std::snprintf(b, sizeof b, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(b, sizeof b, "%02ld:%02ld", s / 60, s % 60);
    return b;
}

nlohmann::json checkpoint_json(const Registry& reg, const RunRow& run, const CheckpointRow& c) {
    return {{"id", c.id},
            {"run", run.name},
            {"branch", c.branch_number},  // within the run, as the table and the window count
            {"branch_id", c.branch_id},
            {"epoch", c.epoch},
            {"step", c.step},
            {"global_step", c.global_step},
            {"parent_id", c.parent_id ? nlohmann::json(*c.parent_id) : nlohmann::json(nullptr)},
            {"kind", to_string(c.kind)},
            {"state", to_string(c.state)},
            {"state_detail", c.state_detail},
            {"head", run.head_checkpoint_id && *run.head_checkpoint_id == c.id},
            {"pinned", c.pinned},
            {"path", reg.absolute(c.path)},
            {"bytes", c.bytes},
            {"sha256", c.sha256},
            {"params_sha256", c.params_sha256},
            {"created_at", iso_time(c.created_at)},
            {"train_loss", num(c.train_loss)},
            {"train_accuracy", num(c.train_accuracy)},
            {"val_loss", num(c.val_loss)},
            {"val_accuracy", num(c.val_accuracy)},
            {"write_ms", num(c.write_ms)},
            {"stall_ms", num(c.stall_ms)},
            {"branch_lr", num(c.branch_lr)},  // null: the run's (resume --lr sets one)
            // What it was trained on (kind, GPU, versions; CPU and BLAS); null in checkpoints from before it.
            {"device",
             c.device_json.empty() ? nlohmann::json(nullptr) : nlohmann::json::parse(c.device_json, nullptr, false)}};
}

// Each train/resume of the run; a data-parallel job's with its workers and their reports.
static nlohmann::json sessions_json(Registry& reg, const RunRow& run) {
    nlohmann::json out = nlohmann::json::array();
    for (const SessionRow& x : reg.sessions(run.id)) {
        nlohmann::json s{{"id", x.id},
                         {"kind", to_string(x.kind)},
                         {"branch", x.branch_id},
                         {"from_checkpoint", x.from_checkpoint_id ? nlohmann::json(*x.from_checkpoint_id) : nullptr},
                         {"start_global_step", x.start_global_step},
                         {"end_global_step", x.end_global_step ? nlohmann::json(*x.end_global_step) : nullptr},
                         {"ended_by", x.ended_by == SessionEnd::None ? nlohmann::json(nullptr)
                                                                     : nlohmann::json(to_string(x.ended_by))},
                         {"steps_computed", x.steps_computed},
                         {"started_at", iso_time(x.started_at)},
                         {"world_size", x.world_size}};
        if (x.world_size > 1) {
            s["restart"] = x.restart_count;
            s["workers"] = nlohmann::json::parse(x.workers, nullptr, false);
        }
        out.push_back(std::move(s));
    }
    return out;
}

nlohmann::json run_json(Registry& reg, const RunRow& run) {
    nlohmann::json config = nlohmann::json::parse(run.config_json, nullptr, false);
    const std::vector<BranchRow> all = reg.branches(run.id);
    const std::int64_t branches = static_cast<std::int64_t>(all.size());
    return {{"name", run.name},
            {"id", run.id},
            {"status", to_string(run.status)},
            {"config", config},
            {"head", run.head_checkpoint_id ? nlohmann::json(*run.head_checkpoint_id) : nlohmann::json(nullptr)},
            {"global_step", run.global_step},
            {"total_steps", run.total_steps},
            {"steps_per_epoch", run.steps_per_epoch},
            {"branches", branches},
            {"active_branch", run.active_branch_id},
            {"active_branch_lr", num(active_branch_lr(all, run))},
            {"device", run.device},
            {"created_at", iso_time(run.created_at)},
            {"updated_at", iso_time(run.updated_at)},
            {"sessions", sessions_json(reg, run)}};
}

void print_checkpoint_table(std::ostream& out, const Registry& reg, const RunRow& run,
                            const std::vector<CheckpointRow>& rows,
                            const std::map<std::int64_t, CheckpointRemote>* remotes) {
    (void)reg;
    char line[256];
    std::snprintf(line, sizeof line, "%6s %6s %7s %10s %7s %6s %10s %10s %9s %9s %9s  %s\n", "id", "epoch", "step",
                  "global", "branch", "parent", "state", "train_loss", "train_acc", "val_loss", "val_acc", "marks");
    out << line;
    for (const auto& c : rows) {
        std::string marks;
        if (run.head_checkpoint_id && *run.head_checkpoint_id == c.id) marks += "head ";
        if (c.pinned) marks += "pinned ";
        if (c.kind != CheckpointKind::Regular) marks += std::string(to_string(c.kind)) + " ";
        if (!std::isnan(c.branch_lr)) marks += "lr " + lr_text(c.branch_lr) + " ";  // its branch's, not the run's
        if (remotes)
            if (auto it = remotes->find(c.id); it != remotes->end())
                marks += std::string("s3 ") + to_string(it->second.state);
        while (!marks.empty() && marks.back() == ' ') marks.pop_back();
        std::snprintf(line, sizeof line, "%6lld %6lld %7lld %10lld %7lld %6s %10s %10s %9s %9s %9s  %s\n",
                      static_cast<long long>(c.id), static_cast<long long>(c.epoch), static_cast<long long>(c.step),
                      static_cast<long long>(c.global_step), static_cast<long long>(c.branch_number),
                      c.parent_id ? std::to_string(*c.parent_id).c_str() : "-", to_string(c.state),
                      fmt(c.train_loss, "%.4f").c_str(), fmt(c.train_accuracy, "%.4f").c_str(),
                      fmt(c.val_loss, "%.4f").c_str(), fmt(c.val_accuracy, "%.4f").c_str(), marks.c_str());
        out << line;
    }
}

void print_run_table(std::ostream& out, Registry& reg, const std::vector<RunRow>& runs) {
    char line[256];
    // "step" is how far training got; "resumes at" where a resume would start (the
    // head checkpoint's global step): after a crash, the work between them is lost.
    std::snprintf(line, sizeof line, "%-24s %-12s %12s %6s %10s %9s  %s\n", "run", "status", "step", "head",
                  "resumes at", "branches", "config");
    out << line;
    for (const auto& r : runs) {
        auto cfg = nlohmann::json::parse(r.config_json, nullptr, false);
        std::string summary = cfg.is_object() ? cfg.value("model", "?") + " on " + cfg.value("data", "?") : "?";
        const std::vector<BranchRow> branches = reg.branches(r.id);
        if (const double lr = active_branch_lr(branches, r); !std::isnan(lr))
            summary += ", lr " + lr_text(lr) + " on the active branch";
        std::string step = std::to_string(r.global_step) + "/" + std::to_string(r.total_steps);
        std::string resume_at = std::to_string(head_global_step(reg, r));
        if (r.status == RunStatus::Finished) resume_at = "-";
        std::snprintf(line, sizeof line, "%-24s %-12s %12s %6s %10s %9zu  %s\n", r.name.c_str(), to_string(r.status),
                      step.c_str(), r.head_checkpoint_id ? std::to_string(*r.head_checkpoint_id).c_str() : "-",
                      resume_at.c_str(), branches.size(), summary.c_str());
        out << line;
    }
}

}  // namespace savepoint
