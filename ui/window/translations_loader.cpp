#include "window/translations_loader.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace savepoint::ui {

QStringList availableLanguages() { return {QStringLiteral("en"), QStringLiteral("pt_BR"), QStringLiteral("fr")}; }

QString languageName(const QString& code) {
    if (code == QLatin1String("pt_BR")) return QStringLiteral("Português (Brasil)");
    if (code == QLatin1String("fr")) return QStringLiteral("Français");
    if (code == QLatin1String("en")) return QStringLiteral("English");
    return code;
}

QLocale localeFor(const QString& code) {
    return (code.isEmpty() || code == QLatin1String("system")) ? QLocale::system() : QLocale(code);
}

bool loadAppTranslator(QTranslator& t, const QString& code) {
    if (code.isEmpty() || code == QLatin1String("system"))
        return t.load(QLocale::system(), QStringLiteral("savepoint"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    return t.load(QStringLiteral("savepoint_") + code, QStringLiteral(":/i18n"));
}

QString installTranslations(const QString& code) {
    static QTranslator* app = nullptr;
    static QTranslator* qt = nullptr;
    for (QTranslator** t : {&app, &qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    app = new QTranslator(QCoreApplication::instance());
    QString loaded = QStringLiteral("en");
    if (loadAppTranslator(*app, code)) {
        QCoreApplication::installTranslator(app);
        loaded = app->language();
    }
    const QLocale locale = localeFor(code);
    // Numbers, dates and sizes follow the language: every QLocale() made from here on
    // (models, labels, and widgets created after this call) formats the way its readers read.
    QLocale::setDefault(locale);
    qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    return loaded.isEmpty() ? code : loaded;
}

}  // namespace savepoint::ui
