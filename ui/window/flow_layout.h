// A layout that places its items left to right and wraps them onto another row
// when the width runs out, so a row of controls fits a 1024-pixel window in
// every language. An item whose widget's horizontal policy is Ignored (a hint)
// takes what is left of its row instead of a row of its own. GUI thread only.
#pragma once

#include <QLayout>
#include <QList>

namespace savepoint::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hspacing = 6, int vspacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return place(QRect(0, 0, width, 0), false); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    int place(const QRect& rect, bool apply) const;  // returns the height used

    QList<QLayoutItem*> items_;
    int hspacing_, vspacing_;
};

}  // namespace savepoint::ui
