#include "bridge/termination_signals.h"

#include "platform/signal_disposition.h"

#include <QSocketNotifier>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>

namespace savepoint::ui {
namespace {

int g_pipe[2] = {-1, -1};  // [0] read by the GUI thread, [1] written by the handler
// The write end as the handler sees it: -1 before the destructor closes it, so
// that a handler running on another thread never writes to a reused number.
std::atomic<int> g_write_end{-1};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_termination_signal(int sig) {
    const int saved = errno;  // a handler must leave errno as it found it
    const char c = static_cast<char>(sig);
    if (const int fd = g_write_end.load(); fd >= 0) {
        [[maybe_unused]] const ssize_t n = ::write(fd, &c, 1);
    }
    errno = saved;
}

// What was there before: in place of this handler, or of the default action
// it left behind when it fired (SA_RESETHAND).
void uninstall(int sig, const struct sigaction& old) {
    struct sigaction now {};
    if (::sigaction(sig, nullptr, &now) == 0 && (now.sa_handler == on_termination_signal || now.sa_handler == SIG_DFL))
        ::sigaction(sig, &old, nullptr);
}

}  // namespace

TerminationSignals::TerminationSignals(QObject* parent) : QObject(parent) {
    if (g_pipe[0] >= 0) return;  // another instance has them
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, g_pipe) != 0) {
        g_pipe[0] = g_pipe[1] = -1;
        return;  // the default actions stay: the app works, a signal still ends it
    }
    g_write_end = g_pipe[1];
    notifier_ = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &TerminationSignals::drain);
    term_ = handle_unless_ignored(SIGTERM, on_termination_signal, SA_RESTART | SA_RESETHAND, &old_term_);
    int_ = handle_unless_ignored(SIGINT, on_termination_signal, SA_RESTART | SA_RESETHAND, &old_int_);
}

TerminationSignals::~TerminationSignals() {
    if (!notifier_) return;
    if (term_) uninstall(SIGTERM, old_term_);
    if (int_) uninstall(SIGINT, old_int_);
    g_write_end = -1;
    delete notifier_;
    ::close(g_pipe[0]);
    ::close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

bool TerminationSignals::handles(int signal) const { return signal == SIGTERM ? term_ : signal == SIGINT && int_; }

void TerminationSignals::drain() {
    char buf[16];
    ssize_t n;
    while ((n = ::read(g_pipe[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; ++i) Q_EMIT received(buf[i]);
}

}  // namespace savepoint::ui
