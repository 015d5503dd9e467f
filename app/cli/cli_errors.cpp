#include "cli_errors.h"

namespace savepoint {

namespace {

// The engine's remedy as a command to type, after the engine's sentence.
std::string remedy_text(const Remedy& r) {
    using K = Remedy::Kind;
    switch (r.kind) {
        case K::None:
        case K::NameBothEpochAndStep:  // worded whole by cli_error_text
        case K::NameTwoRuns:
            return {};
        case K::ListRuns:
            return " (see: savepoint-cli runs)";
        case K::ResumeRun:
            return " (resume it with: savepoint-cli resume --run " + r.run + ")";
        case K::ListCheckpoints:
            return " (see: savepoint-cli checkpoints --run " + r.run + ")";
        case K::ModelMoved:
            return " (if it moved, say where: savepoint-cli resume --run " + r.run + " --model NEW_FILE)";
        case K::PutModelBack:
            return " (for training, savepoint-cli resume --model NEW follows a moved file)";
        case K::DataMoved:
            return " (if it moved, say where: savepoint-cli resume --run " + r.run +
                   (r.file ? " --data NEW_FILE)" : " --data NEW_DIR)");
        case K::LeaveModelOut:
            return " (leave --model out)";
        case K::LeaveDataOut:
            return " (leave --data out)";
        case K::TrainOnCpu:
            return "; use --device cpu or auto";
        case K::RollBackFirst:
            return ": add --checkpoint ID (or --epoch E --step S) naming the last good one (savepoint-cli checkpoints "
                   "--run " +
                   r.run + ")";
        case K::RollBackTo:
            return "; use " +
                   (r.checkpoint_id ? "--checkpoint " + std::to_string(r.checkpoint_id) + " (" + r.position + ")"
                                    : std::string("--epoch 1 --step 0")) +
                   ", the newest one before it";
        case K::PullElsewhere:
            return " (pull into another --home, or resume it here)";
    }
    return {};
}

}  // namespace

std::string cli_error_text(const InputError& e) {
    const Remedy& r = e.remedy();
    // Two flags that go together, or one given many times: said the way they are typed.
    if (r.kind == Remedy::Kind::NameBothEpochAndStep)
        return "--epoch/--step: expected both (the last completed step to resume after), found only --" + r.given;
    if (r.kind == Remedy::Kind::NameTwoRuns)
        return "--run: expected two or more runs (--run A --run B), found " + e.found();
    if (e.field().empty()) return e.what() + remedy_text(r);
    return "--" + e.field() + ": " + e.says() + remedy_text(r);
}

}  // namespace savepoint
