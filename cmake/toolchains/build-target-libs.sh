#!/bin/sh
# build-target-libs.sh TARGET PREFIX - build the runtime's libraries
# (libunwind, libdw and libelf, with the zlib libdw needs) for a cross
# target from Debian 12's source packages, into PREFIX (lib/, include/,
# lib/pkgconfig/), for a target Debian 12 has no packages of: riscv64
# (see README.md in this directory).  Then configure with
#   -DZEROINST_TARGET_LIBS=PREFIX
# and the runtime links them (its RUNPATH names PREFIX/lib, so programs
# find them under qemu-riscv64 -L /usr/riscv64-linux-gnu).
#
# The sources are fetched by ../shared/tools/debian-source (or the tool
# named by ZEROINST_DEBIAN_SOURCE) into PREFIX/src; nothing is installed
# on the system.  Idempotent: a PREFIX with a complete build is kept.
# About a minute on two cores.
set -eu
target=${1:?usage: build-target-libs.sh TARGET PREFIX (TARGET: riscv64)}
prefix=${2:?usage: build-target-libs.sh TARGET PREFIX}
case $target in
  riscv64) triple=riscv64-linux-gnu ;;
  *) echo "build-target-libs.sh: unknown target '$target' (riscv64)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
fetch=${ZEROINST_DEBIAN_SOURCE:-$here/../../../shared/tools/debian-source}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
stamp=$prefix/.complete-$triple
if [ -f "$stamp" ]; then
  echo "build-target-libs.sh: $prefix is complete"
  exit 0
fi
command -v "$triple-gcc" >/dev/null || {
  echo "build-target-libs.sh: no $triple-gcc (sh cmake/install-deps.sh)" >&2; exit 1; }
[ -x "$fetch" ] || {
  echo "build-target-libs.sh: no $fetch to fetch Debian sources (set ZEROINST_DEBIAN_SOURCE)" >&2
  exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
src=$prefix/src
work=$prefix/build
rm -rf "$work"
mkdir -p "$src" "$work"
log=$prefix/build.log
: > "$log"
# Each step's output goes to the log; a failing step prints its tail.
step () {
  echo "build-target-libs.sh: $1" >&2
  shift
  if ! "$@" >> "$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "build-target-libs.sh: failed (whole log: $log)" >&2
    exit 1
  fi
}
# The newest version of a source package can be listed by the security
# suite before its files are on the mirror (a 404): then the release's own
# version is taken (apt-get source PACKAGE/CODENAME), which the fetch tool
# unpacks and then, asked for PACKAGE again, finds.
codename=$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") 2>/dev/null || true)
unpack () {
  dir=$("$fetch" "$1" "$src" 2>> "$log") || {
    if [ -n "$codename" ]; then
      echo "build-target-libs.sh: '$1' not fetched; trying $1/$codename" >&2
      "$fetch" "$1/$codename" "$src" >> "$log" 2>&1 || true
    fi
    dir=$("$fetch" "$1" "$src" 2>> "$log") || {
      tail -n 30 "$log" >&2
      echo "build-target-libs.sh: could not fetch Debian source '$1'" >&2
      exit 1; }
  }
  cp -a "$dir" "$work/$1"
}

# zlib, static and position-independent: linked into libdw.so.
unpack zlib
step "zlib: build" sh -c "cd '$work/zlib' && CC=$triple-gcc CFLAGS='-O2 -fPIC' \
  ./configure --prefix='$prefix' --static && make -j$jobs libz.a && make install"

# libunwind: local unwinding only (no ptrace/coredump/setjmp parts, no
# compressed debug sections).
unpack libunwind
step "libunwind: configure" sh -c "cd '$work/libunwind' && ./configure --host=$triple \
  --prefix='$prefix' --disable-tests --disable-documentation --disable-minidebuginfo \
  --disable-zlibdebuginfo --disable-coredump --disable-ptrace --disable-setjmp \
  CFLAGS='-O2 -g -fasynchronous-unwind-tables'"
step "libunwind: build" make -C "$work/libunwind" -j"$jobs"
step "libunwind: install" make -C "$work/libunwind" install
# libunwind's unwind.h would hide GCC's own <unwind.h>.
rm -f "$prefix/include/unwind.h"

# elfutils: libelf and libdw only (with libdwfl, libdwelf and the backends
# libdw links in); no debuginfod, no compression but zlib's.
unpack elfutils
step "elfutils: configure" sh -c "cd '$work/elfutils' && ./configure --host=$triple \
  --prefix='$prefix' --disable-debuginfod --disable-libdebuginfod --without-bzlib \
  --without-lzma --without-zstd --disable-demangler --disable-nls \
  CPPFLAGS='-I$prefix/include' LDFLAGS='-L$prefix/lib' CFLAGS='-O2 -g'"
for d in lib libelf libebl libdwelf libdwfl libcpu backends libdw; do
  step "elfutils: build $d" make -C "$work/elfutils/$d" -j"$jobs"
done
for d in libelf libdw libdwfl libdwelf; do
  step "elfutils: install $d" make -C "$work/elfutils/$d" install
done
step "elfutils: pkg-config files" make -C "$work/elfutils/config" install-pkgconfigDATA

for pc in libunwind libdw libelf; do
  [ -f "$prefix/lib/pkgconfig/$pc.pc" ] || {
    echo "build-target-libs.sh: $prefix/lib/pkgconfig/$pc.pc missing after the build" >&2; exit 1; }
done
rm -rf "$work"
touch "$stamp"
echo "build-target-libs.sh: $triple libraries in $prefix"
