// Small IDX files (the format of MNIST and Fashion-MNIST) written by tests
// that need a dataset directory of their own: a run trained on one, then moved
// or changed. 28x28 images of one grey value; labels 0..9 in turn. be32 is
// also what the IDX reader's tests build their malformed headers from, and
// gzip what every test that writes `.gz` files compresses them with.
#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <zlib.h>

namespace testsupport {

inline QByteArray be32(quint32 v) {
    QByteArray b(4, '\0');
    b[0] = char(v >> 24);
    b[1] = char(v >> 16);
    b[2] = char(v >> 8);
    b[3] = char(v);
    return b;
}

inline QByteArray idxImages(quint32 n, quint32 magic = 0x00000803) {
    QByteArray b = be32(magic) + be32(n) + be32(28) + be32(28);
    b.append(QByteArray(int(n) * 28 * 28, '\x10'));
    return b;
}

inline QByteArray idxLabels(quint32 n) {
    QByteArray b = be32(0x00000801) + be32(n);
    for (quint32 i = 0; i < n; ++i) b.append(char(i % 10));
    return b;
}

// gzip (not zlib) framing, as produced by the gzip tool: windowBits 15 + 16.
inline QByteArray gzip(const QByteArray& in) {
    z_stream zs{};
    if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) qFatal("deflateInit2 failed");
    QByteArray out(int(deflateBound(&zs, uLong(in.size()))) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = uInt(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) qFatal("deflate failed");
    out.resize(int(zs.total_out));
    deflateEnd(&zs);
    return out;
}

}  // namespace testsupport
