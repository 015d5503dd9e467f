#!/bin/sh
# Writes a copy of LibTorch's libtorch_cpu without the DT_NEEDED entries it never
# uses, as `-Wl,--as-needed` would have linked it.
#
#   packaging/trim-libtorch.sh SOURCE_LIB OUTPUT_DIR
#
# Why: Debian's libtorch_cpu.so.1.13 lists OpenCV, FFmpeg, ZeroMQ, LMDB, LevelDB
# and OpenCL as needed, but calls none of them (not one of its undefined symbols
# is defined there). Loading, relocating and initialising them and the ~240
# libraries they pull in is about half of every Savepoint process's start-up
# (0.55 s -> 0.30 s for a program that does one LibTorch op).
#
# Safe by construction: an entry is dropped only when the library it names
# defines none of the symbols libtorch_cpu leaves undefined (weak ones
# included), so nothing libtorch_cpu can call goes missing. The code bytes are
# the system's; only the dynamic section changes. The copy is named by the
# source's soname, so executables with OUTPUT_DIR in their run path load it
# instead of the system file. After patching, `ldd -r` must find no undefined
# symbol in the copy that it does not find in the source, or nothing is written.
#
# Runs on every build and returns at once while the source is the file it was
# made from (device, inode, size, mtime, ctime): an apt upgrade replaces the
# file, which changes its inode and ctime, and the copy is made again.
set -eu
src=$1
out=$2
patchelf=${PATCHELF:-patchelf}
command -v "$patchelf" >/dev/null || { echo "trim-libtorch: patchelf not found (apt-get install patchelf)" >&2; exit 1; }
[ -f "$src" ] || { echo "trim-libtorch: $src: no such file" >&2; exit 1; }

soname=$("$patchelf" --print-soname "$src")
[ -n "$soname" ] || { echo "trim-libtorch: $src has no soname" >&2; exit 1; }
fingerprint="$(stat -L -c '%d %i %s %Y %Z' "$src") $src"
if [ -f "$out/$soname" ] && [ -f "$out/source.txt" ] && [ "$(cat "$out/source.txt")" = "$fingerprint" ]; then
    exit 0
fi
mkdir -p "$out"
work=$(mktemp -d "$out/.trim.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

# symbols KIND FILE OUT: the dynamic symbol names (no version) nm lists as KIND.
# nm runs outside the pipeline, so a failing nm stops the script (an empty list
# would make every entry look unused).
symbols() {
    nm -D "--$1-only" "$2" > "$work/nm"
    awk '{print $NF}' "$work/nm" | sed 's/@.*//' | sort -u > "$3"
}
symbols undefined "$src" "$work/undefined"
[ -s "$work/undefined" ] || { echo "trim-libtorch: no undefined symbols read from $src" >&2; exit 1; }
ldd "$src" > "$work/ldd"

removed=
for needed in $("$patchelf" --print-needed "$src"); do
    path=$(awk -v n="$needed" '$1 == n && $2 == "=>" {print $3}' "$work/ldd")
    # Not resolvable by name (the dynamic loader itself, or a missing library):
    # keep it, and let the loader report what it reports today.
    [ -n "$path" ] && [ -f "$path" ] || continue
    symbols defined "$path" "$work/defined"
    if [ -z "$(comm -12 "$work/defined" "$work/undefined" | head -n 1)" ]; then
        removed="$removed $needed"
    fi
done

cp "$src" "$work/$soname"
args=
for needed in $removed; do args="$args --remove-needed $needed"; done
# A run path relative to the library ($ORIGIN, as in the official LibTorch
# archives, whose libraries find their siblings that way) must keep pointing
# at the source's directory, not at the copy's.
rpath=$("$patchelf" --print-rpath "$src")
case $rpath in
*'$ORIGIN'*)
    srcdir=$(cd "$(dirname "$src")" && pwd -P)
    # shellcheck disable=SC2016
    rpath=$(printf '%s' "$rpath" | sed "s|\$ORIGIN|$srcdir|g; s|\${ORIGIN}|$srcdir|g")
    args="$args --set-rpath $rpath"
    ;;
esac
# One patchelf call: it rewrites the whole 120 MB file each time.
[ -z "$args" ] || "$patchelf" $args "$work/$soname"

# Every symbol the source resolves, the copy must resolve too.
undefined_in() { LD_LIBRARY_PATH="$1" ldd -r "$2" 2>&1 | grep -c 'undefined symbol' || true; }
before=$(undefined_in "" "$src")
after=$(undefined_in "$work" "$work/$soname")
if [ "$after" -gt "$before" ]; then
    echo "trim-libtorch: the trimmed copy leaves $after symbols undefined, the source $before; not using it" >&2
    exit 1
fi

mv -f "$work/$soname" "$out/$soname"
printf '%s\n' $removed > "$out/removed-needed.txt"
printf '%s\n' "$fingerprint" > "$out/source.txt"
if [ -n "$removed" ]; then
    echo "trim-libtorch: $out/$soname without$(printf ' %s' $removed | sed 's/ /, /g; s/^,//')"
else
    echo "trim-libtorch: $out/$soname: every needed library is used; nothing dropped"
fi
