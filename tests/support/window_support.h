// Shared helpers for the tests that drive the real window (tests/gui).
// Header-only; the including test links savepoint_ui and Qt6::Widgets.
#pragma once

#include "models/checkpoint_table_model.h"
#include "window/main_window.h"

#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

#include <memory>

namespace testsupport {

// A window on a fresh home (dir/home) with its own settings file (dir/settings.ini): a first start.
inline std::unique_ptr<savepoint::ui::MainWindow> windowIn(const QTemporaryDir& dir) {
    savepoint::ui::MainWindowOptions o;
    o.home = dir.filePath(QStringLiteral("home"));
    o.settings_path = dir.filePath(QStringLiteral("settings.ini"));
    return std::make_unique<savepoint::ui::MainWindow>(o);
}

// Selects the checkpoint table's row at global step `gs`, as a click would; false if none is listed.
inline bool selectCheckpointAt(savepoint::ui::MainWindow& w, std::int64_t gs) {
    using savepoint::ui::CheckpointTableModel;
    QSortFilterProxyModel* proxy = w.checkpointProxy();
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex idx = proxy->index(r, CheckpointTableModel::GlobalStep);
        if (idx.data(CheckpointTableModel::SortRole).toLongLong() == gs) {
            w.checkpointView()->selectionModel()->setCurrentIndex(
                idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

// A session-end banner in the window's words: no command-line flag, no savepoint-cli
// command (the window offers its own controls instead). Prints what it found.
inline bool noCliWords(const QString& text) {
    const bool clean = !text.contains(QLatin1String("--")) && !text.contains(QLatin1String("savepoint-cli"));
    if (!clean) qWarning("CLI words in the window's text: %s", qPrintable(text));
    return clean;
}

}  // namespace testsupport
