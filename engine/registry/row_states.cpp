#include "registry/row_states.h"

#include "platform/errors.h"
#include "registry/registry.h"

#include <iterator>

namespace savepoint {
namespace {

template <typename E, std::size_t N>
E parse_word(const char* what, const char* const (&words)[N], const std::string& word) {
    for (std::size_t i = 0; i < N; ++i)
        if (word == words[i]) return static_cast<E>(i);
    // No Savepoint writes it: the file was edited or damaged (errors.h, RegistryDamaged).
    throw RegistryDamaged(std::string("registry: unknown ") + what + " '" + word + "'" + kDamagedAdvice, "");
}

// In the order of the enum.
const char* const kRunStatusWords[] = {"created",     "running",   "paused",  "finished",
                                       "interrupted", "preempted", "stopped", "failed"};

// In the order of the enum.
const char* const kCheckpointStateWords[] = {"writing", "committed", "deleting", "deleted",
                                             "corrupt", "missing",   "failed"};

// In the order of the enum.
const char* const kCheckpointKindWords[] = {"regular", "emergency", "final", "manual"};

// In the order of the enum.
const char* const kSessionKindWords[] = {"train", "resume", "rollback"};

// In the order of the enum.
const char* const kSessionEndWords[] = {"",       "finished", "crash",       "preempted", "stopped",
                                        "failed", "killed",   "interrupted", "diverged"};

// In the order of the enum.
const char* const kEventKindWords[] = {
    "start",    "checkpoint", "save_skipped", "save_deferred",  "interruption", "preemption_notice", "preemption",
    "resume",   "rollback",   "finish",       "stop",           "error",        "recovery",          "pause",
    "continue", "divergence", "restart",      "device_changed", "throttled",    "low_disk"};

}  // namespace

const char* to_string(RunStatus v) { return kRunStatusWords[static_cast<int>(v)]; }
const char* to_string(CheckpointState v) { return kCheckpointStateWords[static_cast<int>(v)]; }
const char* to_string(CheckpointKind v) { return kCheckpointKindWords[static_cast<int>(v)]; }
const char* to_string(SessionKind v) { return kSessionKindWords[static_cast<int>(v)]; }
const char* to_string(SessionEnd v) { return kSessionEndWords[static_cast<int>(v)]; }
const char* to_string(EventKind v) { return kEventKindWords[static_cast<int>(v)]; }

RunStatus parse_run_status(const std::string& word) {
    return parse_word<RunStatus>("run status", kRunStatusWords, word);
}
CheckpointState parse_checkpoint_state(const std::string& word) {
    return parse_word<CheckpointState>("checkpoint state", kCheckpointStateWords, word);
}
CheckpointKind parse_checkpoint_kind(const std::string& word) {
    return parse_word<CheckpointKind>("checkpoint kind", kCheckpointKindWords, word);
}
SessionKind parse_session_kind(const std::string& word) {
    return parse_word<SessionKind>("session kind", kSessionKindWords, word);
}
SessionEnd parse_session_end(const std::string& word) {
    return parse_word<SessionEnd>("session end", kSessionEndWords, word);
}
EventKind parse_event_kind(const std::string& word) {
    return parse_word<EventKind>("event kind", kEventKindWords, word);
}

MetricKind parse_metric_kind(long long value) {
    if (value == 0 || value == 1) return static_cast<MetricKind>(value);
    throw RegistryDamaged("registry: unknown metric kind " + std::to_string(value) + kDamagedAdvice, "");
}

}  // namespace savepoint
