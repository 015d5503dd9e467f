// How the tables and the status bar show a number: in the user's locale, a dash when it is not finite.
#pragma once

#include <QLocale>
#include <QString>

#include <cmath>

namespace savepoint::ui {

inline QString localeNumber(double v, int prec) {
    return std::isfinite(v) ? QLocale().toString(v, 'f', prec) : QStringLiteral("–");
}

inline QString localeCount(long long v) { return QLocale().toString(v); }

}  // namespace savepoint::ui
