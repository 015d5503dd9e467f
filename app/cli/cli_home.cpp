#include "cli_home.h"

#include "checkpoint/checkpoint_check.h"
#include "checkpoint/recovery.h"
#include "formats/checkpoint_format.h"
#include "registry/home.h"
#include "storage/durable_io.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace savepoint {

// Whether this process may write the home and its registry (a backup, a
// snapshot or a read-only mount may not; root may write almost anything).
bool home_writable(const std::string& home) {
    const std::string reg = registry_path(home);
    return ::access(home.c_str(), W_OK) == 0 && (!file_exists(reg) || ::access(reg.c_str(), W_OK) == 0);
}

// For commands that only read: a home that cannot be written is read as it is,
// without recovery (which writes), and says so.
std::unique_ptr<Registry> open_registry_to_read(const std::string& home, std::ostream& err) {
    if (home_writable(home)) return open_registry(home, err);
    err << "note: " << home
        << " cannot be written: showing the registry as it is (recovery, which writes, was not run)\n";
    return std::make_unique<Registry>(home, Registry::ReadOnly{});
}

std::unique_ptr<Registry> open_registry(const std::string& home, std::ostream& err) {
    auto reg = std::make_unique<Registry>(home);
    // What recovery changed is said, as a training run says it: files moved to quarantine/ must not be a surprise.
    for (const auto& line : reconcile_registry(*reg).actions) err << "recovery: " << line << "\n";
    return reg;
}

// A home must be a directory, or a path where one can be made: a file there
// (or on the way there) is a mistyped flag, said as such (exit 2), not a
// storage failure.
void check_home(const std::string& home, const std::string& source) {
    std::string p = home;
    for (;;) {
        struct stat st {};
        if (::stat(p.c_str(), &st) == 0) {
            if (S_ISDIR(st.st_mode)) return;
            throw InputError(source + ": expected a directory for the registry and checkpoints, found a file at " + p +
                             (p == home ? "" : " (on the way to " + home + ")"));
        }
        const auto slash = p.find_last_of('/');
        if (slash == std::string::npos || slash == 0) return;
        p.resize(slash);
    }
}

std::size_t count_files(const std::string& dir) {
    std::size_t n = 0;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d))
            if (e->d_type == DT_REG) ++n;
        ::closedir(d);
    }
    return n;
}

// Commands that only read or name an existing run never create a home.
bool home_has_registry(const std::string& home) { return file_exists(registry_path(home)); }

// Without a registry, checkpoint files under checkpoints/<run>/ belong to no
// run: the registry was deleted or moved. Said by the commands that only read
// (which create nothing), with what the next writer will do with them.
// Returns the number of such files.
std::size_t note_files_without_registry(const std::string& home, std::ostream& err) {
    const std::string root = home + "/checkpoints";
    std::size_t total = 0;
    if (DIR* d = ::opendir(root.c_str())) {
        while (dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name == "." || name == "..") continue;
            const std::size_t n = count_files(root + "/" + name);
            if (n == 0) continue;
            total += n;
            err << "note: " << root << "/" << name << "/ holds " << n << (n == 1 ? " file" : " files") << " but "
                << registry_path(home) << " is missing (deleted or moved?); put it back, or the next train or resume "
                << "here moves them to " << quarantine_dir(home) << "\n";
        }
        ::closedir(d);
    }
    return total;
}

RunRow require_run(Registry& reg, const std::string& name) {
    auto run = reg.find_run(name);
    if (!run) throw no_run_named(name, reg.home());
    return *run;
}

int verify_runs(Registry& reg, const std::string& only, std::ostream& out, std::ostream& err) {
    std::vector<RunRow> runs;
    if (!only.empty())
        runs.push_back(require_run(reg, only));
    else
        runs = reg.list_runs();
    int damaged = 0, ok = 0;
    for (const auto& run : runs) {
        for (const auto& c : reg.checkpoints(run.id)) {
            if (c.state == CheckpointState::Deleted || c.state == CheckpointState::Failed ||
                c.state == CheckpointState::Writing || c.state == CheckpointState::Deleting)
                continue;
            const std::string path = reg.absolute(c.path);
            if (c.state != CheckpointState::Committed) {
                err << "DAMAGED " << run.name << " #" << c.id << " " << path << ": " << to_string(c.state)
                    << (c.state_detail.empty() ? "" : " (" + c.state_detail + ")") << "\n";
                ++damaged;
                continue;
            }
            // The same judgement as the window's Verify (checkpoint/checkpoint_check.h).
            const CheckpointCheck check = check_checkpoint(reg.home(), run.name, c);
            if (check.ok) {
                out << "ok      " << run.name << " #" << c.id << " " << path << " sha256 " << check.file.sha256 << "\n";
                ++ok;
            } else {
                if (!reg.read_only()) record_check(reg, c, check);
                err << "DAMAGED " << run.name << " #" << c.id << " " << check.why << "\n";
                ++damaged;
            }
        }
        // The head may have just become unusable: recovery moves it to the newest good ancestor.
    }
    if (damaged && !reg.read_only()) reconcile_registry(reg);
    out << ok << " verified, " << damaged << " damaged\n";
    const std::size_t quarantined = count_files(quarantine_dir(reg.home()));
    if (quarantined)
        out << quarantine_dir(reg.home()) << " holds " << quarantined << (quarantined == 1 ? " file" : " files")
            << " the registry does not know (orphans kept by recovery; nothing there is ever deleted)\n";
    return damaged ? 1 : 0;
}

}  // namespace savepoint
