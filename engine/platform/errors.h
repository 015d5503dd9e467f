// Error types that cross the engine boundary. Callers map them to exit codes
// (InputError -> 2) or to messages in the GUI. Every message names the file or
// field, what was expected and what was found.
#pragma once

#include "platform/field_rule.h"
#include "platform/remedy.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace savepoint {

// Bad input from a user: a flag, a dataset file, an unknown run or checkpoint.
// Nothing on disk has been changed when this is thrown.
//
// About a setting, it carries the setting (`field`: its command-line name
// without dashes, "lr", "steps-per-epoch", "checkpoint"), what was expected and
// what was found, as data: each front end words it (the CLI "--lr: …", the
// window a translated sentence beside the field). what() is "--<field>: " and
// the engine's sentence for logs; the remedy (what to do next) is data beside it.
class InputError : public std::runtime_error {
public:
    // About a file or a dataset: the message names it and says it all.
    explicit InputError(const std::string& message);
    // "--<field>: expected <expected>, found <found>[ <note>]".
    InputError(std::string field, std::string expected, std::string found, std::string note = {});
    // When "expected …, found …" is not how a user would say it: `says` is the
    // sentence after "--<field>: " ("no checkpoint #7 in run 'a'").
    struct Says {
        std::string text;
    };
    InputError(std::string field, std::string expected, std::string found, Says says);
    // About a setting with a range or a choice: "--<field>: expected <rule in
    // English>, found <found>", the rule kept for the front ends to word.
    InputError(std::string field, FieldRule rule, std::string found);
    // The same, when the CLI says more than the rule ("at most 4096 (the
    // samples in the training split of …)").
    InputError(std::string field, std::string expected, std::string found, FieldRule rule);

    const std::string& field() const { return field_; }  // empty: not about a setting
    const std::string& expected() const { return expected_; }
    const std::string& found() const { return found_; }
    const std::string& says() const { return says_; }  // English, what follows "--<field>: "
    const FieldRule& rule() const { return rule_; }    // kind None: expected() says it all

    // What the user can do next, for the front ends to word (what() leaves it
    // out): `throw InputError(...).with(Remedy{...})`.
    InputError& with(Remedy remedy) {
        remedy_ = std::move(remedy);
        return *this;
    }
    const Remedy& remedy() const { return remedy_; }

private:
    std::string field_, expected_, found_, says_;
    FieldRule rule_;
    Remedy remedy_;
};

// The disk said no: ENOSPC, EIO, EROFS... The previous checkpoint and the
// registry are intact when this is thrown; training can continue once the
// cause is gone.
class StorageError : public std::runtime_error {
public:
    StorageError(const std::string& message, std::string path, int errnum = 0, std::uint64_t bytes_needed = 0,
                 std::uint64_t bytes_free = 0)
        : std::runtime_error(message),
          path_(std::move(path)),
          errnum_(errnum),
          needed_(bytes_needed),
          free_(bytes_free) {}
    const std::string& path() const { return path_; }
    int errnum() const { return errnum_; }
    std::uint64_t bytes_needed() const { return needed_; }
    std::uint64_t bytes_free() const { return free_; }
    bool disk_full() const;

private:
    std::string path_;
    int errnum_;
    std::uint64_t needed_;
    std::uint64_t free_;
};

// The registry's own pages are damaged (SQLite: "database disk image is
// malformed", "file is not a database", or rows no Savepoint writes). Not a
// full disk: retrying cannot help, and nothing is changed on its account —
// recovery above all, whose moves would follow garbage rows.
class RegistryDamaged : public StorageError {
public:
    using StorageError::StorageError;
};

// A checkpoint file failed verification (size, footer, checksum, header).
class CorruptCheckpoint : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Another process holds the writer lock of a run.
class RunBusy : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace savepoint
