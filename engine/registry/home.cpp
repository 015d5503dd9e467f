#include "registry/home.h"

#include <cstdlib>

namespace savepoint {

std::string resolve_home(const std::string& explicit_home) {
    std::string home = explicit_home;
    if (home.empty())
        if (const char* env = std::getenv("SAVEPOINT_HOME"); env && *env) home = env;
    if (home.empty()) {
        if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
            home = std::string(xdg) + "/savepoint";
        else if (const char* h = std::getenv("HOME"); h && *h)
            home = std::string(h) + "/.local/share/savepoint";
        else
            home = "./savepoint-home";
    }
    while (home.size() > 1 && home.back() == '/') home.pop_back();
    return home;
}

std::string checkpoint_dir_relative(const std::string& run_name) { return "checkpoints/" + run_name + "/"; }
std::string quarantine_dir(const std::string& home) { return home + "/quarantine"; }
std::string locks_dir(const std::string& home) { return home + "/locks"; }

}  // namespace savepoint
