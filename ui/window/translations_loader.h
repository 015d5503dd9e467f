// Loads the application's translations (embedded by qt_add_translations under
// :/i18n) and Qt's own, for a language code ("pt_BR", "fr", "en") or, when the
// code is empty or "system", for the system locale. Call from the GUI thread.
#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;
class QTranslator;

namespace savepoint::ui {

// Languages the application ships, as codes.
QStringList availableLanguages();
QString languageName(const QString& code);  // in that language ("Português (Brasil)")

// The locale whose numbers, dates and sizes go with a language code ("system": the system's).
QLocale localeFor(const QString& code);

// Installs translators on the application (removing ones installed earlier by
// this function) and makes localeFor(code) the default QLocale. Widgets take the
// default when they are created, so call it before the window is built (a change
// from the Language menu applies at the next start, as the window says).
// Returns the code actually loaded ("en" when none matched).
QString installTranslations(const QString& code);

// Loads the application translator for `code` into `t` (used by tests).
bool loadAppTranslator(QTranslator& t, const QString& code);

}  // namespace savepoint::ui
