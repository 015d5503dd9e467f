// The temporary home of a test that drives the real window: a fresh directory
// with the home in dir/home and the window's own settings in dir/settings.ini
// (a first start: nothing of the user's is read or written), the window on
// them, and at the end a training still running stopped before the window and
// the directory go. A test keeps one as a member (create() in init(), close()
// in cleanup()) or one in a test function's scope. A dialog made without a
// window gets settings of its own the same way (TempSettings).
// Header-only; the including test links savepoint_ui and Qt6::Widgets.
#pragma once

#include "bridge/engine_types.h"
#include "bridge/trainer_worker.h"
#include "window/main_window.h"
#include "window_support.h"

#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace testsupport {

struct WindowHome {
    // Once per test case (initTestCase): Qt's test locations, so that no standard
    // path of the user's is touched, and the engine's types for queued signals.
    static void prepareTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        savepoint::ui::registerEngineMetaTypes();
    }
    static bool yes(const QString&, const QString&) { return true; }

    ~WindowHome() { close(); }

    // A fresh directory (closing the previous one and its window); false if none could be made.
    bool create() {
        close();
        dir = std::make_unique<QTemporaryDir>();
        return dir->isValid();
    }
    QString filePath(const QString& name) const { return dir->filePath(name); }

    // The window on this directory, its questions answered by `confirm`; shown by show().
    savepoint::ui::MainWindow& open(savepoint::ui::Confirm confirm = yes) {
        window = windowIn(*dir);
        window->setConfirmHandler(std::move(confirm));
        return *window;
    }
    // False unless the window is exposed at `size`.
    bool show(QSize size = {1400, 900}) {
        window->resize(size);
        window->show();
        return QTest::qWaitForWindowExposed(window.get());
    }

    // A run still training is stopped (a checkpoint written) and waited for.
    void stopTraining() {
        if (window && window->worker()->isRunning()) {
            window->worker()->stop();
            window->worker()->wait();
        }
    }
    void close() {
        stopTraining();
        window.reset();
        dir.reset();
    }

    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<savepoint::ui::MainWindow> window;
};

// Settings in an INI file of a temporary directory, for a dialog made without a window.
struct TempSettings {
    QTemporaryDir dir;
    QSettings settings{dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat};
};

}  // namespace testsupport
