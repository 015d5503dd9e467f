// What a first start shows over the empty plot: how to begin (New run…) and a
// button for the one-minute demo. Centred over its parent and kept there as
// the parent resizes; MainWindow shows it while no run exists. GUI thread only.
#pragma once

#include <QFrame>

class QLabel;

namespace savepoint::ui {

class FirstLaunchHint : public QFrame {
    Q_OBJECT
public:
    explicit FirstLaunchHint(QWidget* over);

Q_SIGNALS:
    void newRunClicked();
    void demoClicked();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void recentre();
};

}  // namespace savepoint::ui
