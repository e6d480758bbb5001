#!/bin/sh
# install-deps.sh - install what building and testing zeroinst needs on
# Debian 12 (as root; idempotent: packages already present are kept).
#   compilers and GCC plugin headers, CMake, python3 (test harnesses),
#   jansson (the zeroinst command), csmith and gcc-12-source (semantics
#   tests), dpkg-dev (fetching Debian sources for integration tests),
#   hyperfine (benchmarks).
set -eu
packages="gcc g++ gfortran gcc-12-plugin-dev make cmake pkg-config python3
  libjansson-dev libunwind-dev libdw-dev libelf-dev
  csmith libcsmith-dev gcc-12-source dpkg-dev xz-utils hyperfine time"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  # shellcheck disable=SC2086
  apt-get install -y --no-install-recommends $missing
fi
