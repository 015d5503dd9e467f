#!/usr/bin/env bash
# Installs everything Savepoint needs on Debian 12 (as root), then configures
# and builds into ./build. Safe to run again: apt and cmake skip what is done.
#
#   packaging/setup-debian.sh            install + build
#   packaging/setup-debian.sh --bench    also python3-torch, for the PyTorch comparison
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ccache pkg-config
  libtorch-dev libgloo-dev
  # Debian's LibTorch defaults to the reference BLAS; OpenBLAS (OpenMP build,
  # sharing LibTorch's thread pool) is 5-20x faster on these matrix sizes.
  libopenblas0-openmp libopenblas-dev
  patchelf  # trims unused libraries from LibTorch (packaging/trim-libtorch.sh)
  libsqlite3-dev libssl-dev zlib1g-dev nlohmann-json3-dev libcli11-dev
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6 libqcustomplot-dev
  qt6-translations-l10n
  dataset-fashion-mnist
  xvfb xauth fonts-dejavu-core
)
if [[ "${1:-}" == "--bench" ]]; then packages+=(python3-torch libbenchmark-dev); fi

if [[ $(id -u) -eq 0 ]]; then SUDO=; else SUDO=sudo; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Make sure LibTorch resolves libblas.so.3 to OpenBLAS, not the reference BLAS.
arch_triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
for lib in libblas.so.3 libopenblas.so.0 liblapack.so.3; do
  target=/usr/lib/$arch_triplet/openblas-openmp/$lib
  [[ -e $target ]] && $SUDO update-alternatives --set "$lib-$arch_triplet" "$target" >/dev/null
done

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build build -j"$(nproc)"
