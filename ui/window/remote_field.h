// The remote storage field, as the New run dialog and "Open runs from remote
// storage…" check it: the s3:// URI's form and that credentials are found
// (remote/s3_uri.h, remote/s3_settings.h), without the network; the store
// itself answers when training or the pull starts. GUI thread only.
#pragma once

#include <QString>

namespace savepoint::ui {

// The translated message beside the field, or empty when `uri` may be used
// (an empty one too, unless `required`).
QString checkRemoteUri(const QString& uri, bool required = false);

}  // namespace savepoint::ui
