#include "models/checkpoint_table_model.h"
#include "models/number_format.h"

#include <QAbstractItemView>
#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>
#include <QSortFilterProxyModel>

#include <cmath>

namespace savepoint::ui {

CheckpointTableModel::CheckpointTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CheckpointTableModel::setCheckpoints(std::vector<savepoint::CheckpointRow> rows,
                                          std::optional<std::int64_t> head) {
    all_ = std::move(rows);
    head_ = head;
    rebuild();
}

void CheckpointTableModel::setShowDeleted(bool on) {
    show_deleted_ = on;
    rebuild();
}

void CheckpointTableModel::rebuild() {
    std::vector<savepoint::CheckpointRow> next;
    for (const auto& c : all_)
        // 'deleting' too: retention keeps the newest retired file for the next save to
        // write over, so one such row stays for the length of a run; it is gone for the user.
        if (show_deleted_ || (c.state != CheckpointState::Deleted && c.state != CheckpointState::Deleting &&
                              c.state != CheckpointState::Failed))
            next.push_back(c);
    bool same = next.size() == rows_.size();
    for (std::size_t i = 0; same && i < next.size(); ++i) same = next[i].id == rows_[i].id;
    if (!same) {
        beginResetModel();
        rows_ = std::move(next);
        endResetModel();
    } else {
        rows_ = std::move(next);
        if (!rows_.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

void CheckpointTableModel::setVerified(std::int64_t id, bool ok, const QString& detail) {
    verified_[id] = {ok, detail};
    const int r = rowOf(id);
    if (r >= 0) Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
}

void CheckpointTableModel::setRemotes(const std::vector<savepoint::CheckpointRemote>& remotes) {
    QHash<qint64, savepoint::CheckpointRemote> next;
    for (const auto& r : remotes) next.insert(r.checkpoint_id, r);
    bool same = next.size() == remotes_.size();
    for (auto it = next.cbegin(); same && it != next.cend(); ++it) {
        const auto old = remotes_.constFind(it.key());
        same = old != remotes_.cend() && old->state == it->state && old->detail == it->detail;
    }
    if (same) return;
    remotes_ = std::move(next);
    if (!rows_.empty()) Q_EMIT dataChanged(index(0, Remote), index(rowCount() - 1, Remote));
}

QString CheckpointTableModel::remoteStateText(savepoint::RemoteState s) {
    switch (s) {
        case savepoint::RemoteState::Pending:
            return tr("uploading");
        case savepoint::RemoteState::Uploaded:
            return tr("in S3");
        case savepoint::RemoteState::Failed:
            return tr("upload failed");
        case savepoint::RemoteState::Deleted:
            return tr("deleted");
    }
    return {};
}

std::optional<savepoint::CheckpointRow> CheckpointTableModel::currentIn(const QAbstractItemView& view) const {
    const QModelIndex cur = view.currentIndex();
    if (!cur.isValid()) return std::nullopt;
    const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(view.model());
    const savepoint::CheckpointRow* c = rowAt(proxy ? proxy->mapToSource(cur).row() : cur.row());
    return c ? std::optional<savepoint::CheckpointRow>(*c) : std::nullopt;
}

const savepoint::CheckpointRow* CheckpointTableModel::rowAt(int row) const {
    return row >= 0 && row < static_cast<int>(rows_.size()) ? &rows_[row] : nullptr;
}

int CheckpointTableModel::rowOf(std::int64_t id) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id) return static_cast<int>(i);
    return -1;
}

bool CheckpointTableModel::isUsable(std::int64_t id) const {
    const int r = rowOf(id);
    if (r < 0 || !rows_[r].usable()) return false;
    auto v = verified_.find(id);
    return v == verified_.end() || v->ok;
}

int CheckpointTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}
int CheckpointTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString CheckpointTableModel::stateText(savepoint::CheckpointState s) {
    using savepoint::CheckpointState;
    switch (s) {
        case CheckpointState::Committed:
            return tr("saved");
        case CheckpointState::Writing:
            return tr("writing");
        case CheckpointState::Deleting:
            return tr("deleting");
        case CheckpointState::Deleted:
            return tr("deleted");
        case CheckpointState::Corrupt:
            return tr("damaged (corrupt)");
        case CheckpointState::Missing:
            return tr("damaged (file missing)");
        case CheckpointState::Failed:
            return tr("failed");
    }
    return QString::fromLatin1(to_string(s));
}

static QString timeText(double t) {
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(qint64(t * 1000));
    if (dt.date() == QDate::currentDate()) return dt.time().toString(QStringLiteral("HH:mm:ss"));
    return QLocale().toString(dt, QLocale::ShortFormat);
}

static QVariant sortable(double v) { return std::isfinite(v) ? v : -1e300; }

QVariant CheckpointTableModel::data(const QModelIndex& idx, int role) const {
    if (!idx.isValid() || idx.row() >= rowCount()) return {};
    const auto& c = rows_[idx.row()];
    const bool head = isHead(c.id);
    auto v = verified_.find(c.id);
    const bool damaged = !c.usable() && c.state != CheckpointState::Deleted && c.state != CheckpointState::Deleting &&
                         c.state != CheckpointState::Writing;
    const bool bad = damaged || (v != verified_.end() && !v->ok);
    if (role == IdRole) return QVariant::fromValue<qlonglong>(c.id);
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (idx.column()) {
            case Id:
                return sort ? QVariant::fromValue<qlonglong>(c.id) : QVariant(QStringLiteral("#%1").arg(c.id));
            case Epoch:
                return sort ? QVariant::fromValue<qlonglong>(c.epoch)
                            : QVariant(QLocale().toString(qlonglong(c.epoch)));
            case Step:
                return sort ? QVariant::fromValue<qlonglong>(c.step) : QVariant(QLocale().toString(qlonglong(c.step)));
            case GlobalStep:
                return sort ? QVariant::fromValue<qlonglong>(c.global_step)
                            : QVariant(QLocale().toString(qlonglong(c.global_step)));
            case Time:
                return sort ? QVariant(c.created_at) : QVariant(timeText(c.created_at));
            case TrainLoss:
                return sort ? sortable(c.train_loss) : QVariant(localeNumber(c.train_loss, 4));
            case TrainAcc:
                return sort ? sortable(c.train_accuracy) : QVariant(localeNumber(c.train_accuracy, 3));
            case ValLoss:
                return sort ? sortable(c.val_loss) : QVariant(localeNumber(c.val_loss, 4));
            case ValAcc:
                return sort ? sortable(c.val_accuracy) : QVariant(localeNumber(c.val_accuracy, 3));
            case Size:
                return sort ? QVariant::fromValue<qlonglong>(c.bytes)
                            : QVariant(QLocale().formattedDataSize(c.bytes, 1, QLocale::DataSizeTraditionalFormat));
            case State: {
                if (v != verified_.end() && c.usable()) return v->ok ? tr("verified") : tr("damaged (checksum)");
                return stateText(c.state);
            }
            case Branch:
                return QVariant::fromValue<qlonglong>(c.branch_number);  // within the run, not the id
            case Head:
                return head ? (sort ? QVariant(1) : QVariant(tr("head"))) : (sort ? QVariant(0) : QVariant(QString()));
            case Pinned:
                return c.pinned ? (sort ? QVariant(1) : QVariant(tr("pinned")))
                                : (sort ? QVariant(0) : QVariant(QString()));
            case Remote: {
                const auto r = remotes_.constFind(c.id);
                return r == remotes_.cend() ? QString() : remoteStateText(r->state);
            }
        }
    }
    if (role == Qt::ToolTipRole && idx.column() == Remote) {
        const auto r = remotes_.constFind(c.id);
        if (r == remotes_.cend()) return {};
        QString tip = QString::fromStdString(r->remote);
        if (!r->etag.empty()) tip += QLatin1Char('\n') + tr("ETag %1").arg(QString::fromStdString(r->etag));
        if (!r->detail.empty()) tip += QLatin1Char('\n') + QString::fromStdString(r->detail);
        return tip;
    }
    if (role == Qt::ForegroundRole && idx.column() == Remote) {
        const auto r = remotes_.constFind(c.id);
        if (r != remotes_.cend() && r->state == savepoint::RemoteState::Failed) return QColor(0xb0, 0x20, 0x20);
        if (r != remotes_.cend() && r->state == savepoint::RemoteState::Uploaded) return QColor(0x1b, 0x7f, 0x3b);
    }
    if (role == Qt::ToolTipRole) {
        if (v != verified_.end() && !v->detail.isEmpty()) return v->detail;
        if (!c.state_detail.empty()) return QString::fromStdString(c.state_detail);
        if (bad) return tr("This checkpoint is damaged and cannot be resumed from.");
        return QString::fromStdString(c.path);
    }
    if (role == Qt::ForegroundRole) {
        if (bad) return QColor(0xb0, 0x20, 0x20);
        if (c.state == CheckpointState::Deleted) return QColor(0x90, 0x90, 0x90);
        if (idx.column() == State && v != verified_.end() && v->ok) return QColor(0x1b, 0x7f, 0x3b);
    }
    if (role == Qt::FontRole && head) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && idx.column() != State && idx.column() != Time && idx.column() != Remote)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant CheckpointTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Id:
            return tr("ID");
        case Epoch:
            return tr("Epoch");
        case Step:
            return tr("Step");
        case GlobalStep:
            return tr("Global step");
        case Time:
            return tr("Saved at");
        case TrainLoss:
            return tr("Train loss");
        case TrainAcc:
            return tr("Train acc.");
        case ValLoss:
            return tr("Val. loss");
        case ValAcc:
            return tr("Val. acc.");
        case Size:
            return tr("Size");
        case State:
            return tr("State");
        case Branch:
            return tr("Branch");
        case Head:
            return tr("Head");
        case Pinned:
            return tr("Pinned");
        case Remote:
            return tr("Remote");
    }
    return {};
}

}  // namespace savepoint::ui
