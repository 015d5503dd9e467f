#include "checkpoint/recovery.h"

#include "data/data_order.h"
#include "formats/checkpoint_format.h"
#include "platform/errors.h"
#include "registry/home.h"
#include "registry/run_lock.h"
#include "storage/durable_io.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace savepoint {
namespace {

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            std::string n = e->d_name;
            if (n != "." && n != "..") out.push_back(n);
        }
        ::closedir(d);
    }
    return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Worded from the global step, so a row an older version wrote as "epoch 3, step 0" reads as the others do.
std::string pos_text(const CheckpointRow& c, const RunRow& run) {
    return position_text(c.global_step, run.steps_per_epoch, true);
}

void note(Registry& reg, RecoveryReport& report, std::int64_t run_id, EventKind kind, const std::string& message,
          std::int64_t global_step = 0, std::optional<std::int64_t> ckpt = std::nullopt) {
    report.actions.push_back(message);
    EventRow e;
    e.run_id = run_id;
    e.kind = kind;
    e.global_step = global_step;
    e.checkpoint_id = ckpt;
    e.message = message;
    reg.add_event(e);
}

// Recovery moves and marks files by what the registry says, and a damaged
// registry can say anything: a run row whose name came back empty owns
// "checkpoints//", so every other run's directory looks like its orphan.
// Before its first change, recovery checks the registry's pages once (a full
// read, so not on every open: most opens change nothing), and stops without
// having changed anything if they are damaged.
class ChangeGate {
public:
    explicit ChangeGate(Registry& reg) : reg_(reg) {}
    void before_change() {
        if (checked_) return;
        std::string check;
        try {
            check = reg_.quick_check();
        } catch (const std::exception& e) {
            check = e.what();  // too damaged to run the check at all
        }
        if (check != "ok") damaged(check);
        checked_ = true;
    }
    [[noreturn]] void damaged(const std::string& what) const {
        throw RegistryDamaged(reg_.path() + ": the registry is damaged (" + what +
                                  "); recovery stopped before changing anything. verifying the home reports it; "
                                  "copy the home before trying `sqlite3 " +
                                  reg_.path() + " .recover`",
                              reg_.path());
    }

private:
    Registry& reg_;
    bool checked_ = false;
};

// A name that would put a run's files anywhere but in a directory of its own.
bool unusable_run_name(const std::string& name) {
    return name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
           name.find('\0') != std::string::npos;
}

void reconcile_run(Registry& reg, const RunRow& run, RecoveryReport& report, ChangeGate& gate) {
    const std::string dir_rel = checkpoint_dir_relative(run.name);
    const std::string dir = reg.absolute(dir_rel);
    auto rows = reg.checkpoints(run.id);
    std::set<std::string> known_files;

    for (auto& c : rows) {
        const std::string path = reg.absolute(c.path);
        known_files.insert(c.path.substr(c.path.find_last_of('/') + 1));
        if (c.state == CheckpointState::Deleting) {
            gate.before_change();
            remove_durably(path);
            reg.set_checkpoint_state(c.id, CheckpointState::Deleted);
            report.actions.push_back("finished deleting checkpoint #" + std::to_string(c.id));
        } else if (c.state == CheckpointState::Writing) {
            gate.before_change();
            ::unlink((path + ".tmp").c_str());
            VerifyResult v = c.path.empty() ? VerifyResult{} : verify_checkpoint_file(path);
            bool matches =
                v.ok && v.meta.value("checkpoint_id", -1) == c.id_in_file() && v.meta.value("run", "") == run.name;
            if (matches) {
                CheckpointCommit commit;
                commit.bytes = static_cast<std::int64_t>(v.bytes);
                commit.sha256 = v.sha256;
                // Saves hash the parameters after transaction A: the row may not have it yet.
                if (auto it = v.meta.find("params_sha256"); it != v.meta.end() && it->is_string())
                    commit.params_sha256 = it->get<std::string>();
                reg.commit_checkpoint(c.id, commit);
                c.state = CheckpointState::Committed;
                c.sha256 = v.sha256;
                note(reg, report, run.id, EventKind::Recovery,
                     "run '" + run.name + "': checkpoint #" + std::to_string(c.id) + " at " + pos_text(c, run) +
                         " was fully written before the process stopped; committed it",
                     c.global_step, c.id);
            } else {
                if (!c.path.empty() && file_exists(path)) remove_durably(path);
                reg.set_checkpoint_state(c.id, CheckpointState::Failed,
                                         "the process stopped while this checkpoint was being written");
                c.state = CheckpointState::Failed;
                note(reg, report, run.id, EventKind::Recovery,
                     "run '" + run.name + "': checkpoint #" + std::to_string(c.id) + " at " + pos_text(c, run) +
                         " was only half written; discarded it",
                     c.global_step, c.id);
            }
        } else if (c.state == CheckpointState::Committed) {
            VerifyResult v = check_checkpoint_footer(path, c.sha256);
            if (!v.ok) {
                gate.before_change();
                const bool missing = !file_exists(path);
                reg.set_checkpoint_state(c.id, missing ? CheckpointState::Missing : CheckpointState::Corrupt, v.error);
                c.state = missing ? CheckpointState::Missing : CheckpointState::Corrupt;
                note(reg, report, run.id, EventKind::Recovery,
                     "run '" + run.name + "': checkpoint #" + std::to_string(c.id) + " at " + pos_text(c, run) +
                         " is " + to_string(c.state) + ": " + v.error,
                     c.global_step, c.id);
            }
        }
    }

    // Temp files and orphans in the run's checkpoint directory.
    for (const auto& name : list_dir(dir)) {
        const std::string path = dir + name;
        if (ends_with(name, ".tmp") || !known_files.count(name)) gate.before_change();
        if (ends_with(name, ".tmp")) {
            ::unlink(path.c_str());
            report.actions.push_back("removed temp file " + path);
            continue;
        }
        if (known_files.count(name)) continue;
        VerifyResult v = verify_checkpoint_file(path);
        std::string outcome;
        try {
            outcome = "; moved it to " + quarantine_file(reg.home(), run.name, path);
        } catch (const std::exception& e) {
            outcome = "; " + std::string(e.what());
        }
        note(reg, report, run.id, EventKind::Recovery,
             "run '" + run.name + "': file " + path + " is not in the registry" +
                 (v.ok ? " (it verifies)" : " (" + v.error + ")") + outcome);
    }

    // A run the registry still calls running has no live writer (we hold its lock).
    if (run.status == RunStatus::Running || run.status == RunStatus::Paused) {
        gate.before_change();
        reg.set_run_status(run.id, RunStatus::Interrupted);
        for (auto s : reg.sessions(run.id)) {
            if (s.ended_by == SessionEnd::None) {
                s.ended_by = SessionEnd::Killed;
                s.end_global_step = run.global_step;
                reg.end_session(s);
            }
        }
        note(reg, report, run.id, EventKind::Interruption,
             "run '" + run.name +
                 "': the training process ended without closing the run (killed or crashed) after global step " +
                 std::to_string(run.global_step),
             run.global_step);
    }

    // The head must be usable; otherwise fall back along its lineage.
    auto fresh = reg.run_by_id(run.id);
    if (fresh && fresh->head_checkpoint_id) {
        auto head = reg.checkpoint(*fresh->head_checkpoint_id);
        if (!head || !head->usable()) {
            gate.before_change();
            auto fallback = newest_usable_ancestor(reg, fresh->head_checkpoint_id);
            reg.set_run_head(run.id, fallback ? std::optional<std::int64_t>(fallback->id) : std::nullopt);
            note(reg, report, run.id, EventKind::Recovery,
                 "run '" + run.name + "': head checkpoint #" + std::to_string(*fresh->head_checkpoint_id) +
                     " is not usable; training will resume from " +
                     (fallback ? "checkpoint #" + std::to_string(fallback->id) + " at " + pos_text(*fallback, run)
                               : std::string("the beginning (no usable checkpoint)")),
                 fallback ? fallback->global_step : 0,
                 fallback ? std::optional<std::int64_t>(fallback->id) : std::nullopt);
        }
    }
}

// A directory under checkpoints/ that no run of this registry owns: the
// registry was deleted, emptied or replaced, and a run of the same name would
// be handed ids 1, 2... again, whose files are there. Everything in it goes
// to quarantine/ (temp files too: nothing here is known to be garbage).
void quarantine_unowned_directories(Registry& reg, const std::set<std::string>& runs, RecoveryReport& report,
                                    ChangeGate& gate) {
    const std::string root = reg.absolute("checkpoints/");
    for (const auto& name : list_dir(root)) {
        const std::string dir = root + name + "/";
        struct stat st {};
        if (runs.count(name) || ::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        int fd = -1;
        if (!FileLock::try_hold(run_lock_path(reg.home(), name), &fd)) continue;  // a live writer
        std::size_t moved = 0;
        std::string failed;
        const auto files = list_dir(dir);
        if (!files.empty()) {
            try {
                gate.before_change();
            } catch (...) {
                FileLock::release(fd);
                throw;
            }
        }
        for (const auto& file : files) {
            try {
                quarantine_file(reg.home(), name, dir + file);
                ++moved;
            } catch (const std::exception& e) {
                failed += "; " + std::string(e.what());
            }
        }
        FileLock::release(fd);
        if (moved == 0 && failed.empty()) continue;
        const std::string line = "checkpoint directory " + dir + " belongs to no run in the registry (" + reg.path() +
                                 " was lost or replaced?): moved " + std::to_string(moved) +
                                 (moved == 1 ? " file" : " files") + " to " + quarantine_dir(reg.home()) + failed;
        report.actions.push_back(line);  // no event: an event belongs to a run
    }
}

}  // namespace

std::string quarantine_file(const std::string& home, const std::string& run_name, const std::string& path) {
    const std::string qdir = quarantine_dir(home);
    make_directories(qdir);
    const std::string name = path.substr(path.find_last_of('/') + 1);
    // Never over a file quarantined earlier: after a power loss a checkpoint id
    // (and so a file name) can be handed out again, and both orphans are kept.
    std::string target = qdir + "/" + run_name + "-" + name;
    int err = rename_no_replace(path, target);
    for (int n = 2; err == EEXIST && n < 10000; ++n) {
        target = qdir + "/" + run_name + "-" + name + "." + std::to_string(n);
        err = rename_no_replace(path, target);
    }
    if (err != 0) throw StorageError("could not move " + path + " to " + target + ": " + std::strerror(err), path, err);
    fsync_directory(parent_directory(path));
    fsync_directory(qdir);
    return target;
}

std::optional<CheckpointRow> newest_usable_ancestor(Registry& registry, std::optional<std::int64_t> from) {
    std::set<std::int64_t> seen;
    while (from && !seen.count(*from)) {
        seen.insert(*from);
        auto c = registry.checkpoint(*from);
        if (!c) return std::nullopt;
        if (c->usable()) return c;
        from = c->parent_id;
    }
    return std::nullopt;
}

namespace {

void reconcile_runs(Registry& registry, RecoveryReport& report, ChangeGate& gate) {
    std::set<std::string> run_names;
    const auto runs = registry.list_runs();
    for (const auto& run : runs)
        if (unusable_run_name(run.name))
            gate.damaged("run row #" + std::to_string(run.id) + " has the name '" + run.name +
                         "', which no run can have");
    for (const auto& run : runs) {
        run_names.insert(run.name);
        int fd = -1;
        if (!FileLock::try_hold(run_lock_path(registry.home(), run.name), &fd)) continue;  // a live writer
        try {
            reconcile_run(registry, run, report, gate);
        } catch (...) {
            FileLock::release(fd);
            throw;
        }
        FileLock::release(fd);
    }
    quarantine_unowned_directories(registry, run_names, report, gate);
}

}  // namespace

RecoveryReport reconcile_registry(Registry& registry) {
    RecoveryReport report;
    make_directories(locks_dir(registry.home()));
    FileLock registry_lock(registry_lock_path(registry.home()), /*wait=*/true, "the registry");
    ChangeGate gate(registry);
    try {
        reconcile_runs(registry, report, gate);
    } catch (const RegistryDamaged& e) {
        if (!e.path().empty()) throw;  // the gate's own, or SQLite's: it names the file already
        // A word no Savepoint writes (row_states.h): said as the damage the page check finds, if it finds any.
        gate.before_change();
        std::string what = e.what();
        if (const auto at = what.find(kDamagedAdvice); at != std::string::npos) what.erase(at);
        gate.damaged(what);
    }
    return report;
}

}  // namespace savepoint
