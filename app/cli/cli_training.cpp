#include "cli_training.h"

#include "cli_outcome.h"
#include "cli_output.h"
#include "data/data_order.h"
#include "early_signals.h"
#include "platform/errors.h"
#include "platform/signal_disposition.h"
#include "registry/registry.h"
#include "remote/remote_sync.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>

namespace savepoint {
namespace {

// Prints progress lines and saves. Checkpoint notices come from the I/O thread.
class CliObserver : public TrainerObserver {
public:
    CliObserver(std::ostream& out, std::ostream& err, std::int64_t retries = 0, double retry_seconds = 0)
        : out_(out),
          err_(err),
          tty_(::isatty(STDOUT_FILENO) && &out == &std::cout),
          retries_(retries),
          retry_seconds_(retry_seconds) {}

    void on_message(const std::string& text) override { line(text); }

    void on_progress(const Progress& p) override {
        const double t = now_seconds();
        if (!p.ended() && t - last_print_ < (tty_ ? 0.2 : 2.0)) return;
        last_print_ = t;
        char buf[256];
        std::snprintf(
            buf, sizeof buf,
            "epoch %lld/%lld  step %lld/%lld  global %lld/%lld  loss %.4f  acc %.4f  %.1f steps/s  ETA %s  [%s]",
            static_cast<long long>(p.epoch), static_cast<long long>(p.epochs), static_cast<long long>(p.step),
            static_cast<long long>(p.steps_per_epoch), static_cast<long long>(p.global_step),
            static_cast<long long>(p.total_steps), p.loss, p.accuracy, p.steps_per_second,
            format_duration(p.eta_seconds).c_str(), to_string(p.phase));
        std::lock_guard<std::mutex> l(mutex_);
        if (tty_) {
            out_ << "\r\033[K" << buf << std::flush;
            dirty_ = true;
        } else {
            out_ << buf << "\n" << std::flush;
        }
    }

    void on_metrics(const std::vector<MetricRow>& rows) override {
        for (const auto& m : rows)
            if (m.kind == MetricKind::Validation) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "epoch %lld: validation loss %.4f, accuracy %.4f",
                              static_cast<long long>(m.epoch), m.loss, m.accuracy);
                line(buf);
            }
    }

    void on_checkpoint_saved(const CheckpointRow& c) override {
        ++committed;
        if (remote) remote->notify();
        char buf[200];
        std::snprintf(buf, sizeof buf, "%s (global step %lld), %lld bytes, %.1f ms",
                      position_text(Position{c.epoch, c.step}).c_str(), static_cast<long long>(c.global_step),
                      static_cast<long long>(c.bytes), c.write_ms);
        line("saved checkpoint #" + std::to_string(c.id) + " at " + buf);
    }

    void on_event(const EventRow& e) override {
        if (e.kind == EventKind::SaveSkipped || e.kind == EventKind::SaveDeferred ||
            e.kind == EventKind::PreemptionNotice || e.kind == EventKind::Error || e.kind == EventKind::Throttled ||
            e.kind == EventKind::LowDisk)
            line(std::string(to_string(e.kind)) + ": " + e.message);
    }

    void on_storage_error(const std::string& message) override {
        std::lock_guard<std::mutex> l(mutex_);
        char retry[160];
        std::snprintf(retry, sizeof retry,
                      "every %g s, at most %lld times (--disk-retry-seconds, --disk-retries), then gives up (exit 1)",
                      retry_seconds_, static_cast<long long>(retries_));
        err_ << (dirty_ ? "\n" : "") << "error: " << message << "\n"
             << "training is paused; it retries the checkpoint " << retry << "\n"
             << std::flush;
        dirty_ = false;
    }

    std::atomic<std::int64_t> committed{0};  // checkpoints this session committed (the I/O thread counts)
    RemoteSync* remote = nullptr;            // told of each commit, so that the upload starts at once

    void line(const std::string& text) {
        std::lock_guard<std::mutex> l(mutex_);
        if (dirty_) out_ << "\n";
        dirty_ = false;
        out_ << text << "\n" << std::flush;
    }

private:
    std::ostream& out_;
    std::ostream& err_;
    bool tty_;
    std::int64_t retries_;
    double retry_seconds_;
    bool dirty_ = false;
    double last_print_ = 0;
    std::mutex mutex_;
};

std::atomic<Trainer*> g_active_trainer{nullptr};

extern "C" void on_preempt_signal(int) {
    if (Trainer* t = g_active_trainer.load()) t->signal_preempt();
}

struct SignalScope {
    explicit SignalScope(Trainer* t, bool install) : install_(install) {
        if (!install_) return;
        g_active_trainer = t;
        handle_unless_ignored(SIGTERM, on_preempt_signal, 0, &old_term_);
        // A second Ctrl-C kills at once, as users expect.
        handle_unless_ignored(SIGINT, on_preempt_signal, SA_RESETHAND, &old_int_);
        // A signal that came while the process was starting (early_signals.h) is
        // a notice like any other. Taken after the handlers above are in place,
        // so that none falls between the two.
        early_ = take_early_signal();
        if (early_ == 0) return;
        t->signal_preempt();
        if (early_ == SIGINT) ::signal(SIGINT, SIG_DFL);  // that was the first Ctrl-C: the next kills
    }
    ~SignalScope() {
        if (!install_) return;
        sigaction(SIGTERM, &old_term_, nullptr);
        sigaction(SIGINT, &old_int_, nullptr);
        g_active_trainer = nullptr;
    }
    bool install_;
    int early_ = 0;  // SIGTERM or SIGINT noted before the scope began, or 0
    struct sigaction old_term_ {
    }, old_int_{};
};

// What checkpointing cost the training thread this session, and, when the
// disk could not keep up with the save frequency, what to do about it.
void report_checkpoint_cost(CliObserver& observer, const TrainRequest& req, const TrainResult& r) {
    if (r.checkpoints_requested <= 0) return;
    const double stall_ms = 1000 * r.checkpoint_stall_seconds;
    char buf[400];
    // Captures that the disk then refused are taken, not saved: both counts, when they differ.
    const std::int64_t committed = observer.committed.load();
    const std::string counted =
        std::to_string(r.checkpoints_requested) + " taken" +
        (committed < r.checkpoints_requested ? ", " + std::to_string(committed) + " committed" : "");
    int n = std::snprintf(buf, sizeof buf,
                          "checkpoints: %s; they held training up %.1f ms in all (%.2f ms each on average, "
                          "longest %.1f ms; %.1f %% of the training loop)",
                          counted.c_str(), stall_ms, stall_ms / static_cast<double>(r.checkpoints_requested),
                          r.max_checkpoint_stall_ms,
                          r.loop_seconds > 0 ? 100 * r.checkpoint_stall_seconds / r.loop_seconds : 0.0);
    if (r.saves_waited > 0 && n > 0 && n < static_cast<int>(sizeof buf))
        std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n),
                      ", of which %.1f ms waiting for the previous save to be written (%lld time%s)",
                      1000 * r.save_wait_seconds, static_cast<long long>(r.saves_waited),
                      r.saves_waited == 1 ? "" : "s");
    observer.line(buf);
    // One wait in ten is a disk that is too slow for this frequency, not a hiccup.
    if (req.config.async_policy == "wait" && r.saves_waited >= 3 && r.saves_waited * 10 >= r.checkpoints_requested) {
        const std::int64_t freq = req.config.save_every_steps;
        const std::string every = freq == 1  ? "every step"
                                  : freq > 1 ? "every " + std::to_string(freq) + " steps"
                                             : "every epoch";
        observer.line("the disk did not keep up with a checkpoint " + every + ": " + std::to_string(r.saves_waited) +
                      " of " + std::to_string(r.checkpoints_requested) +
                      " waited for the one before. --async-policy defer never waits (it takes such a checkpoint a step "
                      "or two late), skip drops it; or save less often (--save-freq)");
    }
}

}  // namespace

// After training: what is still to upload gets `grace` seconds, then what is left is said.
void finish_uploads(CliObserver& observer, RemoteSync& remote, double grace, const std::string& uri) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "%g", grace);
    observer.line("remote: finishing the uploads to " + uri + " (at most " + buf + " s, --remote-grace-seconds)");
    const RemoteBacklog left = remote.finish(grace);
    std::string line = "remote: " + std::to_string(left.uploaded) + " checkpoint(s) in " + uri;
    if (left.pending + left.failed > 0)
        line += "; " + std::to_string(left.pending + left.failed) +
                " not uploaded yet (resume --remote uploads them: the registry keeps them pending)";
    observer.line(line);
}

int run_training(TrainRequest req, std::ostream& out, std::ostream& err, bool signals, RemoteSync* remote,
                 double grace_seconds) {
    CliObserver observer(out, err, req.storage_retries, req.storage_retry_seconds);
    Trainer trainer(req, &observer);
    // The sync prints through the observer: it is stopped before the observer goes, however this returns.
    struct StopRemote {
        RemoteSync* r;
        ~StopRemote() {
            if (r) r->finish(0);
        }
    } stop_remote{remote};
    observer.remote = remote;
    if (remote) {
        remote->on_message = [&observer](const std::string& line) { observer.line(line); };
        remote->start();
    }
    SignalScope scope(&trainer, signals);
    if (scope.early_)
        observer.line(std::string(scope.early_ == SIGTERM ? "a preemption notice (SIGTERM)" : "Ctrl-C (SIGINT)") +
                      " came while savepoint-cli was starting: stopping at the first step boundary");
    TrainResult r = trainer.run();
    if (remote) finish_uploads(observer, *remote, grace_seconds, remote->uri_text());
    observer.line(std::string(outcome_name(r.outcome)) + ": " + cli_outcome_text(r));
    observer.line("params_sha256 " + r.params_sha256);
    if (r.saves_skipped > 0 || r.saves_deferred > 0) {
        char buf[200];
        std::snprintf(
            buf, sizeof buf,
            "while a save was still writing: %lld checkpoint(s) skipped, %lld deferred (%.1f steps late on average)",
            static_cast<long long>(r.saves_skipped), static_cast<long long>(r.saves_deferred),
            r.saves_deferred ? double(r.steps_deferred) / double(r.saves_deferred) : 0.0);
        observer.line(buf);
    }
    report_checkpoint_cost(observer, req, r);
    if (r.allreduces > 0) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "gradient all-reduce: %.3f ms a step, %.1f %% of the time computing steps (%.1f s of %.1f s)",
                      1000 * r.allreduce_seconds / double(r.allreduces),
                      r.train_seconds > 0 ? 100 * r.allreduce_seconds / r.train_seconds : 0.0, r.allreduce_seconds,
                      r.train_seconds);
        observer.line(buf);
    }
    // A divergence's message says how to roll back instead: a plain resume would diverge again.
    if (r.outcome != Outcome::Finished && r.outcome != Outcome::NothingToDo && r.outcome != Outcome::Failed &&
        r.outcome != Outcome::Diverged)
        observer.line(req.group
                          ? std::string("resume with: the same torchrun command (rank 0 resumes the run by itself)")
                          : "resume with: savepoint-cli resume --run " + req.run_name +
                                (req.home.empty() ? "" : " --home " + req.home));
    return exit_code(r.outcome);
}

TrainRequest training_request(const CliFlags& f, const std::string& resolved_home) {
    TrainRequest req;
    req.home = resolved_home;
    req.run_name = f.run_name;
    req.interrupt_at_step = f.interrupt_at;
    req.preempt_at_step = f.preempt_at;
    req.storage_retries = f.disk_retries;
    req.storage_retry_seconds = f.disk_retry_seconds;
    // Given, they must name a step: 0 is not "none" (leaving the flag out is).
    for (auto* o : f.step_opts) {
        const std::int64_t v = o->get_name() == "--interrupt-at-step" ? f.interrupt_at : f.preempt_at;
        if (o->count() && v < 1) throw InputError(o->get_name().substr(2), "a positive global step", std::to_string(v));
    }
    if (f.spe_opt->count() && f.spe == 0)  // negatives: TrainConfig::validate names the range
        throw InputError("steps-per-epoch", "a positive number of steps (leave it out for one full pass)",
                         std::to_string(f.spe));
    validate_run_name(f.run_name);
    return req;
}

}  // namespace savepoint
