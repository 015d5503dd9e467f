// A scripted tour: start a synthetic run with a crash armed, let it crash,
// roll back to an older checkpoint chosen in the table, and train on. With a
// screenshot path (--demo-screenshot) it then grabs the window into a PNG and
// stops; without one (the first-launch hint's "Run the demo") the run trains
// to its end while the user watches. Drives MainWindow only through its
// public slots. GUI thread only.
#pragma once

#include <QObject>
#include <QString>

#include "bridge/engine_types.h"

namespace savepoint::ui {

class MainWindow;

class DemoScript : public QObject {
    Q_OBJECT
public:
    // An empty `screenshot_path`: the interactive tour.
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
