#include "window/new_run_dialog.h"

#include "cuda/device_probe.h"
#include "data/dataset_spec.h"
#include "platform/errors.h"
#include "training/run_inputs.h"
#include "window/remedy_words.h"
#include "window/remote_field.h"
#include "window/setting_words.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <functional>

namespace savepoint::ui {

QString checkDatasetSpec(const QString& spec) {
    using Problem = savepoint::DatasetSpecCheck::Problem;
    const savepoint::DatasetSpecCheck c = savepoint::check_dataset_spec(spec.trimmed().toStdString());
    const QString dir = QString::fromStdString(c.dir);
    switch (c.problem) {
        case Problem::None:
            return {};
        case Problem::FashionMnistMissing:
            return NewRunDialog::tr(
                       "Fashion-MNIST is not installed in %1 (install Debian's dataset-fashion-mnist, "
                       "set SAVEPOINT_FASHION_MNIST_DIR, or choose “synthetic”)")
                .arg(dir);
        case Problem::Empty:
            return NewRunDialog::tr("Choose “synthetic”, “fashion-mnist” or a directory with MNIST-format files");
        case Problem::NotADirectory:
            return NewRunDialog::tr(
                       "%1 is not a directory (expected “synthetic”, “fashion-mnist” or a directory with "
                       "MNIST-format files)")
                .arg(dir);
        case Problem::MissingFile:
            return NewRunDialog::tr("%1 has no %2 (or %2.gz)").arg(dir, QString::fromStdString(c.file));
        case Problem::NoSuchFile:
            return NewRunDialog::tr("%1: no such file (expected a file written by torch.save)")
                .arg(QString::fromStdString(c.file));
    }
    return {};
}

namespace {

// The engine's verdict on one field, as a sentence beside it: made of what the
// engine expected and found (InputError's data), not of its command-line
// wording; a range or a choice in the dialog's own words.
QString inDialogWords(const savepoint::InputError& e) {
    const QString expected =
        e.rule().kind == savepoint::FieldRule::Kind::None ? QString::fromStdString(e.expected()) : ruleText(e.rule());
    return NewRunDialog::tr("Expected %1; found %2.").arg(expected, foundText(e.rule(), e.found()));
}

QString engineCheck(const std::function<void(savepoint::TrainConfig&)>& set) {
    savepoint::TrainConfig c;
    try {
        set(c);
        c.validate();
    } catch (const savepoint::InputError& e) {
        return inDialogWords(e);
    }
    return {};
}

}  // namespace

NewRunDialog::NewRunDialog(QSet<QString> existing_runs, QSettings& settings, QWidget* parent)
    : QDialog(parent), existing_(std::move(existing_runs)), settings_(settings) {
    setWindowTitle(tr("New training run"));
    auto* outer = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    outer->addLayout(form);

    run_ = new QLineEdit(this);
    data_ = new QComboBox(this);
    data_->setEditable(true);
    data_->addItems({QStringLiteral("synthetic"), QStringLiteral("fashion-mnist")});
    auto* data_row = new QWidget(this);
    auto* dl = new QHBoxLayout(data_row);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(data_, 1);
    auto* browse = new QPushButton(tr("Directory…"), data_row);
    dl->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("MNIST-format dataset directory"));
        if (!d.isEmpty()) data_->setCurrentText(d);
    });
    auto* data_file = new QPushButton(tr("File…"), data_row);
    dl->addWidget(data_file);
    connect(data_file, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Tensors saved with torch.save"), {},
                                                       tr("PyTorch files (*.pt *.pth);;All files (*)"));
        if (!f.isEmpty()) data_->setCurrentText(f);
    });
    data_->addItems(settings_.value(QStringLiteral("newRun/recentData")).toStringList());
    model_ = new QComboBox(this);
    model_->setEditable(true);
    // Room for a path's last folders and the file name, which say which file it is.
    for (QComboBox* c : {data_, model_}) {
        c->setMinimumContentsLength(36);
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    model_->addItems({QStringLiteral("mlp"), QStringLiteral("dnn"), QStringLiteral("cnn")});
    model_->addItems(settings_.value(QStringLiteral("newRun/recentModels")).toStringList());
    auto* model_row = new QWidget(this);
    auto* ml = new QHBoxLayout(model_row);
    ml->setContentsMargins(0, 0, 0, 0);
    ml->addWidget(model_, 1);
    auto* model_file = new QPushButton(tr("File…"), model_row);
    ml->addWidget(model_file);
    connect(model_file, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("TorchScript model"), {},
                                                       tr("TorchScript files (*.pt *.pth);;All files (*)"));
        if (!f.isEmpty()) model_->setCurrentText(f);
    });
    loss_ = new QComboBox(this);
    loss_->addItems({QStringLiteral("ce"), QStringLiteral("mse")});
    optimizer_ = new QComboBox(this);
    optimizer_->addItems({QStringLiteral("adam"), QStringLiteral("sgd")});
    // The engine's range for the setting (its command-line name).
    auto spin = [this](const char* field, int v) {
        const savepoint::FieldRule r = savepoint::TrainConfig::rule(field);
        auto* s = new QSpinBox(this);
        s->setRange(int(r.lo), int(r.hi));
        s->setValue(v);
        return s;
    };
    epochs_ = spin("epochs", 10);
    spe_ = spin("steps-per-epoch", 0);
    spe_->setSpecialValueText(tr("one full pass"));
    batch_ = spin("batch", 32);
    lr_ = new QLineEdit(QStringLiteral("0.001"), this);
    seed_ = new QLineEdit(QStringLiteral("42"), this);
    save_freq_ = new QLineEdit(QStringLiteral("epoch"), this);
    keep_ = spin("keep", 5);
    device_ = new QComboBox(this);
    device_->addItems({QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")});
    auto* device_row = new QWidget(this);
    auto* devl = new QHBoxLayout(device_row);
    devl->setContentsMargins(0, 0, 0, 0);
    devl->addWidget(device_);
    gpu_label_ = new QLabel(gpuText(), device_row);
    gpu_label_->setObjectName(QStringLiteral("gpuLabel"));
    gpu_label_->setWordWrap(true);
    devl->addWidget(gpu_label_, 1);
    threads_ = spin("threads", 0);
    threads_->setSpecialValueText(tr("default"));
    workers_ = new QSpinBox(this);
    workers_->setRange(1, 64);
    workers_->setSpecialValueText(tr("1 (trains in this window)"));
    restarts_ = new QSpinBox(this);
    restarts_->setRange(0, 100);
    restarts_->setValue(3);
    async_ = new QComboBox(this);
    async_->addItems({QStringLiteral("wait"), QStringLiteral("skip"), QStringLiteral("defer")});
    remote_ = new QLineEdit(this);
    remote_->setPlaceholderText(tr("optional: s3://bucket/prefix"));

    addField(form, QStringLiteral("run"), run_, tr("Letters, digits, '.', '_' and '-'; becomes a folder name."));
    addField(
        form, QStringLiteral("data"), data_row,
        tr("“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files."));
    fields_[QStringLiteral("data")] = data_;
    addField(form, QStringLiteral("model"), model_row,
             tr("mlp: one hidden layer; dnn: three; cnn: convolutional; or your own TorchScript file "
                "(torch.jit.script(model).save(\"model.pt\"))."));
    fields_[QStringLiteral("model")] = model_;
    // The combo boxes themselves, not only their rows, carry the name a screen reader says.
    data_->setAccessibleName(QString(settingLabel(QStringLiteral("data"))).remove(QLatin1Char('&')));
    model_->setAccessibleName(QString(settingLabel(QStringLiteral("model"))).remove(QLatin1Char('&')));
    addField(form, QStringLiteral("loss"), loss_,
             tr("ce: cross-entropy on class labels; mse: mean squared error on float targets (TorchScript models)."));
    addField(form, QStringLiteral("epochs"), epochs_, {});
    addField(form, QStringLiteral("steps_per_epoch"), spe_, tr("0: one full pass over the training split."));
    addField(form, QStringLiteral("batch"), batch_, {});
    addField(form, QStringLiteral("lr"), lr_, tr("Greater than 0 and at most 10, e.g. 0.001 or 1e-3."));
    addField(form, QStringLiteral("optimizer"), optimizer_, {});
    addField(form, QStringLiteral("seed"), seed_, tr("Same seed, same data order and initial weights."));
    addField(form, QStringLiteral("save_freq"), save_freq_, tr("“epoch”, or a number of steps."));
    addField(form, QStringLiteral("keep"), keep_,
             tr("Older checkpoints are deleted (best, head and pinned ones are kept)."));
    addField(form, QStringLiteral("device"), device_row, tr("auto: the GPU when LibTorch sees one, else the CPU."));
    fields_[QStringLiteral("device")] = device_;
    addField(form, QStringLiteral("threads"), threads_, {});
    addField(form, QStringLiteral("async_policy"), async_,
             tr("wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that "
                "one is committed."));
    addField(form, QStringLiteral("workers"), workers_,
             tr("1: trains in this window. 2 or more: a data-parallel job of that many processes under torchrun "
                "(PyTorch's launcher), each training on its own batch of the size above."));
    addField(form, QStringLiteral("max_restarts"), restarts_,
             tr("How often torchrun restarts the whole job from its last checkpoint when a worker is lost."));
    addField(form, QStringLiteral("remote"), remote_,
             tr("Each checkpoint is also uploaded there in the background (AWS S3, MinIO, Ceph, Swift), with the "
                "credentials of AWS_ACCESS_KEY_ID or ~/.aws/credentials and AWS_ENDPOINT_URL; File ▸ Open runs "
                "from remote storage… brings the run back on another machine."));

    auto* dry_row = new QHBoxLayout;
    auto* dry = new QPushButton(tr("Check model and data"), this);
    dry->setObjectName(QStringLiteral("dryRunButton"));
    dry->setToolTip(tr("Loads the model and the data and runs one batch forward: shapes, labels, parameters."));
    dry_row->addWidget(dry, 0, Qt::AlignTop);
    dry_run_result_ = new QLabel(this);
    dry_run_result_->setObjectName(QStringLiteral("dryRunResult"));
    dry_run_result_->setWordWrap(true);
    dry_run_result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dry_row->addWidget(dry_run_result_, 1);
    outer->addLayout(dry_row);
    connect(dry, &QPushButton::clicked, this, &NewRunDialog::runDryRun);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Start training"));
    outer->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        if (!validateAll()) return;
        rememberFiles();
        accept();
    });
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // Tab follows the form top to bottom (widgets made out of row order would break it), then the buttons.
    QWidget* prev = nullptr;
    auto chain = [&prev](QWidget* w) {
        if (prev) QWidget::setTabOrder(prev, w);
        prev = w;
    };
    auto takesTab = [this](QWidget* w) {
        return (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy() && w->window() == this;
    };
    for (QWidget* row : rows_) {
        if (takesTab(row)) chain(row);
        for (QWidget* w : row->findChildren<QWidget*>())
            if (takesTab(w)) chain(w);
    }
    chain(dry);
    for (QAbstractButton* b : buttons_->buttons()) chain(b);

    for (QLineEdit* e : {run_, lr_, seed_, save_freq_, remote_})
        connect(e, &QLineEdit::textChanged, this, &NewRunDialog::validateAll);
    for (QComboBox* c : {data_, model_, loss_, async_, device_})
        connect(c, &QComboBox::currentTextChanged, this, &NewRunDialog::validateAll);
    for (QSpinBox* s : {epochs_, spe_, batch_, keep_, threads_, workers_})
        connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &NewRunDialog::validateAll);
    int n = 1;
    while (existing_.contains(QStringLiteral("run-%1").arg(n))) ++n;
    run_->setText(QStringLiteral("run-%1").arg(n));
    validateAll();
}

QString NewRunDialog::gpuText() {
    const std::string why = savepoint::cuda_unavailable_reason();
    if (!why.empty()) return tr("no GPU: %1").arg(QString::fromStdString(why));
    return tr("GPU: %1").arg(QString::fromStdString(savepoint::describe_cuda_device(0).name));
}

void NewRunDialog::addField(QFormLayout* form, const QString& name, QWidget* w, const QString& help) {
    fields_[name] = w;
    rows_.push_back(w);
    w->setToolTip(help);
    w->setAccessibleName(QString(settingLabel(name)).remove(QLatin1Char('&')));
    w->setAccessibleDescription(help);
    auto* box = new QWidget(this);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(1);
    v->addWidget(w);
    auto* err = new QLabel(box);
    err->setObjectName(name + QStringLiteral("Error"));
    err->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    // One line each (the messages are short): a wrapped label in a form layout
    // gets too little height and shows cut in half.
    err->hide();
    v->addWidget(err);
    error_labels_[name] = err;
    form->addRow(settingLabel(name), box);
}

void NewRunDialog::setError(const QString& name, const QString& message) {
    QLabel* l = error_labels_.value(name);
    if (message.isEmpty()) {
        errors_.remove(name);
        if (l) l->hide();
    } else {
        errors_[name] = message;
        if (l) {
            l->setText(message);
            l->show();
        }
    }
}

bool NewRunDialog::validateAll() {
    const QString name = run_->text();
    QString run_err;
    try {
        savepoint::validate_run_name(name.toStdString());
    } catch (const savepoint::InputError&) {
        run_err = tr("Use 1 to 64 characters from A–Z, a–z, 0–9, '.', '_' and '-', not starting with '.'");
    }
    if (run_err.isEmpty() && existing_.contains(name))
        run_err = tr("A run named “%1” already exists; resume it instead").arg(name);
    setError(QStringLiteral("run"), run_err);
    setError(QStringLiteral("data"), checkDatasetSpec(data_->currentText()));

    bool lr_ok = false;
    const double lr = QLocale::c().toDouble(lr_->text().trimmed(), &lr_ok);
    setError(QStringLiteral("lr"), !lr_ok ? tr("Enter a number such as 0.001 or 1e-3")
                                          : engineCheck([lr](savepoint::TrainConfig& c) { c.lr = lr; }));
    bool seed_ok = false;
    seed_->text().trimmed().toULongLong(&seed_ok);
    setError(QStringLiteral("seed"), seed_ok ? QString() : tr("Enter a whole number from 0 to 18446744073709551615"));
    QString sf_err;
    try {
        savepoint::parse_save_freq(save_freq_->text().trimmed().toStdString());
    } catch (const savepoint::InputError&) {
        sf_err = tr("Enter “epoch” or a positive number of steps");
    }
    setError(QStringLiteral("save_freq"), sf_err);
    setError(QStringLiteral("epochs"), engineCheck([this](auto& c) { c.epochs = epochs_->value(); }));
    setError(QStringLiteral("steps_per_epoch"), engineCheck([this](auto& c) { c.steps_per_epoch = spe_->value(); }));
    setError(QStringLiteral("batch"), engineCheck([this](auto& c) { c.batch = batch_->value(); }));
    setError(QStringLiteral("keep"), engineCheck([this](auto& c) { c.keep = keep_->value(); }));
    setError(QStringLiteral("threads"), engineCheck([this](auto& c) { c.threads = threads_->value(); }));
    setError(QStringLiteral("device"),
             device_->currentText() == QLatin1String("cuda") && !savepoint::cuda_unavailable_reason().empty()
                 ? tr("No GPU can train here; choose “cpu” or “auto”")
                 : QString());
    restarts_->setEnabled(workers_->value() > 1);
    setError(QStringLiteral("workers"),
             workers_->value() > 1 && DataParallelJob::findTorchrun().isEmpty()
                 ? tr("torchrun was not found on PATH (on Debian: apt install python3-torch)")
                 : QString());
    // Every worker of a torchrun job waits for the checkpoint write (the CLI refuses skip and defer there).
    setError(QStringLiteral("async_policy"),
             workers_->value() > 1 && async_->currentText() != QLatin1String("wait")
                 ? tr("A job of several workers waits for each checkpoint: choose “wait”")
                 : QString());
    setError(QStringLiteral("remote"), checkRemoteUri(remote()));
    setError(QStringLiteral("loss"), engineCheck([this](auto& c) {
                 c.model = model_->currentText().trimmed().toStdString();
                 c.loss = loss_->currentText().toStdString();
             }));
    QString model_err = engineCheck([this](auto& c) { c.model = model_->currentText().trimmed().toStdString(); });
    if (model_err.isEmpty() && needsDryRun() && dry_run_passed_ != dryRunKey())
        model_err = tr("Press “Check model and data” first: a model or data file must pass the dry run");
    setError(QStringLiteral("model"), model_err);
    if (QPushButton* ok = buttons_ ? buttons_->button(QDialogButtonBox::Ok) : nullptr)
        ok->setEnabled(errors_.isEmpty());
    // Messages that appear make room for themselves: the dialog grows (never shrinks while open).
    if (isVisible()) resize(size().expandedTo(sizeHint()));
    return errors_.isEmpty();
}

void NewRunDialog::setConfig(const savepoint::TrainConfig& c) {
    data_->setCurrentText(QString::fromStdString(c.data));
    model_->setCurrentText(QString::fromStdString(c.model));
    optimizer_->setCurrentText(QString::fromStdString(c.optimizer));
    epochs_->setValue(int(c.epochs));
    spe_->setValue(int(c.steps_per_epoch));
    batch_->setValue(int(c.batch));
    lr_->setText(QLocale::c().toString(c.lr, 'g', 6));
    seed_->setText(QString::number(c.seed));
    save_freq_->setText(QString::fromStdString(savepoint::save_freq_text(c.save_every_steps)));
    keep_->setValue(int(c.keep));
    device_->setCurrentText(QString::fromStdString(c.device));
    threads_->setValue(int(c.threads));
    async_->setCurrentText(QString::fromStdString(c.async_policy));
    loss_->setCurrentText(QString::fromStdString(c.loss));
    validateAll();
}

savepoint::TrainConfig NewRunDialog::config() const {
    savepoint::TrainConfig c;
    c.data = data_->currentText().trimmed().toStdString();
    c.model = model_->currentText().toStdString();
    c.optimizer = optimizer_->currentText().toStdString();
    c.epochs = epochs_->value();
    c.steps_per_epoch = spe_->value();
    c.batch = batch_->value();
    c.lr = QLocale::c().toDouble(lr_->text().trimmed());
    c.seed = lr_ ? seed_->text().trimmed().toULongLong() : 42;
    try {
        c.save_every_steps = savepoint::parse_save_freq(save_freq_->text().trimmed().toStdString());
    } catch (const savepoint::InputError&) {
        c.save_every_steps = 0;
    }
    c.keep = keep_->value();
    c.device = device_->currentText().toStdString();
    c.threads = threads_->value();
    c.async_policy = async_->currentText().toStdString();
    c.loss = loss_->currentText().toStdString();
    return c;
}

QString NewRunDialog::dryRunKey() const {
    const savepoint::TrainConfig c = config();
    return QString::fromStdString(c.model + '\n' + c.data + '\n' + c.loss + '\n' + std::to_string(c.batch));
}

bool NewRunDialog::needsDryRun() const {
    const savepoint::TrainConfig c = config();
    return !c.builtin_model() || savepoint::is_tensor_file_spec(c.data);
}

bool NewRunDialog::runDryRun() {
    QString text;
    bool passed = false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const savepoint::DryRunReport r = savepoint::dry_run(config());
        QStringList lines;
        for (const auto& l : r.lines()) lines << QString::fromStdString(l);
        text = tr("Dry run passed:") + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
        passed = true;
    } catch (const savepoint::InputError& e) {
        // A setting's problem named by its label, as the fields' own messages are; a file's in the engine's words.
        QString why = e.field().empty()
                          ? QString::fromUtf8(e.what())
                          : QString(settingLabel(QString::fromStdString(e.field()))).remove(QLatin1Char('&')) +
                                QStringLiteral(": ") + inDialogWords(e);
        why = withRemedy(why, e.remedy());
        text = tr("Dry run failed: %1").arg(why);
    } catch (const std::exception& e) {
        text = tr("Dry run failed: %1").arg(QString::fromUtf8(e.what()));
    }
    QApplication::restoreOverrideCursor();
    dry_run_passed_ = passed ? dryRunKey() : QString();
    dry_run_result_->setStyleSheet(passed ? QString() : QStringLiteral("color: #b71c1c;"));
    dry_run_result_->setText(text);
    validateAll();
    return passed;
}

void NewRunDialog::rememberFiles() const {
    const savepoint::TrainConfig c = config();
    const auto remember = [this](const QString& key, const std::string& file) {
        QStringList list = settings_.value(key).toStringList();
        const QString f = QFileInfo(QString::fromStdString(file)).absoluteFilePath();
        list.removeAll(f);
        list.prepend(f);
        settings_.setValue(key, list.mid(0, kRecentFiles));
    };
    if (!c.builtin_model()) remember(QStringLiteral("newRun/recentModels"), c.model);
    if (savepoint::is_tensor_file_spec(c.data)) remember(QStringLiteral("newRun/recentData"), c.data);
}

QString NewRunDialog::remote() const { return remote_->text().trimmed(); }
void NewRunDialog::setRemote(const QString& uri) { remote_->setText(uri); }

DataParallelSpec NewRunDialog::parallel() const { return {workers_->value(), restarts_->value(), remote()}; }

void NewRunDialog::setParallel(const DataParallelSpec& spec) {
    workers_->setValue(spec.workers);
    restarts_->setValue(spec.max_restarts);
}

QString NewRunDialog::runName() const { return run_->text().trimmed(); }
void NewRunDialog::setRunName(const QString& name) { run_->setText(name); }

}  // namespace savepoint::ui
