// RunDataView: the checkpoint actions that change or show a file (pin,
// delete with a question that names what is at stake, show the folder).
#include "window/run_data_view.h"

#include "data/data_order.h"
#include "models/checkpoint_table_model.h"
#include "registry/checkpoint_actions.h"
#include "registry/registry.h"
#include "window/live_run_state.h"

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLocale>

namespace savepoint::ui {

void RunDataView::togglePinSelected() {
    const auto c = selectedCheckpoint();
    if (!c) return;
    try {
        // The engine keeps the rules (only a committed checkpoint can be pinned), the same as the CLI's.
        const auto run = reg_->run_by_id(c->run_id);
        if (!run) return;
        savepoint::set_checkpoint_pinned(*reg_, *run, c->id, !c->pinned);
        log(c->pinned ? tr("Checkpoint #%1 unpinned").arg(c->id) : tr("Checkpoint #%1 pinned").arg(c->id));
    } catch (const savepoint::CheckpointRefused& e) {
        showError(tr("Cannot change the pin: %1").arg(checkpointRefusalText(e)));
    } catch (const std::exception& e) {
        showError(tr("Cannot change the pin: %1").arg(QString::fromUtf8(e.what())));
    }
    reloadCheckpoints(c->id);
}

void RunDataView::deleteSelectedCheckpoint() {
    if (const auto c = selectedCheckpoint()) deleteCheckpoint(c->id);
}

bool RunDataView::deleteCheckpoint(qint64 id) {
    auto found = reg_->checkpoint(id);
    auto run = found ? reg_->run_by_id(found->run_id) : std::nullopt;
    if (!found || !run) return false;
    savepoint::CheckpointRow c;
    try {
        c = savepoint::checkpoint_to_delete(*reg_, *run, id);  // the engine's rules, before asking
    } catch (const savepoint::CheckpointRefused& e) {
        showError(checkpointRefusalText(e));
        return false;
    }
    if (live_.trains(c.run_id)) {
        showError(tr("Stop the training of this run before deleting its checkpoints."));
        return false;
    }
    if (c.state == CheckpointState::Deleted) return true;
    if (!confirm_(tr("Delete checkpoint?"), deleteQuestion(c))) return false;
    try {
        savepoint::delete_checkpoint(*reg_, *run, id);
        log(tr("Checkpoint #%1 deleted").arg(id));
    } catch (const savepoint::CheckpointRefused& e) {
        showError(checkpointRefusalText(e));  // the head moved while the user was asked
        reloadCheckpoints(id);
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot delete checkpoint #%1: %2").arg(id).arg(QString::fromUtf8(e.what())));
        reloadCheckpoints(id);
        return false;
    }
    reloadCheckpoints(id);
    return true;
}

// What deleting `c` gives up, named: a pinned checkpoint, one a branch starts from.
QString RunDataView::deleteQuestion(const savepoint::CheckpointRow& c) const {
    const savepoint::Position p = savepoint::position_of(c.global_step, viewedStepsPerEpoch());
    const QLocale l;
    QString text = tr("Delete checkpoint #%1 (epoch %2, step %3)? The file is removed; the row stays in the history as "
                      "deleted.")
                       .arg(c.id)
                       .arg(l.toString(qlonglong(p.epoch)), l.toString(qlonglong(p.step)));
    if (c.pinned) text += QLatin1Char(' ') + tr("It is pinned: you chose to keep it, and retention never deletes it.");
    bool forked = false;
    for (const auto& b : reg_->branches(c.run_id)) forked = forked || b.fork_checkpoint_id == c.id;
    if (forked)
        text += QLatin1Char(' ') + tr("A branch starts from it: that branch could no longer be rolled back to this "
                                      "point.");
    return text;
}

QString RunDataView::checkpointRefusalText(const savepoint::CheckpointRefused& e) {
    using Why = savepoint::CheckpointRefused::Why;
    switch (e.why()) {
        case Why::NotInRun:
            return tr("Checkpoint #%1 is not one of this run's.").arg(e.checkpoint_id());
        case Why::NotCommitted:
            return tr("Checkpoint #%1 is %2; only a committed checkpoint can be pinned.")
                .arg(e.checkpoint_id())
                .arg(e.state() ? CheckpointTableModel::stateText(*e.state()) : QString::fromStdString(e.found()));
        case Why::IsHead:
            return tr("Checkpoint #%1 is the head (where training resumes); it cannot be deleted.")
                .arg(e.checkpoint_id());
    }
    return QString::fromStdString(e.says());
}

void RunDataView::revealSelectedCheckpoint() {
    const auto c = selectedCheckpoint();
    if (!c) return;
    const QFileInfo fi(QString::fromStdString(reg_->absolute(c->path)));
    if (open_folder_(fi.absolutePath())) return;
    // No file manager here (a bare desktop, a remote session): the path is what the user needs.
    if (QClipboard* clip = QGuiApplication::clipboard()) clip->setText(fi.absoluteFilePath());
    showError(tr("No file manager could be opened. The checkpoint file is %1 (its path is copied to the clipboard).")
                  .arg(fi.absoluteFilePath()));
}

}  // namespace savepoint::ui
