// The questions the window asks before a destructive step or when a resume
// needs a directory, and how it opens a folder. MainWindow installs dialogs
// and the desktop's file manager; tests inject answers.
#pragma once

#include <QString>

#include <functional>

namespace savepoint::ui {

// True: go ahead.
using Confirm = std::function<bool(const QString& title, const QString& text)>;
// The directory chosen, or empty to cancel.
using ChooseDirectory = std::function<QString(const QString& title, const QString& start)>;
// Opens a local folder in the file manager; false when none could be launched.
using OpenFolder = std::function<bool(const QString& path)>;

}  // namespace savepoint::ui
