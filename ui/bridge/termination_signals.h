// SIGTERM and SIGINT as a request to the window, not a kill.
//
// `kill PID`, a session's shutdown or a cloud workstation's preemption notice
// arrive as SIGTERM; Ctrl-C in the terminal that started the app as SIGINT.
// At their default action they ended the process at once, losing what
// training had done since its last checkpoint. Here the handler writes the
// signal's number into a socket pair (write() is async-signal-safe, no Qt
// call is) and a QSocketNotifier turns it into received() on the GUI thread;
// TrainingController::handleTermination takes it from there. Each handler is
// one-shot: a second signal of the same kind gets the default action and ends
// the process at once, as users expect (the CLI, which has no window to close,
// takes repeated SIGTERMs as the one notice). A signal the parent set to be
// ignored stays ignored. Install it early: a signal that comes before the
// event loop runs waits in the socket.
#pragma once

#include <QObject>

#include <csignal>

class QSocketNotifier;

namespace savepoint::ui {

class TerminationSignals : public QObject {
    Q_OBJECT
public:
    // Installs the handlers; one instance at a time per process.
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;  // the previous handlers back

    // The signals this instance handles (SIGTERM, and SIGINT unless ignored).
    bool handles(int signal) const;

Q_SIGNALS:
    void received(int signal);

private:
    void drain();

    QSocketNotifier* notifier_ = nullptr;
    bool term_ = false, int_ = false;
    struct sigaction old_term_ {
    }, old_int_{};  // restored by the destructor
};

}  // namespace savepoint::ui
