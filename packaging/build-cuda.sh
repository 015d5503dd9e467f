#!/usr/bin/env bash
# Builds the engine, savepoint-cli and bench_train against a CUDA LibTorch (docs/CUDA.md). Run from
# the project root:
#   on a GPU server, with the kit packaging/gpu-kit.sh staged:  bash .gpu-kit/build-cuda.sh [BUILD_DIR]
#   on a workstation with Qt 6 and the dev packages installed:  packaging/build-cuda.sh --gui [BUILD_DIR]
#
#   build-cuda.sh [--gui] [--configure-only] [BUILD_DIR] [extra cmake args...]
#     BUILD_DIR         default build-cuda (ignored by git, as every /build*/)
#     --gui             the desktop app too (needs Qt 6 and QCustomPlot on this machine)
#     --configure-only  stop after cmake's configure step
#   TORCH_PREFIX=DIR    LibTorch's CMake prefix, instead of the one of `python3`'s torch (PYTHON=...)
#   SAVEPOINT_GPU_KIT=DIR  the kit, instead of the folder holding this script or ./.gpu-kit (none: the system's packages)
# Writes BUILD_DIR/env.sh, the LD_LIBRARY_PATH to run the binaries with.
set -euo pipefail
die() { echo "build-cuda.sh: $*" >&2; exit 2; }

gui=0 configure_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --gui) gui=1; shift ;;
    --configure-only) configure_only=1; shift ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    --*) die "unknown option '$1' (expected --gui, --configure-only, a build folder or -D... cmake arguments)" ;;
    *) break ;;
  esac
done
B=build-cuda
if [ $# -gt 0 ] && [[ $1 != -* ]]; then B=$1; shift; fi
{ [ -f CMakeLists.txt ] && [ -d engine ]; } || die "run from the project root (expected CMakeLists.txt and engine/ in $PWD)"
command -v cmake >/dev/null || die "needs cmake (>= 3.21) on PATH"

# The kit: given, beside this script (.gpu-kit/build-cuda.sh), or ./.gpu-kit; none on a workstation.
here=$(cd "$(dirname "$0")" && pwd)
kit=${SAVEPOINT_GPU_KIT:-}
if [ "$kit" = none ]; then kit=
elif [ -z "$kit" ]; then
  if [ -d "$here/prefix/usr" ]; then kit=$here; elif [ -d .gpu-kit/prefix/usr ]; then kit=$PWD/.gpu-kit; fi
fi
[ -z "$kit" ] || [ -d "$kit/prefix/usr/include" ] || die "SAVEPOINT_GPU_KIT=$kit: expected a kit from packaging/gpu-kit.sh (prefix/usr/include), found none"

# LibTorch: the machine's PyTorch's, which must have CUDA, unless a prefix is given.
if [ -n "${TORCH_PREFIX:-}" ]; then
  TP=$TORCH_PREFIX
  echo "build-cuda.sh: LibTorch from TORCH_PREFIX=$TP (not checked for CUDA)"
else
  py=${PYTHON:-python3}
  command -v "$py" >/dev/null || die "no $py to find PyTorch's LibTorch (set PYTHON or TORCH_PREFIX)"
  info=$("$py" -c 'import torch; print(torch.utils.cmake_prefix_path); print(torch.__version__); print(torch.version.cuda or "none")') \
    || die "$py cannot import torch (set PYTHON to one that can, or TORCH_PREFIX to a LibTorch's cmake folder)"
  { read -r TP; read -r tv; read -r tcuda; } <<<"$info"
  [ "$tcuda" != none ] || die "$py's torch $tv has no CUDA (torch.version.cuda is None): install a CUDA build, or set TORCH_PREFIX"
  echo "build-cuda.sh: LibTorch of torch $tv (CUDA $tcuda) at $TP"
fi
[ -f "$TP/Torch/TorchConfig.cmake" ] || die "expected $TP/Torch/TorchConfig.cmake (LibTorch's CMake package), found none"

args=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$TP${kit:+;$kit/prefix/usr}"
      -DSAVEPOINT_BUILD_TESTS=OFF -DSAVEPOINT_BUILD_BENCHMARKS=ON
      # The trimmed copy is of Debian's libtorch_cpu (packaging/TrimLibTorch.cmake); a wheel's is loaded as is.
      -DSAVEPOINT_TRIM_LIBTORCH=OFF)
if ((gui)); then args+=(-DSAVEPOINT_BUILD_GUI=ON); else args+=(-DSAVEPOINT_BUILD_GUI=OFF); fi
if command -v ninja >/dev/null; then args+=(-G Ninja); else args+=(-G "Unix Makefiles"); fi
# One architecture, the GPU's own, instead of every one the wheel's CMake would list.
if cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | sed -n 1p) && [ -n "$cc" ]; then
  export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-$cc}
  [[ " $* " == *CMAKE_CUDA_ARCHITECTURES* ]] || args+=("-DCMAKE_CUDA_ARCHITECTURES=${cc/./}")
fi

libpath=
if [ -n "$kit" ]; then
  P=$kit/prefix/usr lib=$kit/prefix/usr/lib/x86_64-linux-gnu
  if need=$(sed -n 's/^glibc_min=//p' "$kit/KIT.txt" 2>/dev/null) && [ -n "$need" ]; then
    have=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
    [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | sed -n 1p)" = "$need" ] \
      || die "the kit's libraries need glibc >= $need, this machine has $have (stage a kit from an older Debian)"
  fi
  # zlib is the machine's own (gpu-kit.sh stages only its headers).
  zlib=$({ ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | awk '$1 == "libz.so.1" && /x86-64/ && !z {z = $NF} END {print z}')
  for z in /lib/x86_64-linux-gnu/libz.so.1 /usr/lib64/libz.so.1 /usr/lib/libz.so.1; do
    if [ -z "$zlib" ] && [ -e "$z" ]; then zlib=$z; fi
  done
  [ -n "$zlib" ] || die "expected a libz.so.1 on this machine (ldconfig -p lists none)"
  args+=("-DOPENSSL_ROOT_DIR=$P" "-DSQLite3_INCLUDE_DIR=$P/include" "-DSQLite3_LIBRARY=$lib/libsqlite3.so"
         "-DZLIB_INCLUDE_DIR=$P/include" "-DZLIB_LIBRARY=$zlib"
         "-DCURL_INCLUDE_DIR=$P/include" "-DCURL_LIBRARY=$lib/libcurl.so"
         "-DCLI11_DIR=$P/share/cmake/CLI11" "-Dnlohmann_json_DIR=$P/share/cmake/nlohmann_json"
         # Gloo's headers, which c10d's ProcessGroupGloo.hpp includes and the wheel does not ship.
         "-DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES=$P/include"
         # libcurl's own dependencies, for the linker only: on LD_LIBRARY_PATH they would also
         # replace the libraries of the machine's cmake and compilers.
         "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-rpath-link,$lib" "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,-rpath-link,$lib")
  libpath=$lib
fi

mkdir -p "$B"
echo "build-cuda.sh: configuring $B (log: $B/configure.log)"
cmake -S . -B "$B" "${args[@]}" "$@" >"$B/configure.log" 2>&1 || { tail -40 "$B/configure.log"; die "configure failed (all of it in $B/configure.log)"; }
grep '^-- Savepoint:' "$B/configure.log" || true
echo "export LD_LIBRARY_PATH=${libpath}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" >"$B/env.sh"
((configure_only)) && { echo "build-cuda.sh: configured $B (--configure-only)"; exit 0; }

targets=(savepoint-cli)
# bench_train exists only where CMake adds tests/benchmarks (docs/CUDA.md says when).
if cmake --build "$B" --target help 2>/dev/null | grep -qw bench_train; then targets+=(bench_train)
else echo "build-cuda.sh: note: this configuration has no bench_train target (tests/benchmarks is added only with SAVEPOINT_BUILD_TESTS=ON)"; fi
((gui)) && targets+=(savepoint)
echo "build-cuda.sh: building ${targets[*]} with $(nproc) jobs (log: $B/build.log)"
start=$(date +%s)
cmake --build "$B" -j"$(nproc)" --target "${targets[@]}" >"$B/build.log" 2>&1 \
  || { grep -m10 -A8 -E 'error|Error' "$B/build.log" || tail -40 "$B/build.log"; die "build failed (all of it in $B/build.log)"; }
echo "build-cuda.sh: built in $(($(date +%s) - start)) s:"
for t in app/savepoint-cli tests/benchmarks/bench_train app/savepoint; do
  if [ -x "$B/$t" ]; then echo "  $B/$t"; fi
done
if [ -n "$libpath" ]; then
  echo "run them with: export LD_LIBRARY_PATH=$libpath\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}   (or: . $B/env.sh)"
  echo "data: --data $kit/data (Fashion-MNIST), or SAVEPOINT_FASHION_MNIST_DIR=$kit/data"
fi
