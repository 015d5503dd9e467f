#include "platform/signal_disposition.h"

namespace savepoint {

bool handle_unless_ignored(int sig, void (*handler)(int), int flags, struct sigaction* old) {
    struct sigaction was {};
    if (::sigaction(sig, nullptr, &was) != 0) return false;
    if (old) *old = was;
    if (was.sa_handler == SIG_IGN) return false;
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    return ::sigaction(sig, &sa, nullptr) == 0;
}

}  // namespace savepoint
