#!/bin/sh
# install-deps.sh - install what building and testing zeroinst needs on
# Debian 12 (as root; idempotent: packages already present are kept, and
# apt-get runs only when something is missing).
#   compilers and GCC plugin headers, CMake, python3 (test harnesses),
#   jansson (the zeroinst command), csmith and gcc-12-source (semantics
#   tests), dpkg-dev (fetching Debian sources for integration tests),
#   hyperfine (benchmarks), valgrind (cachegrind for the benchmark,
#   callgrind_annotate for the callgrind export's test), chromium (the
#   headless browser that loads `zeroinst html` pages in the tool's
#   tests), openmpi-bin and libopenmpi-dev (the MPI tests), the static libraries libdw needs in a -static link (bz2,
#   lzma, z);
#   cross targets (see cmake/toolchains/README.md): for each target in
#   ZEROINST_CROSS (default "aarch64 riscv64"; "" for none) its cross
#   gcc/g++/gfortran, the cross compiler's plugin headers, qemu-user; for
#   aarch64 also the arm64 libraries through multiarch (libunwind, libdw
#   and its bz2/lzma/z for -static,
#   libelf, pkgconf:arm64 for aarch64-linux-gnu-pkg-config, and the run-time
#   libraries of C++, Fortran and OpenMP programs, so that qemu-aarch64 runs
#   them without -L).
#   Debian 12 has no riscv64 multiarch archive (riscv64 became a release
#   architecture in Debian 13), so riscv64 gets compilers and qemu here;
#   cmake/toolchains/build-target-libs.sh builds its libunwind and libdw.
#
#   sh cmake/install-deps.sh                      native + aarch64 + riscv64
#   ZEROINST_CROSS=aarch64 sh cmake/install-deps.sh
#   ZEROINST_CROSS= sh cmake/install-deps.sh      native only
set -eu
packages="gcc g++ gfortran gcc-12-plugin-dev make cmake pkg-config python3
  libjansson-dev libunwind-dev libdw-dev libelf-dev libbz2-dev liblzma-dev zlib1g-dev
  csmith libcsmith-dev gcc-12-source dpkg-dev xz-utils hyperfine time valgrind chromium
  openmpi-bin libopenmpi-dev"
foreign="" cross=0
for t in ${ZEROINST_CROSS-aarch64 riscv64}; do
  case $t in
    aarch64)
      foreign="$foreign arm64"
      packages="$packages libunwind-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 pkgconf:arm64
        libbz2-dev:arm64 liblzma-dev:arm64 zlib1g-dev:arm64
        libstdc++6:arm64 libgfortran5:arm64 libgomp1:arm64" ;;
    riscv64) ;;
    *) echo "install-deps.sh: unknown cross target '$t' (aarch64, riscv64)" >&2; exit 2 ;;
  esac
  packages="$packages gcc-$t-linux-gnu g++-$t-linux-gnu gfortran-$t-linux-gnu
    gcc-12-plugin-dev-$t-linux-gnu"
  cross=1
done
if [ "$cross" = 1 ]; then
  packages="$packages qemu-user"
fi

export DEBIAN_FRONTEND=noninteractive
updated=0
for a in $foreign; do
  if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
    dpkg --add-architecture "$a"
    apt-get update
    updated=1
  fi
done
native=$(dpkg --print-architecture)
missing=""
for p in $packages; do
  # "name" means the native (or architecture-independent) package,
  # "name:arch" that architecture's.
  case $p in *:*) want=${p#*:} name=${p%%:*} ;; *) want=$native name=$p ;; esac
  dpkg-query -W -f='${db:Status-Abbrev} ${Architecture}\n' "$name" 2>/dev/null |
    grep -Eq "^ii +($want|all)\$" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$updated" = 1 ] || apt-get update
  # shellcheck disable=SC2086
  apt-get install -y --no-install-recommends $missing
fi
