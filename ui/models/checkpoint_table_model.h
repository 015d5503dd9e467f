// The checkpoints of the selected run: position, metrics at save, size,
// verification state, branch, head and pinned marks, and the copy in remote
// storage when the run is synced (train --remote). Verification results of
// this session (checksum checked now) are overlaid on the registry state.
// GUI thread only; sort through a QSortFilterProxyModel with SortRole.
#pragma once

#include "registry/checkpoint_remotes.h"
#include "registry/registry.h"

#include <QAbstractTableModel>
#include <QHash>

#include <optional>
#include <vector>

class QAbstractItemView;

namespace savepoint::ui {

class CheckpointTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Epoch,
        Step,
        GlobalStep,
        Time,
        TrainLoss,
        TrainAcc,
        ValLoss,
        ValAcc,
        Size,
        State,
        Branch,
        Head,
        Pinned,
        Remote,
        ColumnCount
    };
    static constexpr int IdRole = Qt::UserRole + 1;
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit CheckpointTableModel(QObject* parent = nullptr);

    // Deleted, deleting and failed rows are hidden unless showDeleted.
    void setCheckpoints(std::vector<savepoint::CheckpointRow> rows, std::optional<std::int64_t> head);
    void setShowDeleted(bool on);
    void setVerified(std::int64_t id, bool ok, const QString& detail);
    // Each checkpoint's remote copy (checkpoint_remotes.h); none: the Remote column is blank.
    void setRemotes(const std::vector<savepoint::CheckpointRemote>& remotes);
    bool hasRemotes() const { return !remotes_.isEmpty(); }
    static QString remoteStateText(savepoint::RemoteState state);

    const savepoint::CheckpointRow* rowAt(int row) const;
    // The row at `view`'s current index: the checkpoint selected there. The view
    // shows this model, through a QSortFilterProxyModel or not.
    std::optional<savepoint::CheckpointRow> currentIn(const QAbstractItemView& view) const;
    int rowOf(std::int64_t id) const;
    std::optional<std::int64_t> head() const { return head_; }
    bool isHead(std::int64_t id) const { return head_ && *head_ == id; }
    // Usable: committed in the registry and not failed a verification here.
    bool isUsable(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // The state as the user reads it (translated).
    static QString stateText(savepoint::CheckpointState state);

private:
    void rebuild();

    std::vector<savepoint::CheckpointRow> all_, rows_;
    std::optional<std::int64_t> head_;
    bool show_deleted_ = false;
    struct Verified {
        bool ok;
        QString detail;
    };
    QHash<qint64, Verified> verified_;
    QHash<qint64, savepoint::CheckpointRemote> remotes_;
};

}  // namespace savepoint::ui
