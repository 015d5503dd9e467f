// The questions the window asks before a destructive step or when a resume
// needs a directory. MainWindow installs dialogs; tests inject answers.
#pragma once

#include <QString>

#include <functional>

namespace savepoint::ui {

// True: go ahead.
using Confirm = std::function<bool(const QString& title, const QString& text)>;
// The directory chosen, or empty to cancel.
using ChooseDirectory = std::function<QString(const QString& title, const QString& start)>;

}  // namespace savepoint::ui
