// The run registry: one SQLite file per home (WAL, synchronous=FULL, foreign
// keys, versioned schema). Holds runs, branches, sessions, checkpoints,
// metrics and events. One Registry object is one connection: use it from one
// thread at a time (each thread opens its own).
#pragma once

#include "platform/telemetry_sample.h"
#include "registry/row_states.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;  // the registry speaks SQLite; its callers do not need its header

namespace savepoint {

double now_seconds();                                // wall clock, seconds since the epoch
std::string checkpoint_file_name(std::int64_t id);   // "ckpt-00000012.svpt"
std::string registry_path(const std::string& home);  // "<home>/registry.sqlite"

// What to do about a damaged registry, appended to every RegistryDamaged message.
inline constexpr const char* kDamagedAdvice =
    " (the registry is damaged: verifying the home reports it; copy the home before "
    "trying `sqlite3 registry.sqlite .recover`)";

struct RunRow {
    std::int64_t id = 0;
    std::string name;
    std::string config_json;
    std::int64_t steps_per_epoch = 0;
    std::int64_t total_steps = 0;
    RunStatus status = RunStatus::Created;
    double created_at = 0, updated_at = 0;
    std::optional<std::int64_t> head_checkpoint_id;
    std::int64_t active_branch_id = 0;
    std::int64_t global_step = 0;  // last completed step recorded (not necessarily saved)
    std::string device;
};

struct CheckpointRow {
    std::int64_t id = 0;
    std::int64_t run_id = 0;
    std::int64_t branch_id = 0;
    std::optional<std::int64_t> parent_id;
    std::int64_t epoch = 0, step = 0, global_step = 0;
    CheckpointKind kind = CheckpointKind::Regular;
    CheckpointState state = CheckpointState::Writing;
    bool pinned = false;
    std::string path;  // relative to the home (on insert: the directory prefix, "checkpoints/<run>/")
    std::int64_t bytes = 0;
    std::string sha256, params_sha256;
    double created_at = 0;
    double train_loss = NAN, train_accuracy = NAN, val_loss = NAN, val_accuracy = NAN;
    std::string state_detail;  // why it is corrupt/missing/failed
    double write_ms = NAN, stall_ms = NAN;
    std::int64_t branch_number = 0;  // read only: the branch's number within the run (BranchRow::number)
    double branch_lr = NAN;          // read only: the branch's learning rate (BranchRow::lr); NaN: the run's
    // The id the file's header names, when it is not this row's: a checkpoint pulled into a home where
    // its id was taken (remote/remote_pull.h). Its objects in remote storage keep that id too.
    std::optional<std::int64_t> file_id;
    std::int64_t id_in_file() const { return file_id ? *file_id : id; }
    // The device it was trained on (cuda/device_record.h, as JSON); empty in checkpoints from before it.
    std::string device_json;
    bool usable() const { return state == CheckpointState::Committed; }
};

// What transaction B records for a checkpoint (Registry::commit_checkpoint).
struct CheckpointCommit {
    std::int64_t bytes = 0;
    std::string sha256;
    std::string params_sha256;  // empty: keep what transaction A inserted
    double write_ms = NAN, stall_ms = NAN;
    std::vector<std::int64_t> retire;  // marked 'deleting' (retention), with retire_detail
    std::string retire_detail;
    std::vector<std::int64_t> finished;  // marked 'deleted': their file was written over
    std::string finished_detail;
};

struct BranchRow {
    std::int64_t id = 0, run_id = 0;
    std::optional<std::int64_t> parent_branch_id, fork_checkpoint_id;
    std::int64_t fork_global_step = 0;
    double created_at = 0;
    std::int64_t number = 0;  // read only: 1, 2, ... in creation order within the run (ids count across runs)
    // The learning rate this branch trains with when it is not the run's
    // (resume --lr, or a rollback from such a branch); nullopt: the run's.
    std::optional<double> lr;
};

struct SessionRow {
    std::int64_t id = 0, run_id = 0, branch_id = 0;
    SessionKind kind = SessionKind::Train;
    std::optional<std::int64_t> from_checkpoint_id;
    std::int64_t start_global_step = 0, target_global_step = 0;
    std::optional<std::int64_t> end_global_step;
    SessionEnd ended_by = SessionEnd::None;
    double started_at = 0, ended_at = 0;
    std::int64_t pid = 0, steps_computed = 0, steps_replayed = 0;
    double train_seconds = 0, checkpoint_seconds = 0, checkpoint_stall_seconds = 0;
    // A data-parallel job's session (rank 0 records it): its workers, the job's
    // restart (TORCHELASTIC_RESTART_COUNT), and [{"rank","host","pid"}...] as JSON; at its
    // end each other worker's "report" is added (worker_report.h).
    std::int64_t world_size = 1, restart_count = 0;
    std::string workers;  // empty: one process
};

struct MetricRow {
    std::int64_t session_id = 0, branch_id = 0;
    MetricKind kind = MetricKind::TrainingStep;
    std::int64_t global_step = 0, epoch = 0, step = 0;
    double loss = 0, accuracy = 0, wall_time = 0;
};

struct EventRow {
    std::int64_t id = 0, run_id = 0;
    std::optional<std::int64_t> session_id, branch_id, checkpoint_id;
    EventKind kind = EventKind::Start;
    std::int64_t global_step = 0, epoch = 0, step = 0;
    std::string message;  // the engine's English, for the Events pane and the log
    double created_at = 0;
    // The event's data as a JSON object ({} when none), for a front end to word in
    // its own language: "lost_worker", the rank a job lost (-1: which one is not known).
    std::string fields = "{}";
};

// A worker of a data-parallel job's session, as rank 0 recorded it (SessionRow::workers):
// the others with what they reported at their end (worker_report.h), when they could.
struct WorkerSummary {
    int rank = 0;
    std::string host;
    std::int64_t pid = 0;
    bool reported = false;
    std::int64_t steps = 0;
    double train_seconds = 0, allreduce_seconds = 0;
    std::string ended;  // SessionEnd's word
};
std::vector<WorkerSummary> parse_workers(const std::string& workers_json);  // [] when empty or not JSON

// One run as a run list shows it: its row, how many branches and sessions it
// has, and its newest training and validation metrics (NaN when none yet).
struct RunSummary {
    RunRow run;
    int branches = 1;
    int sessions = 0;
    int world_size = 1;                         // the newest session's workers (a data-parallel job: 2 or more)
    int restarts = 0;                           // sessions torchrun started after a lost worker
    std::vector<WorkerSummary> workers;         // the newest session's, when it was a job
    double loss = NAN, accuracy = NAN;          // last training step
    double val_loss = NAN, val_accuracy = NAN;  // last validation
};

class Registry {
public:
    // Opens (creating if needed) <home>/registry.sqlite and migrates it.
    explicit Registry(const std::string& home);
    // Opens an existing registry without writing anything, not even WAL's
    // shared-memory file: for a home that cannot be written (a backup, a
    // snapshot, a read-only mount). Writes fail; recovery must not be run on it.
    struct ReadOnly {};
    Registry(const std::string& home, ReadOnly);
    bool read_only() const { return read_only_; }
    ~Registry();
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    const std::string& home() const { return home_; }
    const std::string& path() const { return path_; }
    // The connection itself: for the registry's own files and for tests that
    // look under the API. The front ends use the queries below (they include
    // no <sqlite3.h>; tools/check-layers.sh).
    sqlite3* db() { return db_; }

    // Runs
    std::int64_t create_run(const std::string& name, const std::string& config_json, std::int64_t steps_per_epoch,
                            std::int64_t total_steps, const std::string& device);
    std::optional<RunRow> find_run(const std::string& name);
    std::optional<RunRow> run_by_id(std::int64_t id);
    std::vector<RunRow> list_runs();
    // Every run with its counts and newest metrics, in id order (run_summaries.cpp).
    std::vector<RunSummary> run_summaries();
    void set_run_status(std::int64_t run_id, RunStatus status);
    void set_run_progress(std::int64_t run_id, std::int64_t global_step);
    void set_run_head(std::int64_t run_id, std::optional<std::int64_t> checkpoint_id);
    void set_run_device(std::int64_t run_id, const std::string& device);

    // Branches: a rollback starts a new one and makes it active.
    std::int64_t create_branch(std::int64_t run_id, std::optional<std::int64_t> parent_branch,
                               std::optional<std::int64_t> fork_checkpoint, std::int64_t fork_global_step,
                               std::optional<double> lr = std::nullopt);
    std::vector<BranchRow> branches(std::int64_t run_id);

    // Sessions: one per train/resume invocation.
    std::int64_t begin_session(const SessionRow& s);
    void end_session(const SessionRow& s);
    std::vector<SessionRow> sessions(std::int64_t run_id);

    // Checkpoints: transaction A inserts the row as 'writing'; transaction B
    // marks it committed and moves the run's head in one step. Transaction B
    // may also mark older checkpoints 'deleting' (retention), so that the
    // commit and the decision to retire them cost one sync, not three, and
    // mark 'deleted' those whose file the new checkpoint was written over.
    std::int64_t insert_writing_checkpoint(CheckpointRow row);
    void commit_checkpoint(std::int64_t id, const CheckpointCommit& commit);
    // The same with nothing retired and the row's params_sha256 kept.
    void commit_checkpoint(std::int64_t id, std::int64_t bytes, const std::string& sha256, double write_ms,
                           double stall_ms);
    void set_checkpoint_state(std::int64_t id, CheckpointState state, const std::string& detail = {});
    void set_checkpoint_pinned(std::int64_t id, bool pinned);
    std::optional<CheckpointRow> checkpoint(std::int64_t id);
    std::vector<CheckpointRow> checkpoints(std::int64_t run_id);
    std::vector<CheckpointRow> checkpoints_in_state(CheckpointState state);
    // What a view that follows a run needs instead of its whole history on
    // every refresh (checkpoint_list.h): the run's rows after `after_id`, and
    // the rows with the given ids (those still gone are simply absent).
    std::vector<CheckpointRow> checkpoints_after(std::int64_t run_id, std::int64_t after_id);
    std::vector<CheckpointRow> checkpoints_with_ids(const std::vector<std::int64_t>& ids);
    // What retention needs, without reading the run's whole history on every
    // save (which grows with the run: docs/PERFORMANCE.md, registry): the committed rows
    // of a branch after its newest `keep`, newest first, and the run's
    // committed checkpoint with the lowest finite validation loss (the oldest
    // of equals). `also_id` (a row still 'writing') counts as committed.
    std::vector<CheckpointRow> committed_beyond_newest(std::int64_t run_id, std::int64_t branch_id, std::int64_t keep,
                                                       std::int64_t also_id);
    std::optional<std::int64_t> best_committed_checkpoint(std::int64_t run_id, std::int64_t also_id);
    std::int64_t max_checkpoint_id();

    // Metrics and events. append_metrics writes a batch in one transaction.
    void append_metrics(std::int64_t run_id, const std::vector<MetricRow>& rows);
    std::vector<MetricRow> metrics(std::int64_t run_id, std::int64_t after_rowid = 0,
                                   std::int64_t* last_rowid = nullptr);
    void append_telemetry(std::int64_t run_id, const std::vector<TelemetrySample>& rows);  // one unsynced transaction
    std::vector<TelemetrySample> telemetry(std::int64_t run_id, std::int64_t session_id = 0);  // 0: every session
    // The run's samples taken after `after_wall_time` (seconds since the epoch), oldest first: a live view's poll.
    std::vector<TelemetrySample> telemetry_since(std::int64_t run_id, double after_wall_time);
    std::int64_t add_event(const EventRow& e);
    std::vector<EventRow> events(std::int64_t run_id, std::int64_t after_id = 0);
    std::map<EventKind, std::int64_t> event_counts(std::int64_t run_id);  // kind -> events of the run
    // How many metric rows a run has (to decide whether to read them in the background).
    std::int64_t metric_count(std::int64_t run_id);

    // Groups several writes: BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit()
    // succeeded, so an exception between the two leaves nothing half-written.
    class Transaction {
    public:
        explicit Transaction(Registry& reg);
        ~Transaction();
        Transaction(const Transaction&) = delete;
        Transaction& operator=(const Transaction&) = delete;
        void commit();

    private:
        Registry& reg_;
        bool done_ = false;
    };

    // While one of these lives, commits reach the write-ahead log but are not
    // synced (SQLite's synchronous=NORMAL): they survive the process being
    // killed, not a power loss, until the next synced commit, which carries
    // them too (the log is synced in order). For writes whose loss recovery
    // repairs or nobody needs: metric batches, the 'writing' row of a
    // checkpoint, the 'deleted' mark after retention. A sync is not free, and
    // its completion interrupt lands on whichever core is training
    // (docs/PERFORMANCE.md, registry).
    class RelaxedCommits {
    public:
        explicit RelaxedCommits(Registry& reg);
        ~RelaxedCommits();
        RelaxedCommits(const RelaxedCommits&) = delete;
        RelaxedCommits& operator=(const RelaxedCommits&) = delete;

    private:
        Registry& reg_;
    };

    // PRAGMA integrity_check == "ok".
    std::string integrity_check();
    // PRAGMA quick_check: the pages and records, not the indexes' contents;
    // "ok" or the problems. Reads the whole file (docs/PERFORMANCE.md, registry).
    std::string quick_check();

    std::string absolute(const std::string& relative_path) const { return home_ + "/" + relative_path; }

private:
    // Only Transaction opens and ends one: it cannot leave one open on an exception.
    void begin();
    void commit();
    void rollback() noexcept;
    std::string check_pages(const char* pragma);

    std::string home_;
    std::string path_;
    sqlite3* db_ = nullptr;
    bool read_only_ = false;
};

}  // namespace savepoint
