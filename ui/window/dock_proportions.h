// Keeps the main window's docks at a share of the window, not at a pixel size:
// the left column (runs above the fault-tolerance panel) and the bottom dock
// (checkpoints, events) grow back when the window grows, and a size restored
// from the settings cannot leave a sliver. A separator the user drags sets the
// new share. GUI thread only.
#pragma once

#include <QList>
#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;

namespace savepoint::ui {

class DockProportions : public QObject {
    Q_OBJECT
public:
    DockProportions(QMainWindow* window, QDockWidget* runs, QDockWidget* panel, QDockWidget* bottom);

    // Shares: left column / window width, runs / left column height, bottom dock / window height.
    QList<double> shares() const { return {left_, runs_share_, bottom_}; }
    void setShares(const QList<double>& shares);  // clamped to sensible ranges; ignores a malformed list
    void apply();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scheduleApply();

    QMainWindow* window_;
    QDockWidget *runs_, *panel_, *bottom_dock_;
    double left_ = 0.30, runs_share_ = 0.34, bottom_ = 0.26;
    bool pending_ = false;
    QSize applied_;  // window size the shares were last applied at
};

}  // namespace savepoint::ui
