// The CLI's homes and registries: checking a --home, opening its registry to
// write (with recovery, said line by line) or only to read, finding a run,
// what a home without its registry file still holds, and `verify`.
#pragma once

#include "platform/errors.h"
#include "registry/registry.h"
#include "registry/run_refusals.h"  // no_run_named, said by the commands that read a run

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

namespace savepoint {

// Whether this process may write the home and its registry.
bool home_writable(const std::string& home);
// Opens the registry and runs recovery, writing what it changed to `err`.
std::unique_ptr<Registry> open_registry(const std::string& home, std::ostream& err);
// For commands that only read: a home that cannot be written is read as it is.
std::unique_ptr<Registry> open_registry_to_read(const std::string& home, std::ostream& err);
// Throws InputError (naming `source`) when `home` or a path on the way is a file.
void check_home(const std::string& home, const std::string& source);
std::size_t count_files(const std::string& dir);
bool home_has_registry(const std::string& home);
// Without a registry file: names each checkpoints/<run>/ that holds files; returns their count.
std::size_t note_files_without_registry(const std::string& home, std::ostream& err);
RunRow require_run(Registry& reg, const std::string& name);
// `savepoint-cli verify` once the registry's pages have passed: exit code 0 or 1.
int verify_runs(Registry& reg, const std::string& only, std::ostream& out, std::ostream& err);

}  // namespace savepoint
