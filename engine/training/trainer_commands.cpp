// Trainer: the commands a front end sends while a run trains (pause, continue,
// stop, a simulated crash or preemption, a checkpoint now). Any thread; the
// loop reads them between steps (trainer.cpp).
#include "training/trainer_impl.h"

namespace savepoint {

void Trainer::request_pause() { impl_->cmd.pause = true; }
void Trainer::request_continue() {
    impl_->cmd.pause = false;
    impl_->cmd.resume_now = true;
    impl_->wake.cv.notify_all();
}
void Trainer::request_stop() {
    impl_->cmd.stop = true;
    impl_->wake.cv.notify_all();
}
void Trainer::request_crash() {
    impl_->cmd.crash = true;
    impl_->wake.cv.notify_all();
}
void Trainer::request_crash_at(std::int64_t global_step) { impl_->cmd.crash_at = global_step; }
void Trainer::request_preempt() {
    impl_->cmd.preempt = true;
    impl_->wake.cv.notify_all();
}
void Trainer::signal_preempt() noexcept { impl_->cmd.preempt.store(true); }
void Trainer::request_checkpoint() { impl_->cmd.checkpoint = true; }

}  // namespace savepoint
