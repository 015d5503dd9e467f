#include "window/new_run_dialog.h"

#include "data/dataset_spec.h"
#include "platform/errors.h"
#include "window/setting_words.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
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
QString engineCheck(const std::function<void(savepoint::TrainConfig&)>& set) {
    savepoint::TrainConfig c;
    try {
        set(c);
        c.validate();
    } catch (const savepoint::InputError& e) {
        const QString expected = e.rule().kind == savepoint::FieldRule::Kind::None
                                     ? QString::fromStdString(e.expected())
                                     : ruleText(e.rule());
        return NewRunDialog::tr("Expected %1; found %2.").arg(expected, foundText(e.rule(), e.found()));
    }
    return {};
}

}  // namespace

NewRunDialog::NewRunDialog(QSet<QString> existing_runs, QWidget* parent)
    : QDialog(parent), existing_(std::move(existing_runs)) {
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
    model_ = new QComboBox(this);
    model_->addItems({QStringLiteral("mlp"), QStringLiteral("dnn"), QStringLiteral("cnn")});
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
    threads_ = spin("threads", 0);
    threads_->setSpecialValueText(tr("default"));
    async_ = new QComboBox(this);
    async_->addItems({QStringLiteral("wait"), QStringLiteral("skip"), QStringLiteral("defer")});

    addField(form, QStringLiteral("run"), run_, tr("Letters, digits, '.', '_' and '-'; becomes a folder name."));
    addField(
        form, QStringLiteral("data"), data_row,
        tr("“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files."));
    fields_[QStringLiteral("data")] = data_;
    addField(form, QStringLiteral("model"), model_, tr("mlp: one hidden layer; dnn: three; cnn: convolutional."));
    addField(form, QStringLiteral("epochs"), epochs_, {});
    addField(form, QStringLiteral("steps_per_epoch"), spe_, tr("0: one full pass over the training split."));
    addField(form, QStringLiteral("batch"), batch_, {});
    addField(form, QStringLiteral("lr"), lr_, tr("Greater than 0 and at most 10, e.g. 0.001 or 1e-3."));
    addField(form, QStringLiteral("optimizer"), optimizer_, {});
    addField(form, QStringLiteral("seed"), seed_, tr("Same seed, same data order and initial weights."));
    addField(form, QStringLiteral("save_freq"), save_freq_, tr("“epoch”, or a number of steps."));
    addField(form, QStringLiteral("keep"), keep_,
             tr("Older checkpoints are deleted (best, head and pinned ones are kept)."));
    addField(form, QStringLiteral("device"), device_, tr("auto: the GPU when LibTorch sees one, else the CPU."));
    addField(form, QStringLiteral("threads"), threads_, {});
    addField(form, QStringLiteral("async_policy"), async_,
             tr("wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that "
                "one is committed."));

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Start training"));
    outer->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        if (validateAll()) accept();
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
    for (QAbstractButton* b : buttons_->buttons()) chain(b);

    for (QLineEdit* e : {run_, lr_, seed_, save_freq_})
        connect(e, &QLineEdit::textChanged, this, &NewRunDialog::validateAll);
    connect(data_, &QComboBox::currentTextChanged, this, &NewRunDialog::validateAll);
    for (QSpinBox* s : {epochs_, spe_, batch_, keep_, threads_})
        connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &NewRunDialog::validateAll);
    int n = 1;
    while (existing_.contains(QStringLiteral("run-%1").arg(n))) ++n;
    run_->setText(QStringLiteral("run-%1").arg(n));
    validateAll();
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
    return c;
}

QString NewRunDialog::runName() const { return run_->text().trimmed(); }
void NewRunDialog::setRunName(const QString& name) { run_->setText(name); }

}  // namespace savepoint::ui
