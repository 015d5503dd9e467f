// A scripted tour used for the README screenshot and for eyeballing the UI:
// start a synthetic run, simulate a crash, roll back to an older checkpoint
// chosen in the table, train on, grab the window into a PNG and quit.
// Drives MainWindow only through its public slots. GUI thread only.
#pragma once

#include <QObject>
#include <QString>

#include "bridge/engine_types.h"

namespace savepoint::ui {

class MainWindow;

class DemoScript : public QObject {
    Q_OBJECT
public:
    DemoScript(MainWindow* window, QString screenshot_path, QObject* parent = nullptr);
    void start();

Q_SIGNALS:
    void done(bool ok);

private:
    void onProgress(const savepoint::Progress& p);
    void onFinished(const WorkerOutcome& o);
    void rollBack();
    void shoot();

    MainWindow* w_;
    QString path_;
    QString run_;
    int stage_ = 0;
    std::int64_t crash_at_ = 260, rollback_to_ = 120, shoot_at_ = 420;
};

}  // namespace savepoint::ui
