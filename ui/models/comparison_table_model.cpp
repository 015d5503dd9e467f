#include "models/comparison_table_model.h"

#include "models/number_format.h"

namespace savepoint::ui {

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setComparison(savepoint::RunComparison c, QVector<QColor> colours) {
    beginResetModel();
    c_ = std::move(c);
    colours_ = std::move(colours);
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(c_.runs.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FixedBefore + int(c_.differences.size()) + FixedAfter;
}

QString ComparisonTableModel::figureText(const savepoint::ValidationFigure& f, bool loss) const {
    if (!f.known()) return QStringLiteral("–");
    const QString value = localeNumber(loss ? f.loss : f.accuracy, 4);
    const QString where = f.branch > 1
                              ? tr("epoch %1, global step %2, branch %3")
                                    .arg(localeCount(f.epoch), localeCount(f.global_step), localeCount(f.branch))
                              : tr("epoch %1, global step %2").arg(localeCount(f.epoch), localeCount(f.global_step));
    return tr("%1 (%2)").arg(value, where);
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const savepoint::ComparedRun& r = c_.runs[std::size_t(index.row())];
    const int col = index.column(), setting = col - FixedBefore;
    if (role == Qt::DecorationRole && col == Run && index.row() < colours_.size()) return colours_[index.row()];
    if (role == Qt::TextAlignmentRole && col >= column(Steps)) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (col == Run) return QString::fromStdString(r.run.name);
    if (col == Label) return QString::fromStdString(r.label);
    if (setting >= 0 && setting < int(c_.differences.size()))
        return QString::fromStdString(c_.differences[std::size_t(setting)].shown[std::size_t(index.row())]);
    const int fixed = col - column(Steps);
    switch (fixed) {
        case Steps:
            return tr("%1 of %2").arg(localeCount(r.run.global_step), localeCount(r.run.total_steps));
        case FinalLoss:
            return localeNumber(r.final_val.loss, 4);
        case FinalAccuracy:
            return localeNumber(r.final_val.accuracy, 4);
        case BestLoss:
            return figureText(r.best_loss, true);
        case BestAccuracy:
            return figureText(r.best_accuracy, false);
    }
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section == Run) return tr("Run");
    if (section == Label) return tr("What differs");
    const int setting = section - FixedBefore;
    if (setting >= 0 && setting < int(c_.differences.size())) {
        const auto& d = c_.differences[std::size_t(setting)];
        // A fingerprint is not a setting anyone chose: say what differing means.
        return d.bookkeeping ? tr("%1 differs").arg(QString::fromStdString(savepoint::setting_short_name(d.key)))
                             : QString::fromStdString(savepoint::setting_short_name(d.key));
    }
    switch (section - column(Steps)) {
        case Steps:
            return tr("Steps");
        case FinalLoss:
            return tr("Final val. loss");
        case FinalAccuracy:
            return tr("Final val. acc.");
        case BestLoss:
            return tr("Best val. loss");
        case BestAccuracy:
            return tr("Best val. acc.");
    }
    return {};
}

}  // namespace savepoint::ui
