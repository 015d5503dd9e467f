// Comparing runs in the window: while two or more rows of the run list are
// selected, the plot area shows their curves overlaid (ComparisonPlot) and the
// Compare dock their settings that differ and their final and best validation
// figures (ComparisonTableModel); with one row selected the window is as it
// was, the run's own plot and its checkpoints. The runs are read through the
// engine's API (registry/run_comparison.h and Registry's metric rows) on a
// background job with its own connection, when the selection changes and
// again while a compared run trains. Owned by
// MainWindow. GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QDockWidget;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace savepoint::ui {

class BackgroundJobs;
class ComparisonPlot;
class ComparisonTableModel;
class RunListModel;

class RunComparisonView : public QObject {
    Q_OBJECT
public:
    struct Widgets {
        QTableView* run_view = nullptr;  // its selection says which runs to compare
        RunListModel* runs = nullptr;    // which of them are training
        QSortFilterProxyModel* run_proxy = nullptr;
        QStackedWidget* plots = nullptr;  // page 0: the run's plot; the comparison's is added
        ComparisonPlot* plot = nullptr;
        ComparisonTableModel* table = nullptr;
        QDockWidget* dock = nullptr;             // holds the table; shown only while comparing
        QDockWidget* checkpoint_dock = nullptr;  // raised again when comparing ends
    };

    RunComparisonView(QString home, const Widgets& w, QObject* parent = nullptr);
    ~RunComparisonView() override;

    bool comparing() const { return !compared_.isEmpty(); }
    QStringList comparedRuns() const { return compared_; }  // in the run list's order

public Q_SLOTS:
    // Re-reads the selection (and the selected runs' data).
    void selectionChanged();
    // While a compared run trains (here or in another process), reads the runs again:
    // called on the window's refresh tick; one read at a time.
    void followTraining();

Q_SIGNALS:
    void comparisonShown(int runs);         // the plot and the table show the compared runs
    void singleRunSelected(qint64 run_id);  // back to one run: show it as usual
    void errorMessage(const QString& text);

private:
    void load(const QStringList& names);
    void stopComparing();

    QString home_;
    Widgets w_;
    QStringList compared_;
    BackgroundJobs* jobs_ = nullptr;
    int generation_ = 0;
    bool loading_ = false;
};

}  // namespace savepoint::ui
