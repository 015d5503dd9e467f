#include "models/run_list_model.h"
#include "models/number_format.h"
#include "training/run_settings.h"

#include <QColor>
#include <QFileInfo>
#include <QLocale>

#include <cmath>

namespace savepoint::ui {

RunListModel::RunListModel(QObject* parent) : QAbstractTableModel(parent) {}

QString RunListModel::modelOf(const savepoint::RunRow& run) {
    const auto settings = savepoint::try_run_settings(run);
    return settings ? QString::fromStdString(settings->model) : QString();
}

void RunListModel::setRuns(std::vector<RunSummary> runs) {
    models_.clear();
    for (const auto& r : runs) models_.push_back(modelOf(r.run));
    bool same = runs.size() == runs_.size();
    for (std::size_t i = 0; same && i < runs.size(); ++i) same = runs[i].run.id == runs_[i].run.id;
    if (!same) {
        beginResetModel();
        runs_ = std::move(runs);
        endResetModel();
    } else {
        runs_ = std::move(runs);
        if (!runs_.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
    Q_EMIT runsReplaced();
}

void RunListModel::setLive(std::int64_t run_id, savepoint::RunStatus status, std::int64_t gs, double loss, double acc) {
    const int row = rowOf(run_id);
    if (row < 0) return;
    RunSummary& s = runs_[row];
    s.run.status = status;
    s.run.global_step = gs;
    if (std::isfinite(loss)) s.loss = loss;
    if (std::isfinite(acc)) s.accuracy = acc;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

const RunSummary* RunListModel::runAt(int row) const {
    return row >= 0 && row < static_cast<int>(runs_.size()) ? &runs_[row] : nullptr;
}

int RunListModel::rowOf(std::int64_t run_id) const {
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].run.id == run_id) return static_cast<int>(i);
    return -1;
}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}
int RunListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RunListModel::statusText(savepoint::RunStatus s) {
    using savepoint::RunStatus;
    switch (s) {
        case RunStatus::Created:
            return tr("created");
        case RunStatus::Running:
            return tr("running");
        case RunStatus::Paused:
            return tr("paused");
        case RunStatus::Interrupted:
            return tr("interrupted");
        case RunStatus::Preempted:
            return tr("preempted");
        case RunStatus::Stopped:
            return tr("stopped");
        case RunStatus::Finished:
            return tr("finished");
        case RunStatus::Failed:
            return tr("failed");
    }
    return QString::fromLatin1(to_string(s));
}

QVariant RunListModel::data(const QModelIndex& idx, int role) const {
    if (!idx.isValid() || idx.row() >= rowCount()) return {};
    const RunSummary& s = runs_[idx.row()];
    const auto& r = s.run;
    const double frac = r.total_steps > 0 ? static_cast<double>(r.global_step) / r.total_steps : 0;
    if (role == RunIdRole) return QVariant::fromValue<qlonglong>(r.id);
    if (role == Qt::DisplayRole) {
        switch (idx.column()) {
            case Name:
                return QString::fromStdString(r.name);
            case Status:
                // A data-parallel job's size where the list is always in view (Device is far right).
                return s.world_size > 1 ? tr("%1 · %n worker(s)", nullptr, s.world_size).arg(statusText(r.status))
                                        : statusText(r.status);
            case Progress:
                return tr("%1 % (%2/%3)")
                    .arg(QLocale().toString(frac * 100, 'f', 0), QLocale().toString(qlonglong(r.global_step)),
                         QLocale().toString(qlonglong(r.total_steps)));
            case Loss:
                return localeNumber(s.loss, 4);
            case Accuracy:
                return localeNumber(s.accuracy, 3);
            case ValAccuracy:
                return localeNumber(s.val_accuracy, 3);
            case Branches:
                return s.branches;
            case Device:
                return QString::fromStdString(r.device);
            case Model:
                return QFileInfo(models_[idx.row()]).fileName();
        }
    }
    if (role == SortRole) {
        switch (idx.column()) {
            case Progress:
                return frac;
            case Loss:
                return std::isfinite(s.loss) ? s.loss : 1e300;
            case Accuracy:
                return std::isfinite(s.accuracy) ? s.accuracy : -1.0;
            case ValAccuracy:
                return std::isfinite(s.val_accuracy) ? s.val_accuracy : -1.0;
            case Branches:
                return s.branches;
            default:
                return data(idx, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && idx.column() == Model) return models_[idx.row()];
    if (role == Qt::ToolTipRole && idx.column() == Status && s.world_size > 1) {
        QString tip = tr("A data-parallel job of %n worker(s) under torchrun", nullptr, s.world_size) +
                      QLatin1Char('\n') +
                      tr("torchrun restarted it %n time(s) after a lost worker", nullptr, s.restarts);
        // What the other workers reported at the end of the newest session (rank 0 keeps the registry).
        for (const auto& w : s.workers) {
            if (!w.reported) continue;
            tip += QLatin1Char('\n') + tr("worker %1 on %2: %3 steps, %4 s computing, %5 s of it in the all-reduce")
                                           .arg(w.rank)
                                           .arg(QString::fromStdString(w.host))
                                           .arg(QLocale().toString(qlonglong(w.steps)))
                                           .arg(QLocale().toString(w.train_seconds, 'f', 1))
                                           .arg(QLocale().toString(w.allreduce_seconds, 'f', 1));
        }
        return tip;
    }
    if (role == Qt::ToolTipRole && idx.column() == Branches)
        return tr("%n branch(es): each rollback starts a new one; the old ones are kept", nullptr, s.branches);
    if (role == Qt::ForegroundRole && idx.column() == Status) {
        using savepoint::RunStatus;
        if (r.status == RunStatus::Running) return QColor(0x1b, 0x7f, 0x3b);
        if (r.status == RunStatus::Interrupted || r.status == RunStatus::Failed) return QColor(0xb0, 0x20, 0x20);
        if (r.status == RunStatus::Preempted) return QColor(0xc0, 0x6a, 0x00);
    }
    if (role == Qt::TextAlignmentRole && idx.column() >= Progress && idx.column() <= ValAccuracy)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return tr("Run");
        case Status:
            return tr("Status");
        case Progress:
            return tr("Progress");
        case Loss:
            return tr("Loss");
        case Accuracy:
            return tr("Accuracy");
        case ValAccuracy:
            return tr("Val. acc.");
        case Branches:
            return tr("Branches");
        case Device:
            return tr("Device");
        case Model:
            return tr("Model");
    }
    return {};
}

}  // namespace savepoint::ui
