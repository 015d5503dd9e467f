// Trainer: the request the I/O thread gets for each checkpoint: the row to
// register, the session's metadata for the file, what retention must keep.
#include "training/trainer_impl.h"

namespace savepoint {

SaveRequest Trainer::Impl::save_request(CheckpointKind kind) {
    SaveRequest sr;
    sr.row.run_id = run.id;
    sr.row.branch_id = branch.id;
    sr.row.parent_id = head.id();
    sr.parent_is_last_save = true;
    const Position here = position_of(gs, run.steps_per_epoch);
    sr.row.epoch = here.epoch;
    sr.row.step = here.step;
    sr.row.global_step = gs;
    sr.row.kind = kind;
    sr.row.path = checkpoint_dir_relative(run.name);
    sr.row.train_loss = report.loss;
    sr.row.train_accuracy = report.accuracy;
    sr.row.val_loss = report.val_loss;
    sr.row.val_accuracy = report.val_accuracy;
    sr.row.device_json = dev.json;
    sr.run_name = run.name;
    // The same for every save of the session: built once, then shared with the I/O thread.
    if (!session_meta)
        session_meta = std::make_shared<const nlohmann::json>(nlohmann::json{{"config", cfg.to_json()},
                                                                             {"steps_per_epoch", run.steps_per_epoch},
                                                                             {"total_steps", run.total_steps},
                                                                             {"data_seed", cfg.seed},
                                                                             {"device", dev.name},
                                                                             {"device_record", dev.record.to_json()}});
    sr.session_meta = job_meta(session_meta);
    sr.created_at = now_seconds();
    sr.keep = cfg.keep;
    if (branch.resumed_from) sr.protected_ids.insert(*branch.resumed_from);
    return sr;
}

}  // namespace savepoint
