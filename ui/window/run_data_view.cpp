#include "window/run_data_view.h"

#include "bridge/background_jobs.h"
#include "checkpoint/checkpoint_check.h"
#include "formats/checkpoint_format.h"
#include "models/checkpoint_table_model.h"
#include "models/run_list_model.h"
#include "plot/metrics_plot.h"
#include "registry/checkpoint_actions.h"
#include "registry/checkpoint_list.h"
#include "registry/registry.h"
#include "storage/durable_io.h"
#include "training/run_settings.h"
#include "window/banner.h"
#include "window/fault_tolerance_panel.h"
#include "window/live_run_state.h"
#include "window/status_bar.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QFileInfo>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QUrl>

namespace savepoint::ui {

RunDataView::RunDataView(savepoint::Registry* reg, QString home, const Widgets& w, LiveRunState& live, QObject* parent)
    : QObject(parent),
      reg_(reg),
      home_(std::move(home)),
      live_(live),
      plot_(w.plot),
      runs_(w.runs),
      run_proxy_(w.run_proxy),
      run_view_(w.run_view),
      ckpts_(w.ckpts),
      ckpt_proxy_(w.ckpt_proxy),
      ckpt_view_(w.ckpt_view),
      show_deleted_(w.show_deleted),
      ft_panel_(w.ft_panel),
      status_(w.status),
      banner_(w.banner),
      log_(w.log),
      resume_epoch_(w.resume_epoch),
      resume_step_(w.resume_step),
      ckpt_list_(std::make_unique<savepoint::CheckpointList>()) {
    open_folder_ = [](const QString& path) { return QDesktopServices::openUrl(QUrl::fromLocalFile(path)); };
    jobs_ = new BackgroundJobs(this);
    connect(run_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (!cur.isValid()) return;
        const qint64 id = run_proxy_->data(cur, RunListModel::RunIdRole).toLongLong();
        if (id != viewedRunId()) selectRun(id);
    });
    connect(show_deleted_, &QCheckBox::toggled, this, [this](bool on) {
        ckpts_->setShowDeleted(on);
        showCheckpoints();  // the table holds only the open rows while this is off
    });
    connect(plot_, &MetricsPlot::checkpointClicked, this, &RunDataView::selectCheckpoint);
    connect(&live_, &LiveRunState::trainedRunChanged, this, &RunDataView::followTrainedRun);
    connect(&live_, &LiveRunState::liveMetrics, this, &RunDataView::appendLiveMetrics);
    connect(&live_, &LiveRunState::liveEvent, this, &RunDataView::addLiveEvent);
    connect(&live_, &LiveRunState::checkpointsChanged, this, &RunDataView::markCheckpointsDirty);
    connect(&live_, &LiveRunState::trainingFinished, this, &RunDataView::catchUpAfterTraining);
    connect(&live_, &LiveRunState::runToShow, this, [this](qint64 run_id) {
        selectRun(run_id);
        ckpt_view_->setFocus();
    });
}

RunDataView::~RunDataView() { shutdown(); }

std::int64_t RunDataView::viewedRunId() const { return live_.viewedRunId(); }

std::int64_t RunDataView::viewedStepsPerEpoch() const { return live_.viewedStepsPerEpoch(); }

void RunDataView::shutdown() {
    delete jobs_;  // waits for a history read or a verification still running; drops their results
    jobs_ = nullptr;
}

void RunDataView::refreshRuns() {
    if (!reg_) return;
    try {
        runs_->setRuns(reg_->run_summaries());  // the trained run's live figures are laid over it (LiveRunState)
    } catch (const std::exception& e) {
        showError(tr("Cannot read the run list: %1").arg(QString::fromUtf8(e.what())));
    }
    // Keep the view's selection on the run shown.
    const int row = runs_->rowOf(viewedRunId());
    if (row >= 0) {
        const QModelIndex idx = run_proxy_->mapFromSource(runs_->index(row, 0));
        if (run_view_->currentIndex().row() != idx.row())
            run_view_->selectionModel()->setCurrentIndex(
                idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    updateActions();  // a run another process finished has nothing left to resume
}

void RunDataView::selectRun(qint64 run_id) {
    if (!reg_) return;
    auto run = reg_->run_by_id(run_id);
    if (!run) return;
    live_.setViewedRun(run_id, std::max<std::int64_t>(1, run->steps_per_epoch));
    resume_step_->setMaximum(int(std::min<std::int64_t>(viewedStepsPerEpoch(), 1000000000)));
    if (const auto settings = savepoint::try_run_settings(*run)) resume_epoch_->setMaximum(int(settings->epochs));
    refreshRuns();
    showEventHistory(run_id);
    loadRunData(run_id);
    updateActions();
}

void RunDataView::loadRunData(std::int64_t run_id) {
    auto run = reg_->run_by_id(run_id);
    if (!run) return;
    plot_->clear();
    plot_->setRunInfo(run->steps_per_epoch, run->created_at);
    plot_->setBranches(reg_->branches(run_id));
    const auto events = reg_->events(run_id);
    plot_->setEvents(events);
    last_event_id_ = events.empty() ? 0 : events.back().id;
    catch_up_ = true;  // rows written after the metrics read below are picked up by the next poll
    // Until the thread below brings them, the table shows no run's checkpoints.
    ckpt_list_->load(0, {});
    checkpoints_shown_ = false;
    showCheckpoints();
    // Metrics can be millions of rows, and the checkpoint history tens of
    // thousands (docs/PERFORMANCE.md, checkpoint list): read them off this thread, on a connection of their own.
    loading_ = true;
    pending_live_.clear();
    const int gen = ++load_generation_;
    latest_load_->store(gen);
    jobs_->start([this, gen, latest = latest_load_, home = home_.toStdString(), run_id]() -> BackgroundJobs::Deliver {
        if (latest->load() != gen) return {};  // the user has already moved on to another run
        std::vector<savepoint::MetricRow> rows;
        std::vector<savepoint::CheckpointRow> checkpoints;
        std::int64_t last = 0;
        std::string error;
        try {
            savepoint::Registry reg(home);
            checkpoints = reg.checkpoints(run_id);
            rows = reg.metrics(run_id, 0, &last);
        } catch (const std::exception& e) {
            error = e.what();
        }
        return [this, gen, rows = std::move(rows), last, checkpoints = std::move(checkpoints), error]() mutable {
            if (gen != load_generation_) return;  // a newer selection won
            if (!error.empty())
                showError(tr("Cannot read the history of this run: %1").arg(QString::fromStdString(error)));
            applyLoadedMetrics(std::move(rows), last, std::move(checkpoints));
        };
    });
}

void RunDataView::applyLoadedMetrics(std::vector<savepoint::MetricRow> rows, std::int64_t last_rowid,
                                     std::vector<savepoint::CheckpointRow> checkpoints) {
    loading_ = false;
    ckpt_list_->load(viewedRunId(), std::move(checkpoints));
    reloadCheckpoints();  // and what changed since they were read
    last_metric_rowid_ = last_rowid;
    ensureBranches(rows);
    plot_->appendMetrics(rows);
    if (!pending_live_.empty()) {
        ensureBranches(pending_live_);
        plot_->appendMetrics(pending_live_);  // overlaps with what was read are dropped by the store
        pending_live_.clear();
    }
    // Events that arrived while loading were not drawn live: take them all from
    // the registry, and poll on from the newest, so none is added twice.
    const auto events = reg_->events(viewedRunId());
    plot_->setEvents(events);
    for (const auto& e : events)
        if (e.id > last_event_id_) logEvent(e);  // and in the Events pane (those listed already stay once)
    if (!events.empty()) last_event_id_ = std::max(last_event_id_, events.back().id);
    updateFaultPanel();
    Q_EMIT runLoaded(viewedRunId());
}

void RunDataView::ensureBranches(const std::vector<savepoint::MetricRow>& rows) {
    for (const auto& r : rows)
        if (!plot_->store().knowsBranch(r.branch_id)) {
            plot_->setBranches(reg_->branches(viewedRunId()));
            return;
        }
}

void RunDataView::refreshSelected() {
    if (!reg_ || viewedRunId() == 0 || loading_) return;
    const bool ours = live_.trains(viewedRunId());
    const RunSummary* s = runs_->runAt(runs_->rowOf(viewedRunId()));
    try {
        const bool other = !ours && s && s->run.status == savepoint::RunStatus::Running;
        if (other || catch_up_) {
            // Trained by another process (the CLI): follow the registry. One more poll
            // after it stops running (or after a load), so the last points of a run
            // that ended between two polls are drawn too.
            std::int64_t last = last_metric_rowid_;
            auto rows = reg_->metrics(viewedRunId(), last_metric_rowid_, &last);
            if (last > last_metric_rowid_) last_metric_rowid_ = last;
            ensureBranches(rows);
            plot_->appendMetrics(rows);
            checkpoints_dirty_ = true;
        }
        // Every run's events from the registry, this window's own too: an event
        // written after the history was read and before its live copy could be
        // listed would be missing otherwise. A live and a polled copy show once.
        for (const auto& e : reg_->events(viewedRunId(), last_event_id_)) {
            plot_->addEvent(e);
            logEvent(e);
            last_event_id_ = e.id;
        }
        catch_up_ = other;
        // Nothing trains in this window: the status bar follows the viewed run.
        if (!live_.isRunning())
            if (const auto run = reg_->run_by_id(viewedRunId())) status_->followRun(*run);
        if (checkpoints_dirty_ || !ours) reloadCheckpoints();
        refreshRemotes();
        updateFaultPanel();
    } catch (const std::exception& e) {
        showError(tr("Cannot read the registry: %1").arg(QString::fromUtf8(e.what())));
    }
}

// A run synced to remote storage: its uploads end without its checkpoints changing.
void RunDataView::refreshRemotes() {
    if (loading_) return;
    const std::vector<savepoint::CheckpointRemote> remotes = savepoint::checkpoint_remotes(*reg_, viewedRunId());
    ckpts_->setRemotes(remotes);
    ckpt_view_->setColumnHidden(CheckpointTableModel::Remote, remotes.empty());
    status_->setRemoteBacklog(
        remotes.empty() ? QString() : QString::fromStdString(remotes.back().remote),
        remotes.empty() ? savepoint::RemoteBacklog{} : savepoint::remote_backlog(*reg_, viewedRunId()));
}

void RunDataView::reloadCheckpoints(std::optional<std::int64_t> acted_on) {
    // While a run loads, its rows are on their way (loadRunData's thread).
    if (loading_ || ckpt_list_->run_id() != viewedRunId()) return;
    checkpoints_dirty_ = false;
    auto run = reg_->run_by_id(viewedRunId());
    if (!run) return;
    bool changed = ckpt_list_->refresh(*reg_);
    if (acted_on) changed = ckpt_list_->reread(*reg_, *acted_on) || changed;
    // A rollback moves the head to an older row without changing any row.
    if (!changed && checkpoints_shown_ && shown_head_ == run->head_checkpoint_id) return;
    shown_head_ = run->head_checkpoint_id;
    checkpoints_shown_ = true;
    showCheckpoints();
}

void RunDataView::showCheckpoints() {
    const auto open = ckpt_list_->open_rows();
    const auto sel = selectedCheckpoint();
    ckpts_->setCheckpoints(show_deleted_->isChecked() ? ckpt_list_->rows() : open, shown_head_);
    plot_->setCheckpoints(open);  // it draws no retired row
    if (sel) selectCheckpoint(sel->id);
    double newest = 0;
    for (const auto& c : open)
        if (c.state == CheckpointState::Committed) newest = std::max(newest, c.created_at);
    if (!live_.trains(viewedRunId())) status_->setLastCheckpointAt(newest);
}

void RunDataView::updateFaultPanel() {
    auto run = reg_->run_by_id(viewedRunId());
    if (!run) return;
    auto sessions = reg_->sessions(viewedRunId());
    std::int64_t useful = run->global_step;
    const bool ours = live_.trains(viewedRunId());
    const savepoint::Progress& live = live_.lastProgress();
    if (ours && !sessions.empty() && !(sessions.back().ended_at > 0)) {
        // The live session's counters reach the registry when it ends; use the live ones.
        auto& s = sessions.back();
        s.end_global_step = live.global_step;
        s.steps_computed = std::max<std::int64_t>(0, live.global_step - s.target_global_step);
        s.train_seconds = live.elapsed_seconds;
        useful = live.global_step;
    }
    FtInputs in = FaultTolerancePanel::inputsFrom(sessions, ckpt_list_->rows(), useful, savepoint::now_seconds());
    if (run->head_checkpoint_id)
        for (const auto& c : ckpt_list_->rows())
            if (c.id == *run->head_checkpoint_id) in.resume_point_global_step = c.global_step;
    if (!run->head_checkpoint_id) in.resume_point_global_step = 0;  // a resume starts from the beginning
    const auto counts = reg_->event_counts(viewedRunId());
    auto count = [&](savepoint::EventKind kind) {
        const auto it = counts.find(kind);
        return it == counts.end() ? std::int64_t(0) : it->second;
    };
    in.saves_skipped = count(savepoint::EventKind::SaveSkipped);
    in.saves_deferred = count(savepoint::EventKind::SaveDeferred);
    ft_panel_->setInputs(in);
}

// --- checkpoints ----------------------------------------------------------------

std::optional<savepoint::CheckpointRow> RunDataView::selectedCheckpoint() const {
    return ckpts_->currentIn(*ckpt_view_);
}

void RunDataView::selectCheckpoint(qint64 id) {
    const int row = ckpts_->rowOf(id);
    if (row < 0) return;
    const QModelIndex idx = ckpt_proxy_->mapFromSource(ckpts_->index(row, 0));
    ckpt_view_->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    ckpt_view_->scrollTo(idx);
}

void RunDataView::verifySelectedCheckpoint() {
    if (const auto c = selectedCheckpoint()) verifyCheckpoint(c->id);
}

void RunDataView::verifyCheckpoint(qint64 id) {
    auto c = reg_->checkpoint(id);
    auto run = c ? reg_->run_by_id(c->run_id) : std::nullopt;
    if (!c || !run) return;
    log(tr("Verifying checkpoint #%1…").arg(id));
    // Hashing a big file takes a while: off the GUI thread. The judgement is the
    // CLI's verify's (checkpoint/checkpoint_check.h).
    jobs_->start([this, row = *c, home = reg_->home(), run_name = run->name]() -> BackgroundJobs::Deliver {
        const qint64 id = row.id;
        try {
            const savepoint::CheckpointCheck check = savepoint::check_checkpoint(home, run_name, row);
            return [this, row, check] { showVerification(row, check); };
        } catch (const std::exception& e) {
            // No verdict on the file (out of memory, say): nothing is marked damaged.
            return [this, id, what = std::string(e.what())] {
                showError(tr("Cannot verify checkpoint #%1: %2").arg(id).arg(QString::fromStdString(what)));
                Q_EMIT verificationFinished(id, false);
            };
        }
    });
}

void RunDataView::showVerification(const savepoint::CheckpointRow& row, const savepoint::CheckpointCheck& check) {
    const qint64 id = row.id;
    const QString detail = check.ok ? tr("checksum %1 matches the footer and the registry (%2 bytes)")
                                          .arg(QString::fromStdString(check.file.sha256))
                                          .arg(QLocale().toString(qlonglong(check.file.bytes)))
                                    : QString::fromStdString(check.why);
    ckpts_->setVerified(id, check.ok, detail);
    log(check.ok ? tr("Checkpoint #%1 verified: %2").arg(id).arg(detail)
                 : tr("Checkpoint #%1 is damaged: %2").arg(id).arg(detail));
    if (!check.ok) {
        try {
            savepoint::record_check(*reg_, row, check);
        } catch (const std::exception&) {
        }
        banner_->showMessage(
            Banner::Kind::Error,
            tr("Checkpoint #%1 is damaged and will not be resumed from: %2").arg(id).arg(detail.toHtmlEscaped()));
        reloadCheckpoints(id);
    }
    Q_EMIT verificationFinished(id, check.ok);
}

// --- live, from the run trained in this window -----------------------------------

void RunDataView::followTrainedRun(qint64 run_id) {
    refreshRuns();
    if (viewedRunId() != run_id) selectRun(run_id);
}

void RunDataView::appendLiveMetrics(qint64 run_id, const MetricBatch& rows) {
    if (run_id != viewedRunId()) return;
    if (loading_) {
        pending_live_.insert(pending_live_.end(), rows.begin(), rows.end());
        return;
    }
    ensureBranches(rows);
    plot_->appendMetrics(rows);
}

void RunDataView::addLiveEvent(const savepoint::EventRow& e) {
    logEvent(e);
    if (e.run_id == viewedRunId() && !loading_) {
        plot_->addEvent(e);
        if (e.id > last_event_id_) last_event_id_ = e.id;
    }
}

void RunDataView::catchUpAfterTraining() {
    checkpoints_dirty_ = true;
    refreshRuns();
    refreshSelected();
}

}  // namespace savepoint::ui
