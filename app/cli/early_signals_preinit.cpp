// Linked into the savepoint-cli executable only: an executable's .preinit_array
// runs before LibTorch's initialisers, a library's is ignored (early_signals.h).
// Sanitizer builds skip it (their runtime initialises from the same array and
// intercepts sigaction); main() installs the handler there instead.
#include "early_signals.h"
#include "platform/sanitizer_build.h"

#ifndef SAVEPOINT_SANITIZED_BUILD
namespace {
void preinit_catch_signals(int, char**, char**) { savepoint::catch_signals_early(); }
}  // namespace

__attribute__((section(".preinit_array"),
               used)) static void (*const savepoint_preinit_signals)(int, char**, char**) = preinit_catch_signals;
#endif
