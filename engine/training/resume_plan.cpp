#include "training/resume_plan.h"

#include "data/data_order.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "registry/checkpoint_actions.h"

#include <set>

namespace savepoint {

bool file_exists_hint(const std::string& error);

namespace {

std::string where(const CheckpointRow& c, std::int64_t steps_per_epoch) {
    return "checkpoint #" + std::to_string(c.id) + " (" + position_text(c.global_step, steps_per_epoch) + ")";
}

// Full verification: size, footer, SHA-256 against footer and registry, structure.
bool verify_or_mark(Registry& reg, const RunRow& run, const CheckpointRow& c, std::vector<std::string>& notes) {
    if (!c.usable()) return false;
    VerifyResult v = verify_checkpoint_file(reg.absolute(c.path), c.sha256);
    if (v.ok && v.meta.value("checkpoint_id", -1) == c.id_in_file() && v.meta.value("global_step", -1) == c.global_step)
        return true;
    std::string why = v.ok ? "header does not match the registry row (swapped file?)" : v.error;
    reg.set_checkpoint_state(c.id, file_exists_hint(v.error) ? CheckpointState::Missing : CheckpointState::Corrupt,
                             why);
    notes.push_back(where(c, run.steps_per_epoch) + " is damaged and was skipped: " + why);
    EventRow e;
    e.run_id = c.run_id;
    e.kind = EventKind::Recovery;
    e.global_step = c.global_step;
    e.epoch = c.epoch;
    e.step = c.step;
    e.checkpoint_id = c.id;
    e.message = notes.back();
    reg.add_event(e);
    return false;
}

// Candidates along the head's lineage (head first, then its parents).
std::vector<CheckpointRow> lineage(Registry& reg, std::optional<std::int64_t> head) {
    std::vector<CheckpointRow> out;
    std::set<std::int64_t> seen;
    while (head && !seen.count(*head)) {
        seen.insert(*head);
        auto c = reg.checkpoint(*head);
        if (!c) break;
        out.push_back(*c);
        head = c->parent_id;
    }
    return out;
}

}  // namespace

bool file_exists_hint(const std::string& error) { return error.find("file is missing") != std::string::npos; }

void check_resume_target(Registry& reg, const RunRow& run, const ResumeTarget& target, std::int64_t epochs) {
    if (target.checkpoint_id) {
        auto c = reg.checkpoint(*target.checkpoint_id);
        if (!c || c->run_id != run.id) {
            auto e = no_checkpoint_in_run(run, *target.checkpoint_id);
            e.with(Remedy{Remedy::Kind::ListCheckpoints, run.name});  // keeps it a CheckpointRefused
            throw e;
        }
        if (!c->usable())
            throw InputError("checkpoint", "committed", to_string(c->state),
                             InputError::Says{"checkpoint #" + std::to_string(c->id) + " is " + to_string(c->state) +
                                              (c->state_detail.empty() ? "" : " (" + c->state_detail + ")") +
                                              " and cannot be resumed from"});
    } else if (target.epoch || target.step) {
        if (!target.epoch || !target.step) {
            const std::string given = target.epoch ? "epoch" : "step";
            throw InputError(given, "both epoch and step (the last completed step to resume after)", "only " + given)
                .with(Remedy{Remedy::Kind::NameBothEpochAndStep, run.name, 0, {}, given});
        }
        if (*target.epoch < 1 || *target.epoch > epochs)
            throw InputError("epoch", "1 to " + std::to_string(epochs), std::to_string(*target.epoch));
        if (*target.step < 0 || *target.step > run.steps_per_epoch)
            throw InputError("step", "0 to " + std::to_string(run.steps_per_epoch) + " (steps per epoch)",
                             std::to_string(*target.step));
    }
}

std::int64_t head_global_step(Registry& reg, const RunRow& run) {
    if (run.head_checkpoint_id)
        if (auto h = reg.checkpoint(*run.head_checkpoint_id)) return h->global_step;
    return 0;
}

bool is_rollback(const RunRow& run, std::int64_t head_gs, const ResumeTarget& target) {
    if (target.checkpoint_id) return !run.head_checkpoint_id || *target.checkpoint_id != *run.head_checkpoint_id;
    if (target.epoch && target.step) return global_step_of(*target.epoch, *target.step, run.steps_per_epoch) < head_gs;
    return false;  // the latest usable checkpoint: the active branch goes on
}

ResumePlan plan_resume(Registry& reg, const RunRow& run, const ResumeTarget& target, std::int64_t epochs) {
    check_resume_target(reg, run, target, epochs);
    ResumePlan plan;
    const std::int64_t head_gs = head_global_step(reg, run);

    if (target.checkpoint_id) {
        auto c = reg.checkpoint(*target.checkpoint_id);
        std::vector<std::string> notes;
        if (!verify_or_mark(reg, run, *c, notes))
            throw InputError("checkpoint", "a checkpoint that verifies", "#" + std::to_string(c->id),
                             InputError::Says{notes.back()});
        plan.from = c;
        plan.start_global_step = plan.target_global_step = c->global_step;
        plan.rollback = is_rollback(run, head_gs, target);
        plan.lr_branch_id = plan.rollback ? c->branch_id : run.active_branch_id;
        // The head of a finished run: the same as a plain resume of it.
        plan.nothing_to_do = !plan.rollback && c->global_step >= run.total_steps;
        return plan;
    }

    if (target.epoch || target.step) {
        const std::int64_t g = global_step_of(*target.epoch, *target.step, run.steps_per_epoch);
        plan.target_global_step = g;
        plan.lr_branch_id = run.active_branch_id;
        for (const auto& c : lineage(reg, run.head_checkpoint_id)) {
            if (c.global_step > g || !c.usable()) {
                // Until `from` is found: the steps after it were trained on this one's branch.
                plan.lr_branch_id = c.branch_id;
                continue;
            }
            if (verify_or_mark(reg, run, c, plan.notes)) {
                plan.from = c;
                if (c.global_step == g) plan.lr_branch_id = c.branch_id;
                break;
            }
            plan.lr_branch_id = c.branch_id;
        }
        plan.start_global_step = plan.from ? plan.from->global_step : 0;
        plan.rollback = is_rollback(run, head_gs, target);
        // Not a rollback: the active branch goes on, at its rate (its head may be its fork, on the parent).
        if (!plan.rollback) plan.lr_branch_id = run.active_branch_id;
        plan.nothing_to_do = !plan.rollback && plan.from && plan.from->global_step >= run.total_steps;
        return plan;
    }

    // Latest usable: the head, else the newest verified ancestor; the active branch goes on at its rate.
    plan.lr_branch_id = run.active_branch_id;
    for (const auto& c : lineage(reg, run.head_checkpoint_id)) {
        if (!c.usable()) continue;
        if (verify_or_mark(reg, run, c, plan.notes)) {
            plan.from = c;
            break;
        }
    }
    plan.start_global_step = plan.target_global_step = plan.from ? plan.from->global_step : 0;
    plan.nothing_to_do = plan.from && plan.from->global_step >= run.total_steps;
    return plan;
}

}  // namespace savepoint
