// Engine value types made known to Qt's meta-type system so they can cross
// threads in queued signals. Include wherever such a signal is declared.
#pragma once

#include "platform/field_rule.h"
#include "platform/remedy.h"
#include "registry/registry.h"
#include "training/trainer.h"

#include <QMetaType>

#include <vector>

namespace savepoint::ui {

using MetricBatch = std::vector<savepoint::MetricRow>;

// How a training session ended, as the GUI needs to know it.
struct WorkerOutcome {
    savepoint::Outcome outcome = savepoint::Outcome::Failed;
    bool threw = false;               // run() threw before or during training (bad input, busy run...)
    std::string message;              // what the engine said (a setting's refusal in the CLI's words: "--batch: …")
    savepoint::SessionReason reason;  // !threw: why it ended, for the window to word (SessionOutcomeWords)
    // A refused setting (an InputError with a field), as data for the window
    // to word in its own language (settingRefusalText): the field's
    // command-line name ("batch", "steps-per-epoch"), what was expected and
    // found, the engine's own sentence, and the field's range or choices.
    // `field` is empty for everything else.
    std::string field, expected, found, says;
    savepoint::FieldRule rule;
    savepoint::Remedy remedy;  // what the user can do next (an InputError's), for the window to word
    std::int64_t run_id = 0;
    std::int64_t global_step = 0;
};

void registerEngineMetaTypes();

}  // namespace savepoint::ui

Q_DECLARE_METATYPE(savepoint::Progress)
Q_DECLARE_METATYPE(savepoint::EventRow)
Q_DECLARE_METATYPE(savepoint::CheckpointRow)
Q_DECLARE_METATYPE(savepoint::ui::MetricBatch)
Q_DECLARE_METATYPE(savepoint::ui::WorkerOutcome)
