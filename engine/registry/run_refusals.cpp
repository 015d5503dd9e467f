#include "registry/run_refusals.h"

namespace savepoint {

InputError no_run_named(const std::string& name, const std::string& home) {
    return InputError("run", "a run in " + home, "'" + name + "'",
                      InputError::Says{"no run named '" + name + "' in " + home})
        .with(Remedy{Remedy::Kind::ListRuns});
}

InputError run_already_exists(const std::string& name, const std::string& home) {
    const std::string said = "a run named '" + name + "' already exists";
    if (home.empty())
        return InputError("run", "a name no run has", "'" + name + "'",
                          InputError::Says{said + " (use resume, or pick another name)"});
    return InputError("run", "a name no run in " + home + " has", "'" + name + "'",
                      InputError::Says{said + " in " + home})
        .with(Remedy{Remedy::Kind::ResumeRun, name});
}

}  // namespace savepoint
