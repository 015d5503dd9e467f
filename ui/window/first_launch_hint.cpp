#include "window/first_launch_hint.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace savepoint::ui {

FirstLaunchHint::FirstLaunchHint(QWidget* over) : QFrame(over) {
    setObjectName(QStringLiteral("firstLaunchHint"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(18, 14, 18, 14);
    auto* text = new QLabel(tr("Start a training run with New run… (%1), or watch a one-minute demo: a run, a crash, "
                               "a rollback.")
                                .arg(QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText)),
                            this);
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignCenter);
    v->addWidget(text);
    auto* h = new QHBoxLayout;
    h->addStretch(1);
    auto* new_run = new QPushButton(tr("New run…"), this);
    new_run->setObjectName(QStringLiteral("hintNewRunButton"));
    new_run->setDefault(true);
    auto* demo = new QPushButton(tr("Run the demo"), this);
    demo->setObjectName(QStringLiteral("hintDemoButton"));
    h->addWidget(new_run);
    h->addWidget(demo);
    h->addStretch(1);
    v->addLayout(h);
    connect(new_run, &QPushButton::clicked, this, &FirstLaunchHint::newRunClicked);
    connect(demo, &QPushButton::clicked, this, &FirstLaunchHint::demoClicked);
    setAccessibleName(tr("Getting started"));
    over->installEventFilter(this);
    recentre();
}

bool FirstLaunchHint::eventFilter(QObject* o, QEvent* e) {
    if (o == parent() && e->type() == QEvent::Resize) recentre();
    return QFrame::eventFilter(o, e);
}

void FirstLaunchHint::recentre() {
    const QWidget* p = parentWidget();
    const int w = std::min(p->width() - 24, std::max(320, p->width() / 2));
    const int h = heightForWidth(w) > 0 ? heightForWidth(w) : sizeHint().height();
    setGeometry((p->width() - w) / 2, (p->height() - h) / 2, w, h);
    raise();
}

}  // namespace savepoint::ui
