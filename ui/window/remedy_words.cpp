#include "window/remedy_words.h"

#include <QCoreApplication>

namespace savepoint::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("RemedyWords", text); }

}  // namespace

QString remedyText(const savepoint::Remedy& r) {
    using K = savepoint::Remedy::Kind;
    const QString run = QString::fromStdString(r.run);
    switch (r.kind) {
        case K::None:
            return {};
        case K::ListRuns:
            return tr("The runs of this home are in the Runs list.");
        case K::ResumeRun:
            return tr("Select run '%1' in the Runs list and press Resume, or pick another name.").arg(run);
        case K::ListCheckpoints:
            return tr("Choose a checkpoint of run '%1' in the Checkpoints table.").arg(run);
        // The window asks where a moved dataset folder went when it resumes; a model or a file it does not follow.
        case K::ModelMoved:
            return tr("Put the model file of run '%1' back where the run recorded it.").arg(run);
        case K::PutModelBack:
            return tr("Put the model file of run '%1' back where the run recorded it; training can follow a moved "
                      "file, export cannot.")
                .arg(run);
        case K::DataMoved:
            return r.file ? tr("Put the dataset file of run '%1' back where the run recorded it.").arg(run)
                          : tr("If the dataset folder of run '%1' moved, press Resume and choose the folder it moved "
                               "to.")
                                .arg(run);
        case K::LeaveModelOut:
            return tr("Leave the model file empty: the run's built-in model goes with it.");
        case K::LeaveDataOut:
            return tr("Leave the dataset as it is: the run's built-in dataset goes with it.");
        case K::TrainOnCpu:
            return tr("Choose cpu or auto as the Device in the New run dialog.");
        case K::RollBackFirst:
            return tr("Choose the last good checkpoint of run '%1' in the Checkpoints table and roll back to it.")
                .arg(run);
        case K::RollBackTo:
            return r.checkpoint_id ? tr("Roll back to checkpoint #%1 (%2), the newest one before it.")
                                         .arg(r.checkpoint_id)
                                         .arg(QString::fromStdString(r.position))
                                   : tr("Roll back to the start of the run, the newest point before it.");
        case K::NameBothEpochAndStep:
            return tr("Name both the epoch and the step to resume after.");
        case K::NameTwoRuns:
            return tr("Select two or more runs to compare.");
        case K::PullElsewhere:
            return tr("Pull run '%1' into another home, or resume it here.").arg(run);
    }
    return {};
}

QString remedyActionLabel(const savepoint::Remedy& r) {
    using K = savepoint::Remedy::Kind;
    const QString run = QString::fromStdString(r.run);
    switch (r.kind) {
        case K::ResumeRun:
            return tr("Resume '%1'").arg(run);
        case K::DataMoved:  // Resume asks where a moved folder went; a file it cannot follow
            return r.file ? QString() : tr("Resume '%1'").arg(run);
        case K::ListCheckpoints:
        case K::RollBackFirst:
            return run.isEmpty() ? QString() : tr("Show its checkpoints");
        case K::TrainOnCpu:
            return tr("Train on the CPU");
        default:
            return {};
    }
}

QString withRemedy(const QString& why, const savepoint::Remedy& remedy) {
    const QString next = remedyText(remedy);
    return next.isEmpty() ? why : why + QLatin1Char(' ') + next;
}

}  // namespace savepoint::ui
