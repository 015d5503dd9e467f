// Planted bugs: the negative controls of the test harnesses. Each names a bug
// that one harness must catch (docs/RELIABILITY.md, negative controls, lists
// them all and which test catches each; test planted_bug_list checks the two
// agree). They are compiled in only with the CMake option SAVEPOINT_PLANTED_BUGS
// (preset "planted"); everywhere else planted_bug() is a constant false, the
// code behind it goes, and no bug's name is in the binaries (test
// planted_bug_names_absent greps them).
#pragma once

namespace savepoint {

// X(enumerator, the name SAVEPOINT_PLANT_BUG gives it)
#define SAVEPOINT_PLANTED_BUG_LIST(X)                           \
    X(CommitBeforeRename, "commit-before-rename")               \
    X(CompareBestIsLast, "compare-best-is-last")                \
    X(DeviceChangeUnsaid, "device-change-unsaid")               \
    X(DropRng, "drop-rng")                                      \
    X(EvalOwnBuffers, "eval-own-buffers")                       \
    X(ExportAlteredTensor, "export-altered-tensor")             \
    X(FollowerOpensHome, "follower-opens-home")                 \
    X(IgnoreWriteError, "ignore-write-error")                   \
    X(MigrateOutsideTransaction, "migrate-outside-transaction") \
    X(NoRunLock, "no-run-lock")                                 \
    X(ParserNoBounds, "parser-no-bounds")                       \
    X(PeerLossKills, "peer-loss-kills")                         \
    X(PullSkipSha256, "pull-skip-sha256")                       \
    X(RemoteManifestFirst, "remote-manifest-first")             \
    X(ScriptModelSkipBuffers, "script-model-skip-buffers")      \
    X(SkipChecksum, "skip-checksum")                            \
    X(SkipConfigValidation, "skip-config-validation")           \
    X(SkipDivergenceCheck, "skip-divergence-check")             \
    X(SkipFsync, "skip-fsync")                                  \
    X(SkipGradientAllreduce, "skip-gradient-allreduce")         \
    X(TelemetryNoSession, "telemetry-no-session")               \
    X(WriteFrozenState, "write-frozen-state")

enum class PlantedBug {
#define SAVEPOINT_PLANTED_BUG_ENUMERATOR(id, name) id,
    SAVEPOINT_PLANTED_BUG_LIST(SAVEPOINT_PLANTED_BUG_ENUMERATOR)
#undef SAVEPOINT_PLANTED_BUG_ENUMERATOR
};

#ifdef SAVEPOINT_PLANTED_BUGS
// True when the environment variable SAVEPOINT_PLANT_BUG names `bug`.
bool planted_bug(PlantedBug bug);
#else
constexpr bool planted_bug(PlantedBug) { return false; }
#endif

}  // namespace savepoint
