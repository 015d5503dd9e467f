// "Roll back to the last good checkpoint" after a divergence: names the
// checkpoint, offers a learning rate (a tenth of the one that diverged) and
// checks it beside the field as the New run dialog does, with the engine's own
// rule. Non-modal (tests drive the window without dialogs); Roll back emits
// rollbackRequested with the rate. GUI thread only.
#pragma once

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace savepoint::ui {

class RollbackDialog : public QDialog {
    Q_OBJECT
public:
    RollbackDialog(qint64 checkpoint_id, const QString& where, double diverged_lr, QWidget* parent = nullptr);

    // The rate typed, when it is one the engine accepts.
    std::optional<double> learningRate() const;
    QLineEdit* lrField() const { return lr_; }
    QLabel* lrError() const { return error_; }
    QPushButton* rollbackButton() const { return rollback_; }

Q_SIGNALS:
    void rollbackRequested(double lr);

private:
    void validate();

    QLineEdit* lr_;
    QLabel* error_;
    QPushButton* rollback_;
};

}  // namespace savepoint::ui
