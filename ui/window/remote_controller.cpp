#include "window/remote_controller.h"

#include "platform/errors.h"
#include "registry/checkpoint_remotes.h"
#include "remote/remote_check.h"
#include "remote/remote_pull.h"
#include "remote/remote_sync.h"
#include "window/remedy_words.h"
#include "window/setting_words.h"

namespace savepoint::ui {

namespace {

// A refused remote in the window's words (the field's label), anything else as the engine said it.
QString refusalText(const std::exception& e) {
    if (const auto* in = dynamic_cast<const savepoint::InputError*>(&e))
        return withRemedy(in->field().empty()
                              ? QString::fromUtf8(e.what())
                              : settingRefusalText(in->field(), in->expected(), in->found(), in->rule()),
                          in->remedy());
    return QString::fromUtf8(e.what());
}

}  // namespace

RemoteController::RemoteController(QString home, QObject* parent) : QObject(parent), home_(std::move(home)) {
    // A mutex and a timer rather than a queued call: ThreadSanitizer cannot see Qt's event queue.
    drain_.setInterval(250);
    connect(&drain_, &QTimer::timeout, this, &RemoteController::drainSyncLines);
    drain_.start();
}

RemoteController::~RemoteController() = default;

void RemoteController::drainSyncLines() {
    QStringList lines;
    {
        std::lock_guard<std::mutex> lock(lines_mutex_);
        lines.swap(lines_);
    }
    for (const QString& l : lines) Q_EMIT message(l);
}

void RemoteController::syncThen(const QString& run, const QString& uri, std::function<void()> then, bool required) {
    Q_EMIT message(tr("Checking the remote storage %1…").arg(uri));
    const std::string home = home_.toStdString(), name = run.toStdString(), text = uri.toStdString();
    jobs_.start([this, home, name, text, uri, run, then, required]() -> BackgroundJobs::Deliver {
        try {
            const savepoint::S3Uri u = savepoint::parse_s3_uri(text);
            const savepoint::S3Settings settings = savepoint::s3_settings_from_environment();
            savepoint::check_remote(u, settings);
            auto sync = std::make_shared<std::unique_ptr<savepoint::RemoteSync>>(
                std::make_unique<savepoint::RemoteSync>(home, name, u, settings));
            return [this, sync, run, uri, then] {
                sync_.reset();  // the run synced before: what it left stays pending in the registry
                sync_ = std::move(*sync);
                run_ = run;
                // Its thread says what it did; the window hears it on the GUI thread (drainSyncLines).
                sync_->on_message = [this](const std::string& line) {
                    std::lock_guard<std::mutex> lock(lines_mutex_);
                    lines_.push_back(QString::fromStdString(line));
                };
                sync_->start();
                Q_EMIT message(tr("Checkpoints of “%1” are uploaded to %2 as they are committed.").arg(run, uri));
                then();
            };
        } catch (const std::exception& e) {
            const QString why = refusalText(e);
            return [this, why, run, then, required] {
                if (required) {
                    Q_EMIT errorMessage(tr("Remote storage refused: %1").arg(why));
                    return;
                }
                run_ = run;
                Q_EMIT message(tr("Remote storage refused: %1. Training goes on; its checkpoints are uploaded by a "
                                  "later resume that reaches the store.")
                                   .arg(why));
                then();
            };
        }
    });
}

QString RemoteController::previousRemote(savepoint::Registry& reg, std::int64_t run_id) {
    const std::vector<savepoint::CheckpointRemote> rows = savepoint::checkpoint_remotes(reg, run_id);
    return rows.empty() ? QString() : QString::fromStdString(rows.back().remote);
}

void RemoteController::pull(const QString& uri, const QString& run) {
    Q_EMIT message(tr("Pulling from %1…").arg(uri));
    const std::string home = home_.toStdString(), text = uri.toStdString(), name = run.toStdString();
    jobs_.start([this, home, text, name, uri]() -> BackgroundJobs::Deliver {
        try {
            savepoint::PullRequest req;
            req.home = home;
            req.uri = savepoint::parse_s3_uri(text);
            req.settings = savepoint::s3_settings_from_environment();
            req.run = name;
            QStringList lines, names;
            for (const savepoint::PulledRun& p : savepoint::pull_runs(req)) {
                names << QString::fromStdString(p.name);
                lines << tr("Pulled run “%1” from %2 (checkpoints verified: %3, refused: %4); Resume continues "
                            "from checkpoint #%5.")
                             .arg(QString::fromStdString(p.name), uri)
                             .arg(p.verified)
                             .arg(p.refused)
                             .arg(p.head);
                for (const auto& n : p.notes) lines << QString::fromStdString(n);
            }
            return [this, lines, names] {
                for (const QString& l : lines) Q_EMIT message(l);
                Q_EMIT pulled(names);
            };
        } catch (const std::exception& e) {
            const QString why = refusalText(e);
            return [this, why] { Q_EMIT errorMessage(tr("Nothing was pulled: %1").arg(why)); };
        }
    });
}

}  // namespace savepoint::ui
