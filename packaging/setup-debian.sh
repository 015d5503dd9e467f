#!/usr/bin/env bash
# Installs everything Savepoint needs on Debian 12 (as root), then configures
# and builds into ./build. Safe to run again: apt and cmake skip what is done.
#
#   packaging/setup-debian.sh            install, build the desktop app and savepoint-cli
#   packaging/setup-debian.sh --tests    ... and everything else: tests (with python3-torch), benchmarks
#   packaging/setup-debian.sh --bench    ... and Google Benchmark, for the
#                                        PyTorch comparison (implies --tests)
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0 bench=0
for arg in "$@"; do
  case "$arg" in
    --tests) tests=1 ;;
    --bench) tests=1 bench=1 ;;
    *) echo "setup-debian.sh: unknown option '$arg' (expected --tests or --bench)" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake ccache pkg-config
  libtorch-dev libgloo-dev
  # Debian's LibTorch defaults to the reference BLAS; OpenBLAS (OpenMP build,
  # sharing LibTorch's thread pool) is 5-20x faster on these matrix sizes.
  libopenblas0-openmp libopenblas-dev
  patchelf  # trims unused libraries from LibTorch (packaging/trim-libtorch.sh)
  libsqlite3-dev libssl-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libcurl4-openssl-dev
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6 libqcustomplot-dev
  qt6-translations-l10n
  dataset-fashion-mnist
  xvfb xauth fonts-dejavu-core
)
if ((tests)); then packages+=(clang-format-14); fi  # .ci/run checks the layout
# test_export_loads reads savepoint-cli export's files with torch.load (it is skipped without torch);
# test_data_parallel starts jobs with its torchrun.
if ((tests)); then packages+=(python3-torch); fi
# The remote tests run against OpenStack Swift's S3 API on loopback (tests/remote/s3_server_start.sh).
if ((tests)); then packages+=(swift swift-proxy swift-object swift-container swift-account python3-swift curl); fi
if ((bench)); then packages+=(libbenchmark-dev); fi

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
# A newcomer waiting for the first window should not wait for ~60 test programs too.
if ((tests)); then
  cmake --build build -j"$(nproc)"
else
  cmake --build build -j"$(nproc)" --target savepoint savepoint-cli
fi
