#include "window/rollback_dialog.h"

#include "training/train_config.h"
#include "window/setting_words.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace savepoint::ui {

RollbackDialog::RollbackDialog(qint64 checkpoint_id, const QString& where, double diverged_lr, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("rollbackDialog"));
    setWindowTitle(tr("Roll back to the last good checkpoint"));
    auto* v = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Training diverged. Roll back to checkpoint #%1 (%2) and continue on a new branch "
                                "with a smaller learning rate; the branch that diverged is kept.")
                                 .arg(checkpoint_id)
                                 .arg(where),
                             this);
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* form = new QFormLayout;
    auto* box = new QWidget(this);
    auto* bv = new QVBoxLayout(box);
    bv->setContentsMargins(0, 0, 0, 0);
    bv->setSpacing(1);
    // In the C locale, as the New run dialog takes it: "1e-4" reads the same everywhere.
    lr_ = new QLineEdit(QLocale::c().toString(diverged_lr / 10, 'g', 6), box);
    lr_->setObjectName(QStringLiteral("rollbackLr"));
    bv->addWidget(lr_);
    error_ = new QLabel(box);
    error_->setObjectName(QStringLiteral("rollbackLrError"));
    error_->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    error_->hide();
    bv->addWidget(error_);
    form->addRow(settingLabel(QStringLiteral("lr")), box);
    v->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    rollback_ = buttons->addButton(tr("Roll back"), QDialogButtonBox::AcceptRole);
    rollback_->setObjectName(QStringLiteral("rollbackButton"));
    v->addWidget(buttons);
    connect(lr_, &QLineEdit::textChanged, this, [this] { validate(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(rollback_, &QPushButton::clicked, this, [this] {
        if (const auto lr = learningRate()) {
            Q_EMIT rollbackRequested(*lr);
            accept();
        }
    });
    validate();
}

std::optional<double> RollbackDialog::learningRate() const {
    bool ok = false;
    const double lr = QLocale::c().toDouble(lr_->text().trimmed(), &ok);
    if (!ok || !savepoint::TrainConfig::rule("lr").admits(lr)) return std::nullopt;
    return lr;
}

void RollbackDialog::validate() {
    bool ok = false;
    const QString text = lr_->text().trimmed();
    QLocale::c().toDouble(text, &ok);
    QString err;
    if (!ok)
        err = tr("Enter a number such as 0.001 or 1e-3");
    else if (!learningRate())
        err = tr("Expected %1; found %2.")
                  .arg(ruleText(savepoint::TrainConfig::rule("lr")),
                       foundText(savepoint::TrainConfig::rule("lr"), text.toStdString()));
    error_->setText(err);
    error_->setVisible(!err.isEmpty());
    rollback_->setEnabled(err.isEmpty());
}

}  // namespace savepoint::ui
