#include "window/demo_script.h"

#include "bridge/trainer_worker.h"
#include "models/checkpoint_table_model.h"
#include "plot/metrics_plot.h"
#include "window/main_window.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>

#include <cstdio>

namespace savepoint::ui {

DemoScript::DemoScript(MainWindow* window, QString screenshot_path, QObject* parent)
    : QObject(parent), w_(window), path_(std::move(screenshot_path)) {
    connect(w_->worker(), &TrainerWorker::progress, this, &DemoScript::onProgress);
    connect(w_->worker(), &TrainerWorker::finished, this, &DemoScript::onFinished);
    w_->setConfirmHandler([](const QString&, const QString&) { return true; });
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
    w_->startRun(run_, c);
    w_->worker()->crashAt(crash_at_);
    stage_ = 1;
}

void DemoScript::onProgress(const savepoint::Progress& p) {
    if (stage_ == 2 && p.global_step >= shoot_at_) {
        stage_ = 3;
        w_->worker()->pause();  // a still frame: the screenshot shows the run mid-way
        QTimer::singleShot(400, this, &DemoScript::shoot);
    }
}

void DemoScript::onFinished(const WorkerOutcome& o) {
    if (stage_ == 1 && o.outcome == savepoint::Outcome::Crashed) {
        QTimer::singleShot(600, this, &DemoScript::rollBack);  // let the table show the crash state first
    } else if (stage_ == 1 || stage_ == 2) {
        std::fprintf(stderr, "demo: unexpected end of training: %s\n", o.message.c_str());
        Q_EMIT done(false);
    }
}

void DemoScript::rollBack() {
    auto* m = w_->checkpointModel();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->rowAt(r)->global_step == rollback_to_) {
            w_->selectCheckpoint(m->rowAt(r)->id);
            stage_ = 2;
            w_->resumeFromSelectedCheckpoint();
            return;
        }
    std::fprintf(stderr, "demo: no checkpoint at global step %lld\n", static_cast<long long>(rollback_to_));
    Q_EMIT done(false);
}

void DemoScript::shoot() {
    w_->refreshRuns();
    w_->refreshSelected();
    w_->plot()->flush();
    QCoreApplication::processEvents();
    const bool ok = w_->grab().save(path_);
    std::fprintf(stderr, "demo: screenshot %s %s\n", qPrintable(path_), ok ? "written" : "FAILED");
    w_->worker()->resume();
    w_->stopTraining();
    Q_EMIT done(ok);
}

}  // namespace savepoint::ui
