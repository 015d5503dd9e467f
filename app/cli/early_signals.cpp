#include "early_signals.h"

#include "platform/signal_disposition.h"

#include <atomic>
#include <csignal>
#include <initializer_list>

namespace savepoint {
namespace {

// Lock-free, so safe to exchange inside the handler.
std::atomic<int> g_noted{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void note_early_signal(int sig) {
    int none = 0;
    g_noted.compare_exchange_strong(none, sig);
}

bool handled_early(int sig) {
    struct sigaction now {};
    return ::sigaction(sig, nullptr, &now) == 0 && now.sa_handler == note_early_signal;
}

}  // namespace

void catch_signals_early() {
    // SA_RESTART: the loader and LibTorch's initialisers read files and do not expect EINTR.
    // A second Ctrl-C still kills at once (SA_RESETHAND), as users expect.
    handle_unless_ignored(SIGTERM, note_early_signal, SA_RESTART);
    handle_unless_ignored(SIGINT, note_early_signal, SA_RESTART | SA_RESETHAND);
}

int take_early_signal() { return g_noted.exchange(0); }

void release_early_signals() {
    for (int sig : {SIGTERM, SIGINT})
        if (handled_early(sig)) ::signal(sig, SIG_DFL);
    if (int sig = take_early_signal()) ::raise(sig);
}

}  // namespace savepoint
