// savepoint-cli's subcommands, one function each (one file each, named for it:
// cli_train.cpp, cli_resume.cpp, cli_runs.cpp, ...). run_cli (cli_app.cpp)
// parses the flags into CliFlags, checks the home and calls one of these; each
// returns the exit code and throws InputError and the like for run_cli to word.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace savepoint {

// What the flags parsed into, with the defaults the help shows. Subcommands
// share a value where they share a flag (--run, --checkpoint, --home).
struct CliFlags {
    std::string home, run_name, data = "fashion-mnist", model = "mlp", optimizer = "adam", device = "auto",
                                save_freq = "epoch", async_policy = "wait", resume_data, loss = "ce", resume_model,
                                out_file, remote;
    std::int64_t epochs = 10, spe = 0, batch = 32, keep = 5, threads = 0, interrupt_at = 0, preempt_at = 0;
    std::int64_t checkpoint_id = 0, resume_epoch = -1, resume_step = -1, disk_retries = 30;
    std::int64_t session_id = 0;  // telemetry --session (0: every session)
    double lr = 1e-3, disk_retry_seconds = 10;
    double remote_grace_seconds = 120;  // after training stops, time left to finish the uploads (EC2's spot notice)
    std::uint64_t seed = 42;
    bool json = false;
    bool dry_run = false;           // train --dry-run
    double resume_lr = 0;           // resume --lr (with a rollback only)
    std::vector<std::string> runs;  // compare --run A --run B...

    // Options whose presence, not only value, counts.
    CLI::Option* spe_opt = nullptr;       // train --steps-per-epoch
    CLI::Option* ck_opt = nullptr;        // resume --checkpoint
    CLI::Option* ep_opt = nullptr;        // resume --epoch
    CLI::Option* st_opt = nullptr;        // resume --step
    CLI::Option* lr_opt = nullptr;        // resume --lr
    std::vector<CLI::Option*> step_opts;  // --interrupt-at-step / --preempt-at-step of either subcommand
};

// `resolved_home` is the home every command works in, already checked.
// `install_signals`: SIGTERM/SIGINT become a preemption notice while training.
int train_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err,
                  bool install_signals);
int resume_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err,
                   bool install_signals);
int runs_command(const std::string& resolved_home, bool json, std::ostream& out, std::ostream& err);
int checkpoints_command(const std::string& resolved_home, const std::string& run_name, bool json, std::ostream& out,
                        std::ostream& err);
// One sample a second while training: the process, the machine and the GPU (session_id 0: every session).
int telemetry_command(const std::string& resolved_home, const std::string& run_name, std::int64_t session_id, bool json,
                      std::ostream& out, std::ostream& err);
int verify_command(const std::string& resolved_home, const std::string& run_name, std::ostream& out, std::ostream& err);
// Several runs side by side: the settings that differ, final and best validation figures.
int compare_command(const std::string& resolved_home, const std::vector<std::string>& runs, bool json,
                    std::ostream& out, std::ostream& err);
// A checkpoint's weights as a file PyTorch reads (TorchScript for a TorchScript run, a state dict otherwise).
int export_command(const std::string& resolved_home, const std::string& run_name, std::int64_t checkpoint_id,
                   const std::string& out_file, std::ostream& out, std::ostream& err);
// Runs from S3-compatible storage (--remote) into the home, every file's SHA-256 checked first.
int pull_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err);
// pin (`pin` true) and unpin.
int pin_command(const std::string& resolved_home, const std::string& run_name, std::int64_t checkpoint_id, bool pin,
                std::ostream& out, std::ostream& err);

}  // namespace savepoint
