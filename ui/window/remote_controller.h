// This window's link to S3-compatible storage (engine/remote/): the checkpoints
// of a run trained here uploaded in the background (the New run dialog's
// Remote storage, and a resume of a run synced before), and "Open runs from
// remote storage…", which pulls runs into this window's home. The store is
// asked off the GUI thread (one listing before training, the pull itself);
// the sync runs on its own thread while the window is open, and what it has
// not uploaded when the window closes stays pending in the registry for the
// next resume. Owned by MainWindow. GUI thread only.
#pragma once

#include "bridge/background_jobs.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace savepoint {
class Registry;
class RemoteSync;
}  // namespace savepoint

namespace savepoint::ui {

class RemoteController : public QObject {
    Q_OBJECT
public:
    explicit RemoteController(QString home, QObject* parent = nullptr);
    ~RemoteController() override;

    // Asks the store at `uri` (credentials, bucket: one listing), then syncs run
    // `run`'s checkpoints to it and calls `then`. On a refusal it says why, and
    // calls `then` anyway unless `required` (a resume trains without the store;
    // its checkpoints stay pending until a later resume reaches it).
    void syncThen(const QString& run, const QString& uri, std::function<void()> then, bool required);
    // The store run `run_id`'s checkpoints went to before (empty: none).
    static QString previousRemote(savepoint::Registry& reg, std::int64_t run_id);
    // The run last attached (synced, or tried and refused for a resume).
    QString syncedRun() const { return run_; }
    // Brings the runs under `uri` (or only `run`) into this window's home.
    void pull(const QString& uri, const QString& run = {});
    bool busy() const { return jobs_.running() > 0; }

Q_SIGNALS:
    void message(const QString& text);       // for the Events pane
    void errorMessage(const QString& text);  // for the banner
    void pulled(const QStringList& runs);    // registered in the home: show them

private:
    void drainSyncLines();

    QString home_;
    QString run_;
    std::mutex lines_mutex_;
    QStringList lines_;  // the sync thread's lines, under lines_mutex_
    QTimer drain_;
    std::unique_ptr<savepoint::RemoteSync> sync_;  // after lines_: stopped before they go
    BackgroundJobs jobs_;                          // last: its destructor waits for a check or a pull still running
};

}  // namespace savepoint::ui
