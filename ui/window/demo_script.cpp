#include "window/demo_script.h"

#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "plot/metrics_plot.h"
#include "window/main_window.h"
#include "window/run_data_view.h"
#include "window/training_controller.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>

#include <cstdio>

namespace savepoint::ui {

DemoScript::DemoScript(MainWindow* window, QString screenshot_path, QObject* parent)
    : QObject(parent), w_(window), path_(std::move(screenshot_path)) {
    connect(w_->worker(), &TrainerWorker::progress, this, &DemoScript::onProgress);
    connect(w_->worker(), &TrainerWorker::finished, this, &DemoScript::onFinished);
    // Unattended (--demo-screenshot): nobody is there to answer the quit question.
    if (!path_.isEmpty()) w_->setConfirmHandler([](const QString&, const QString&) { return true; });
}

void DemoScript::start() {
    run_ = QStringLiteral("demo-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("HHmmss")));
    savepoint::TrainConfig c;
    c.data = "synthetic";
    c.model = "mlp";
    c.epochs = 6;
    c.steps_per_epoch = 100;
    c.batch = 32;
    c.lr = 0.002;
    c.save_every_steps = 40;
    c.keep = 20;
    c.threads = 1;
    // Armed the way a user would: the plot shows the dashed "crash armed" line ahead of the run.
    w_->training()->armCrashAt(crash_at_);
    if (!w_->training()->startRun(run_, c)) {
        Q_EMIT done(false);
        return;
    }
    stage_ = 1;
}

void DemoScript::onProgress(const savepoint::Progress& p) {
    if (stage_ == 2 && !path_.isEmpty() && p.global_step >= shoot_at_) {
        stage_ = 3;
        w_->worker()->pause();  // a still frame: the screenshot shows the run mid-way
        QTimer::singleShot(400, this, &DemoScript::shoot);
    }
}

void DemoScript::onFinished(const WorkerOutcome& o) {
    if (stage_ == 1 && o.outcome == savepoint::Outcome::Crashed) {
        // Let the table and the banner show the crash first (longer while someone watches).
        QTimer::singleShot(path_.isEmpty() ? 2000 : 600, this, &DemoScript::rollBack);
    } else if (stage_ == 2 && path_.isEmpty() && o.outcome == savepoint::Outcome::Finished) {
        Q_EMIT done(true);
    } else if (stage_ == 1 || stage_ == 2) {
        std::fprintf(stderr, "demo: unexpected end of training: %s\n", o.message.c_str());
        Q_EMIT done(false);
    }
}

void DemoScript::rollBack() {
    auto* m = w_->checkpointModel();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->rowAt(r)->global_step == rollback_to_) {
            const std::int64_t id = m->rowAt(r)->id;
            w_->runData()->selectCheckpoint(id);
            stage_ = 2;
            // The tour's own choice: no question asked (resumeFromSelectedCheckpoint would ask).
            savepoint::ResumeTarget t;
            t.checkpoint_id = id;
            if (!w_->training()->resumeRun(run_, t)) Q_EMIT done(false);
            return;
        }
    std::fprintf(stderr, "demo: no checkpoint at global step %lld\n", static_cast<long long>(rollback_to_));
    Q_EMIT done(false);
}

void DemoScript::shoot() {
    w_->runData()->refreshRuns();
    w_->runData()->refreshSelected();
    w_->plot()->flush();
    QCoreApplication::processEvents();
    const bool ok = w_->grab().save(path_);
    std::fprintf(stderr, "demo: screenshot %s %s\n", qPrintable(path_), ok ? "written" : "FAILED");
    w_->worker()->resume();
    w_->training()->stopTraining();
    Q_EMIT done(ok);
}

}  // namespace savepoint::ui
