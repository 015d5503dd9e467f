// What a user can do next about a refused input, as data: the engine names the
// step and its fields, each front end words it (the CLI as a command to type,
// the window as its own control). The engine's English never names a flag.
#pragma once

#include <cstdint>
#include <string>

namespace savepoint {

struct Remedy {
    enum class Kind {
        None,
        ListRuns,              // see the runs of this home
        ResumeRun,             // `run` exists: resume it rather than create it
        ListCheckpoints,       // see `run`'s checkpoints and pick one
        ModelMoved,            // `run`'s model file is gone: say where it is now
        PutModelBack,          // export reads `run`'s model where it was recorded (training can follow a move)
        DataMoved,             // `run`'s dataset is gone: say where it is now (`file`: a file, else a directory)
        LeaveModelOut,         // the run trains a built-in model: name no model file
        LeaveDataOut,          // the run trains on a built-in dataset: name no data
        TrainOnCpu,            // no CUDA device here: train on the CPU (or let the device be chosen)
        RollBackFirst,         // a new learning rate needs a checkpoint of `run` to branch from
        RollBackTo,            // branch from checkpoint `checkpoint_id` (at `position`), 0: from the run's start
        NameBothEpochAndStep,  // a resume point needs both; `given` is the one named ("epoch" or "step")
        NameTwoRuns,           // a comparison needs two or more runs
        PullElsewhere,         // the run is here already: pull into another home, or resume it here
    };
    Kind kind = Kind::None;
    std::string run;
    std::int64_t checkpoint_id = 0;
    std::string position;  // "epoch 2, step 3" for RollBackTo
    std::string given;     // NameBothEpochAndStep
    bool file = false;     // DataMoved
};

}  // namespace savepoint
