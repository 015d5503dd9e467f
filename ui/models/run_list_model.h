// The run list: one row per run in the registry, with status, progress, latest
// metrics, branch count, device and model. Live progress of the run this window trains is
// overlaid with setLive(), by its one writer (window/live_run_state.h), which lays it
// over again on runsReplaced(). GUI thread only.
#pragma once

#include "registry/registry.h"

#include <QAbstractTableModel>

namespace savepoint::ui {

class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Status, Progress, Branches, Loss, Accuracy, ValAccuracy, Device, Model, ColumnCount };
    static constexpr int RunIdRole = Qt::UserRole + 1;
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit RunListModel(QObject* parent = nullptr);

    // Replaces the rows; keeps rows (and so the selection) when the set of runs is unchanged.
    void setRuns(std::vector<RunSummary> runs);
    void setLive(std::int64_t run_id, savepoint::RunStatus status, std::int64_t global_step, double loss,
                 double accuracy);
    const RunSummary* runAt(int row) const;
    int rowOf(std::int64_t run_id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // The status as the user reads it (translated).
    static QString statusText(savepoint::RunStatus status);
    // "mlp", or a TorchScript file's path (the Model column shows its file name).
    static QString modelOf(const savepoint::RunRow& run);

Q_SIGNALS:
    // setRuns() put the registry's figures back: a live overlay must be laid again.
    void runsReplaced();

private:
    std::vector<RunSummary> runs_;
    std::vector<QString> models_;  // per row: the model as the Model column shows it (from the run's config)
};

}  // namespace savepoint::ui
