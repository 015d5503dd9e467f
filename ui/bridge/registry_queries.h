// The run list's rows come from the engine (Registry::run_summaries): the
// window writes no SQL of its own.
#pragma once

#include "registry/registry.h"

namespace savepoint::ui {

using savepoint::RunSummary;

}  // namespace savepoint::ui
