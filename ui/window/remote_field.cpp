#include "window/remote_field.h"

#include "platform/errors.h"
#include "remote/s3_settings.h"
#include "remote/s3_uri.h"
#include "window/new_run_dialog.h"
#include "window/setting_words.h"

namespace savepoint::ui {

QString checkRemoteUri(const QString& uri, bool required) {
    if (uri.isEmpty())
        return required ? NewRunDialog::tr("Enter the storage's address, such as s3://my-bucket/checkpoints")
                        : QString();
    try {
        savepoint::parse_s3_uri(uri.toStdString());
        savepoint::s3_settings_from_environment();
    } catch (const savepoint::InputError& e) {
        if (e.field().empty()) return QString::fromUtf8(e.what());
        return settingRefusalText(e.field(), e.expected(), e.found(), e.rule());
    }
    return {};
}

}  // namespace savepoint::ui
