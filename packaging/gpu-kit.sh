#!/usr/bin/env bash
# Stages into .gpu-kit/ what a GPU server's image lacks to build the engine and savepoint-cli
# (docs/CUDA.md): Debian 12's development files for SQLite, OpenSSL, zlib, libcurl, nlohmann-json,
# CLI11 and Gloo's headers (PyTorch 2.x's wheels ship c10d's ProcessGroupGloo.hpp but not the gloo/
# headers it includes), libcurl's runtime libraries, Fashion-MNIST and build-cuda.sh. Run on a Debian
# 12 machine from the project root; copy the checkout with .gpu-kit/ over and run
# `bash .gpu-kit/build-cuda.sh` there.
#
# Assumes of the GPU machine (written to .gpu-kit/KIT.txt, checked by build-cuda.sh): x86-64, a glibc
# at least as new as the staged libraries need, a libz.so.1 and a C++ compiler, CMake and Python with a
# CUDA PyTorch. Everything else the engine links comes from the kit, loaded through LD_LIBRARY_PATH.
#
# Idempotent: each run builds the kit afresh beside the old one and swaps it in whole.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f CMakeLists.txt ] || [ ! -d engine ]; then echo "gpu-kit.sh: expected the project root above packaging/, found $PWD" >&2; exit 2; fi
arch=x86_64-linux-gnu
data_src=${SAVEPOINT_FASHION_MNIST_DIR:-/usr/share/datasets/fashion-mnist}
kit=$PWD/.gpu-kit new=$PWD/.gpu-kit.new
for t in apt-get dpkg dpkg-query objdump; do
  command -v "$t" >/dev/null || { echo "gpu-kit.sh: needs '$t' (a Debian 12 machine with binutils)" >&2; exit 2; }
done
for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  [ -f "$data_src/$f.gz" ] || { echo "gpu-kit.sh: expected Fashion-MNIST's $f.gz in $data_src (apt-get install dataset-fashion-mnist, or set SAVEPOINT_FASHION_MNIST_DIR)" >&2; exit 2; }
done

# The development packages, and the runtime package behind each library they link.
dev=(libsqlite3-dev libsqlite3-0 libssl-dev libssl3 zlib1g-dev libcurl4-openssl-dev libcurl4
     nlohmann-json3-dev libcli11-dev libgloo-dev)

# libcurl's own dependencies (HTTP/2, SSH, Kerberos, LDAP, GnuTLS for RTMP, ...): a CUDA image rarely
# has them all. Read off the installed libcurl with ldd, minus glibc and zlib, which every image has.
curl_so=/usr/lib/$arch/libcurl.so.4
[ -e "$curl_so" ] || { echo "gpu-kit.sh: expected libcurl4 installed here ($curl_so) to find its dependencies: apt-get install libcurl4" >&2; exit 2; }
runtime=() keep=(libsqlite3.so libssl.so libcrypto.so libcurl.so)
while read -r so; do
  keep+=("$(basename "${so%.so*}").so")
  real=$(readlink -f "$so")
  pkg=
  for c in "$so" "$real" "${real#/usr}"; do  # usrmerge: dpkg knows one of the two paths
    pkg=$(dpkg-query -S "$c" 2>/dev/null | sed -n 1p | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  [ -n "$pkg" ] || { echo "gpu-kit.sh: no Debian package owns $so (a dependency of libcurl)" >&2; exit 1; }
  case "$pkg" in libc6 | zlib1g | libgcc-s1 | libstdc++6) ;; *) runtime+=("$pkg") ;; esac
done < <(ldd "$curl_so" | awk '$3 ~ /^\// {print $3}')
mapfile -t runtime < <(printf '%s\n' "${runtime[@]}" | sort -u)

# apt-get update may still be running (a fresh machine's setup): wait for its lock, not fail.
if command -v fuser >/dev/null; then
  for _ in $(seq 120); do
    fuser /var/lib/apt/lists/lock >/dev/null 2>&1 || break
    echo "gpu-kit.sh: apt's lists are locked (apt-get update running?); waiting" >&2; sleep 5
  done
fi

rm -rf "$new"; trap 'rm -rf "$new"' EXIT  # an interrupted run leaves the old kit as it was
mkdir -p "$new/debs" "$new/prefix" "$new/data"
# As root apt warns that it cannot drop to _apt in this folder; nothing else it says is dropped.
(cd "$new/debs" && apt-get download -q "${dev[@]}" "${runtime[@]}" 2> >(grep -v 'unsandboxed as root' >&2) >/dev/null) \
  || { echo "gpu-kit.sh: apt-get download failed for: ${dev[*]} ${runtime[*]} (run apt-get update?)" >&2; exit 1; }
for f in "$new"/debs/*.deb; do dpkg -x "$f" "$new/prefix"; done
# shellcheck disable=SC2016  # dpkg-deb's format, not the shell's
versions=$(for f in "$new"/debs/*.deb; do dpkg-deb --show --showformat='${Package}=${Version}\n' "$f"; done)
rm -rf "$new/debs"

p=$new/prefix/usr
lib=$p/lib/$arch
# Some packages still ship in /lib: one library directory for LD_LIBRARY_PATH.
if [ -d "$new/prefix/lib/$arch" ]; then cp -a "$new/prefix/lib/$arch/." "$lib/"; rm -rf "$new/prefix/lib"; fi
# FindOpenSSL and FindCURL look in <prefix>/include: bring Debian's multiarch headers there.
cp -rn "$p/include/$arch/." "$p/include/"; rm -rf "$p/include/$arch"
# Only Gloo's headers: the gloo code itself is inside the wheel's libtorch_cpu.
rm -rf "$p/lib/libgloo.so" "$p/share/cmake/Gloo" "$lib"/libgloo*
# zlib's runtime is the GPU machine's own (build-cuda.sh points ZLIB_LIBRARY at it); the dev link dangles.
rm -f "$lib/libz.so"
# Of the runtime packages' files, only the libraries libcurl loads: the kit travels with each device call.
for f in "$lib"/*; do
  stem=$(basename "$f"); stem=${stem%.so*}.so
  [[ " ${keep[*]} " == *" $stem "* ]] || rm -rf "$f"
done
rm -rf "${new:?}/prefix/etc" "${p:?}/bin" "$p/lib/sasl2" "$p/share/doc" "$p/share/man" "$p/share/lintian" "$p/share/bug" \
  "$p/share/locale" "$p/share/aclocal" "$p/share/pkgconfig"
cp "$data_src"/*-ubyte.gz "$new/data/"
cp packaging/build-cuda.sh "$new/"

# The newest glibc symbol version any staged library asks for: the GPU machine needs at least that.
glibc=$(objdump -T "$lib"/*.so.* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
{
  echo "# .gpu-kit, staged by packaging/gpu-kit.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(grep -m1 '^PRETTY_NAME=' /etc/os-release | cut -d'"' -f2)"
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "glibc_min=$glibc"
  echo "assumes=x86-64; glibc >= $glibc; libz.so.1; a C++17 compiler, CMake >= 3.21, python3 with a CUDA PyTorch"
  echo "lib=prefix/usr/lib/$arch (LD_LIBRARY_PATH for the build and for running)"
  echo "data=data (Fashion-MNIST IDX .gz: --data .gpu-kit/data)"
  echo "# packages:"
  echo "$versions"
} >"$new/KIT.txt"

rm -rf "$kit"; mv "$new" "$kit"
echo "gpu-kit.sh: staged $(du -sh "$kit" | cut -f1) in .gpu-kit/ ($(wc -l <<<"$versions") Debian packages, needs glibc >= $glibc on the GPU machine)"
echo "gpu-kit.sh: carry .gpu-kit with the checkout; on the GPU machine: bash .gpu-kit/build-cuda.sh"
