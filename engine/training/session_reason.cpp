// Where a step falls, for the reasons a session ends (session_reason.h).
#include "training/session_reason.h"

#include "data/data_order.h"

namespace savepoint {

StepPlace step_place(std::int64_t global_step, std::int64_t steps_per_epoch) {
    const Position p = position_of(global_step, steps_per_epoch);
    return {global_step, p.epoch, p.step};
}

}  // namespace savepoint
