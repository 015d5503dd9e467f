// The new-run dialog: every engine option, each validated as it is edited
// with the engine's own rules (TrainConfig::validate on that field alone) and
// a message under the field. OK stays disabled until all fields are valid.
// The model and data files chosen before come from, and go to, the settings it
// is given: the window's (its --settings), never the user's by default.
// GUI thread only; open it with open() (non-blocking) or exec().
#pragma once

#include "bridge/data_parallel_job.h"
#include "training/train_config.h"

#include <QDialog>
#include <QHash>
#include <QSet>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace savepoint::ui {

// Empty when the dataset spec can be loaded as far as files go (the engine's
// check_dataset_spec); else why not, in the dialog's words.
QString checkDatasetSpec(const QString& spec);

class NewRunDialog : public QDialog {
    Q_OBJECT
public:
    // `settings` outlives the dialog.
    NewRunDialog(QSet<QString> existing_runs, QSettings& settings, QWidget* parent = nullptr);

    void setConfig(const savepoint::TrainConfig& c);
    savepoint::TrainConfig config() const;
    QString runName() const;
    // Workers above 1: a data-parallel job under torchrun instead of training in the window.
    DataParallelSpec parallel() const;
    void setParallel(const DataParallelSpec& spec);
    // s3://BUCKET/PREFIX to sync the run's checkpoints to (empty: none); not a run setting.
    QString remote() const;
    void setRemote(const QString& uri);
    void setRunName(const QString& name);

    // The dry run (training/run_inputs.h) of the current settings: its summary
    // or its error under the form. A model or data file must pass it before
    // Start is enabled; built-in models on built-in data need none.
    bool runDryRun();
    // Model and data files chosen before (the settings given), newest first, at most kRecentFiles.
    static constexpr int kRecentFiles = 8;

    // Field name -> message, for every invalid field (empty: all valid).
    QHash<QString, QString> errors() const { return errors_; }
    bool validateAll();

    // Field widgets by name, for tests: run, data, model, optimizer, epochs,
    // steps_per_epoch, batch, lr, seed, save_freq, keep, device, threads, async_policy, loss,
    // workers, max_restarts, remote.
    QWidget* field(const QString& name) const { return fields_.value(name); }
    // What the device choice says of CUDA here: the GPU's name, or why there is none.
    static QString gpuText();

private:
    // The row's label is the setting's (settingLabel), the one the window's messages name it by.
    void addField(QFormLayout* form, const QString& name, QWidget* w, const QString& help);
    void setError(const QString& name, const QString& message);
    // What a dry run is about: the settings it checked; Start needs the last passed one to match.
    QString dryRunKey() const;
    bool needsDryRun() const;
    void rememberFiles() const;

    QSet<QString> existing_;
    QSettings& settings_;
    QHash<QString, QWidget*> fields_;
    QVector<QWidget*> rows_;  // the fields in form order
    QHash<QString, QLabel*> error_labels_;
    QHash<QString, QString> errors_;
    QLineEdit *run_, *lr_, *seed_, *save_freq_, *remote_;
    QComboBox *data_, *model_, *optimizer_, *device_, *async_, *loss_;
    QLabel* dry_run_result_;
    QLabel* gpu_label_;
    QString dry_run_passed_;  // dryRunKey() of the last dry run that passed
    QSpinBox *epochs_, *spe_, *batch_, *keep_, *threads_, *workers_, *restarts_;
    QDialogButtonBox* buttons_;
};

}  // namespace savepoint::ui
