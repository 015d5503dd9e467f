// How the window words the engine's verdict on a setting (an InputError's
// data, never its command-line text): the setting by its label in the New run
// dialog, its range or choices in translated words, numbers in the user's
// locale. The translations live in the NewRunDialog context, beside the labels.
// GUI thread (they translate).
#pragma once

#include "platform/field_rule.h"

#include <QString>

#include <string>

namespace savepoint::ui {

// The label of a setting in the New run dialog, by the engine's field name
// ("batch" -> "Batch size"; "steps-per-epoch" and "steps_per_epoch" alike);
// the name itself for a field the dialog does not show.
QString settingLabel(const QString& field);

// What a setting takes, in the user's language: "a whole number from 1 to
// 65,536", "one of adam, sgd". Empty for a rule of kind None.
QString ruleText(const savepoint::FieldRule& rule);

// A value the engine found, with the locale's digits when the rule is numeric.
QString foundText(const savepoint::FieldRule& rule, const std::string& found);

// "<Label>: expected <what>, found <value>." — the rule's words when it has
// one, else the engine's `expected` as it is.
QString settingRefusalText(const std::string& field, const std::string& expected, const std::string& found,
                           const savepoint::FieldRule& rule);

}  // namespace savepoint::ui
