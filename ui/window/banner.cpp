#include "window/banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace savepoint::ui {

Banner::Banner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("banner"));
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(10, 6, 6, 6);
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    action_ = new QPushButton(this);
    close_ = new QPushButton(tr("Dismiss"), this);
    lay->addWidget(label_, 1);
    lay->addWidget(action_);
    lay->addWidget(close_);
    connect(action_, &QPushButton::clicked, this, &Banner::actionTriggered);
    connect(close_, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT dismissed();
    });
    hide();
}

void Banner::showMessage(Kind kind, const QString& text, const QString& action) {
    kind_ = kind;
    const char* style = kind == Kind::Error     ? "QFrame#banner { background: #fdecea; border: 1px solid #e57373; "
                                                  "border-radius: 4px; } QLabel { color: #7f1d1d; }"
                        : kind == Kind::Warning ? "QFrame#banner { background: #fff4e5; border: 1px solid #ffb74d; "
                                                  "border-radius: 4px; } QLabel { color: #6d3b00; }"
                                                : "QFrame#banner { background: #e8f1fb; border: 1px solid #90caf9; "
                                                  "border-radius: 4px; } QLabel { color: #0d3c61; }";
    setStyleSheet(QString::fromLatin1(style));
    label_->setText(text);
    action_->setText(action);
    action_->setVisible(!action.isEmpty());
    show();
}

void Banner::setText(const QString& text) { label_->setText(text); }
QString Banner::text() const { return label_->text(); }

}  // namespace savepoint::ui
