// The compared runs as a table: a row per run (its colour from the plot, its
// name and label), a column per setting that differs, then how far it got and
// its final and best validation figures (registry/run_comparison.h). GUI thread only.
#pragma once

#include "registry/run_comparison.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QVector>

namespace savepoint::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The fixed columns; the differing settings sit between Label and Steps.
    enum Fixed { Run, Label, FixedBefore };
    enum After { Steps, FinalLoss, FinalAccuracy, BestLoss, BestAccuracy, FixedAfter };

    explicit ComparisonTableModel(QObject* parent = nullptr);

    // `colours[i]` marks run i's row as the plot draws it.
    void setComparison(savepoint::RunComparison c, QVector<QColor> colours);
    void clear() { setComparison({}, {}); }
    const savepoint::RunComparison& comparison() const { return c_; }
    // The column of a fixed figure (after the settings that differ).
    int column(After a) const { return FixedBefore + int(c_.differences.size()) + a; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QString figureText(const savepoint::ValidationFigure& f, bool loss) const;

    savepoint::RunComparison c_;
    QVector<QColor> colours_;
};

}  // namespace savepoint::ui
