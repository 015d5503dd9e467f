// A non-modal message strip at the top of the window for errors, storage
// problems and the preemption countdown, with an optional action button.
// Never blocks (tests drive the window without dialogs). GUI thread only.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace savepoint::ui {

class Banner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Info, Warning, Error };
    explicit Banner(QWidget* parent = nullptr);

    // action: text of the action button (empty: none). Replaces what was shown.
    void showMessage(Kind kind, const QString& text, const QString& action = {});
    void setText(const QString& text);
    QString text() const;
    Kind kind() const { return kind_; }
    QPushButton* actionButton() const { return action_; }

Q_SIGNALS:
    void actionTriggered();
    void dismissed();

private:
    QLabel* label_;
    QPushButton* action_;
    QPushButton* close_;
    Kind kind_ = Kind::Info;
};

}  // namespace savepoint::ui
