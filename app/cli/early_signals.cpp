#include "early_signals.h"

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
    for (int sig : {SIGTERM, SIGINT}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = note_early_signal;
        sigemptyset(&sa.sa_mask);
        // SA_RESTART: the loader and LibTorch's initialisers read files and do not expect EINTR.
        // A second Ctrl-C still kills at once (SA_RESETHAND), as users expect.
        sa.sa_flags = SA_RESTART | (sig == SIGINT ? SA_RESETHAND : 0);
        ::sigaction(sig, &sa, nullptr);
    }
}

int take_early_signal() { return g_noted.exchange(0); }

void release_early_signals() {
    for (int sig : {SIGTERM, SIGINT})
        if (handled_early(sig)) ::signal(sig, SIG_DFL);
    if (int sig = take_early_signal()) ::raise(sig);
}

}  // namespace savepoint
