// The savepoint desktop application: only argument parsing and start-up; the
// window lives in savepoint_ui.
#include "bridge/termination_signals.h"
#include "bridge/trainer_worker.h"
#include "cuda/cuda_determinism.h"
#include "registry/home.h"
#include "window/demo_script.h"
#include "window/main_window.h"
#include "window/training_controller.h"
#include "window/translations_loader.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
    savepoint::prepare_cuda_environment();  // before any thread or CUDA call
    QApplication app(argc, argv);
    // SIGTERM and Ctrl-C: training stops with an emergency checkpoint, then the
    // window closes. From here on: one that comes during start-up waits for the window.
    savepoint::ui::TerminationSignals termination;
    QApplication::setOrganizationName(QStringLiteral("Savepoint"));
    QApplication::setOrganizationDomain(QStringLiteral("savepoint.io"));
    QApplication::setApplicationName(QStringLiteral("Savepoint"));
    QApplication::setApplicationVersion(QStringLiteral(SAVEPOINT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.savepoint.Savepoint"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/io.savepoint.Savepoint.png")));

    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Watch, interrupt, roll back and resume neural-network training."));
    p.addHelpOption();
    p.addVersionOption();
    QCommandLineOption home(
        {QStringLiteral("home")},
        QStringLiteral("Registry and checkpoints directory (default: $SAVEPOINT_HOME, else XDG data dir)."),
        QStringLiteral("dir"));
    QCommandLineOption lang({QStringLiteral("lang")},
                            QStringLiteral("Language: en, pt_BR, fr (default: settings, else system)."),
                            QStringLiteral("code"));
    QCommandLineOption settings({QStringLiteral("settings")}, QStringLiteral("Use this INI file for settings."),
                                QStringLiteral("file"));
    QCommandLineOption shot(
        {QStringLiteral("demo-screenshot")},
        QStringLiteral("Run the demo (synthetic run, crash, rollback), save a screenshot to PATH and exit."),
        QStringLiteral("path"));
    QCommandLineOption size(
        {QStringLiteral("size")},
        QStringLiteral(
            "Window size WxH (default: the size it last had; the first time 1560x960, or 90 % of a smaller screen)."),
        QStringLiteral("WxH"));
    p.addOptions({home, lang, settings, shot, size});
    p.process(app);

    QSettings* s =
        p.isSet(settings) ? new QSettings(p.value(settings), QSettings::IniFormat, &app) : new QSettings(&app);
    const QString code =
        p.isSet(lang) ? p.value(lang) : s->value(QStringLiteral("ui/language"), QStringLiteral("system")).toString();
    savepoint::ui::installTranslations(code);

    savepoint::ui::MainWindowOptions opts;
    try {
        opts.home = QString::fromStdString(savepoint::resolve_home(p.value(home).toStdString()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "savepoint: %s\n", e.what());
        return 2;
    }
    opts.settings_path = p.value(settings);
    savepoint::ui::MainWindow w(opts);
    const bool demo = p.isSet(shot);
    if (demo || p.isSet(size)) {
        const QStringList wh = p.value(size).split(QLatin1Char('x'));
        const int width = wh.size() == 2 ? wh[0].toInt() : 1560, height = wh.size() == 2 ? wh[1].toInt() : 960;
        w.resize(width > 0 ? width : 1560, height > 0 ? height : 960);
    }
    w.show();
    QObject::connect(&termination, &savepoint::ui::TerminationSignals::received, w.training(),
                     &savepoint::ui::TrainingController::handleTermination);
    if (!demo) return app.exec();

    savepoint::ui::DemoScript script(&w, p.value(shot));
    int rc = 1;
    QObject::connect(&script, &savepoint::ui::DemoScript::done, &app, [&](bool ok) {
        rc = ok ? 0 : 1;
        w.worker()->wait();
        app.quit();
    });
    QTimer::singleShot(200, &script, &savepoint::ui::DemoScript::start);
    QTimer::singleShot(300000, &app, [&] {
        std::fprintf(stderr, "savepoint: demo timed out\n");
        app.quit();
    });
    app.exec();
    return rc;
}
