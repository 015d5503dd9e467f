#include "window/setting_words.h"

#include "window/new_run_dialog.h"

#include <QLocale>
#include <QStringList>

namespace savepoint::ui {

QString settingLabel(const QString& field) {
    QString name = field;
    name.replace(QLatin1Char('-'), QLatin1Char('_'));  // the CLI's name, or the dialog's
    using D = NewRunDialog;
    if (name == QLatin1String("run")) return D::tr("Run name");
    if (name == QLatin1String("data")) return D::tr("Dataset");
    if (name == QLatin1String("model")) return D::tr("Model");
    if (name == QLatin1String("epochs")) return D::tr("Epochs");
    if (name == QLatin1String("steps_per_epoch")) return D::tr("Steps per epoch");
    if (name == QLatin1String("batch")) return D::tr("Batch size");
    if (name == QLatin1String("lr")) return D::tr("Learning rate");
    if (name == QLatin1String("optimizer")) return D::tr("Optimizer");
    if (name == QLatin1String("seed")) return D::tr("Seed");
    if (name == QLatin1String("save_freq")) return D::tr("Save every");
    if (name == QLatin1String("keep")) return D::tr("Keep newest");
    if (name == QLatin1String("device")) return D::tr("Device");
    if (name == QLatin1String("threads")) return D::tr("CPU threads");
    if (name == QLatin1String("async_policy")) return D::tr("When a save is still writing");
    if (name == QLatin1String("loss")) return D::tr("Loss");
    if (name == QLatin1String("workers")) return D::tr("Workers");
    if (name == QLatin1String("max_restarts")) return D::tr("Restarts");
    if (name == QLatin1String("remote")) return D::tr("Remote storage");
    // Not in the dialog: what a resume is asked to start from.
    if (name == QLatin1String("checkpoint")) return D::tr("Checkpoint");
    if (name == QLatin1String("epoch")) return D::tr("Epoch");
    if (name == QLatin1String("step")) return D::tr("Step");
    return field;
}

QString ruleText(const savepoint::FieldRule& rule) {
    using K = savepoint::FieldRule::Kind;
    const QLocale loc;
    switch (rule.kind) {
        case K::Integers:
            return NewRunDialog::tr("a whole number from %1 to %2")
                .arg(loc.toString(qlonglong(rule.lo)), loc.toString(qlonglong(rule.hi)));
        case K::Numbers:
            return (rule.lo_excluded ? NewRunDialog::tr("a number greater than %1 and at most %2")
                                     : NewRunDialog::tr("a number from %1 to %2"))
                .arg(loc.toString(rule.lo), loc.toString(rule.hi));
        case K::OneOf: {
            QStringList choices;
            for (const auto& c : rule.choices) choices << QString::fromStdString(c);
            return NewRunDialog::tr("one of %1").arg(choices.join(QStringLiteral(", ")));
        }
        case K::None:
            break;
    }
    return {};
}

QString foundText(const savepoint::FieldRule& rule, const std::string& found) {
    using K = savepoint::FieldRule::Kind;
    const QString text = QString::fromStdString(found);
    bool ok = false;
    const double v = QLocale::c().toDouble(text, &ok);  // the engine writes numbers the C way
    if (!ok || (rule.kind != K::Integers && rule.kind != K::Numbers)) return text;
    return rule.kind == K::Integers ? QLocale().toString(qlonglong(v)) : QLocale().toString(v);
}

QString settingRefusalText(const std::string& field, const std::string& expected, const std::string& found,
                           const savepoint::FieldRule& rule) {
    const QString what =
        rule.kind == savepoint::FieldRule::Kind::None ? QString::fromStdString(expected) : ruleText(rule);
    return NewRunDialog::tr("%1: expected %2, found %3.")
        .arg(settingLabel(QString::fromStdString(field)), what, foundText(rule, found));
}

}  // namespace savepoint::ui
