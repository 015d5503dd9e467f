#include "cli_outcome.h"

#include <variant>

namespace savepoint {

namespace {

std::string place_text(const StepPlace& p) {
    return "epoch " + std::to_string(p.epoch) + ", step " + std::to_string(p.step);
}

std::string diverged_text(const DivergedReason& d) {
    std::string s = d.value == DivergedReason::Value::Loss
                        ? std::string(d.nan ? "loss became NaN" : "loss became infinite")
                        : "the gradient of " + d.tensor + " became NaN or infinite";
    s += " at " + place_text(d.at) + "; ";
    // A plain resume would diverge again: the rollback is the command to type.
    if (!d.good_checkpoint) return s + "no checkpoint was saved before it (train again with a smaller --lr)";
    const std::string id = std::to_string(*d.good_checkpoint);
    return s + "the last good checkpoint is #" + id + " at " + place_text(d.good_at) +
           " (roll back with a smaller learning rate: savepoint-cli resume --run " + d.run + " --checkpoint " + id +
           " --lr X)";
}

}  // namespace

std::string cli_outcome_text(const TrainResult& r) {
    if (const auto* d = std::get_if<DivergedReason>(&r.reason)) return diverged_text(*d);
    if (const auto* c = std::get_if<CrashedReason>(&r.reason); c && c->cause == CrashedReason::Cause::AtRequestedStep)
        return "simulated crash after global step " + std::to_string(c->at.global_step) +
               " (--interrupt-at-step); nothing beyond the regular checkpoints was saved";
    if (const auto* n = std::get_if<NothingToDoReason>(&r.reason))
        return "run '" + n->run + "' already finished at global step " + std::to_string(n->finished_at) +
               "; nothing to resume (an earlier --checkpoint, or --epoch/--step, rolls back)";
    return r.message;
}

}  // namespace savepoint
