#!/bin/sh
# Package test: the CMake package and pkg-config file work from the build
# tree, from an install prefix, and from that prefix moved elsewhere
# (relocatable).  Each way builds tests/package/project/prog.c, runs it and
# checks the report: 10 elements, 70 redundant bytes.
#   run.sh BUILD_DIR
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail () { echo "FAIL: $*"; exit 1; }

check_report () {  # DIR
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
s = r["summary"]["int"]
assert (s["elements"], s["redundant_bytes"]) == (10, 70), s
PY
}

cmake_project () {  # PREFIX NAME
  cmake -S "$here/project" -B "$work/$2" -DCMAKE_PREFIX_PATH="$1" >/dev/null || fail "configure with $1"
  cmake --build "$work/$2" >/dev/null || fail "build with $1"
  out=$(ZEROINST_OUTPUT="$work/$2/report" "$work/$2/prog") || fail "run ($2)"
  [ "$out" = 10 ] || fail "output $out"
  check_report "$work/$2/report" || fail "report ($2)"
  ZEROINST_OUTPUT="$work/$2/plain-report" "$work/$2/plain" >/dev/null
  [ ! -e "$work/$2/plain-report" ] || fail "the uninstrumented target wrote a report"
  echo "ok: find_package from $2"
}

pkg_config_build () {  # PREFIX NAME
  pc="$1/lib/pkgconfig"
  plugin=$(PKG_CONFIG_PATH="$pc" pkg-config --variable=plugin zeroinst) || fail "pkg-config ($2)"
  libs=$(PKG_CONFIG_PATH="$pc" pkg-config --libs zeroinst)
  # shellcheck disable=SC2086
  gcc -O1 -fplugin="$plugin" "$here/project/prog.c" -o "$work/pc-$2" $libs || fail "pkg-config build ($2)"
  ZEROINST_OUTPUT="$work/pc-$2-report" "$work/pc-$2" >/dev/null || fail "run pkg-config build ($2)"
  check_report "$work/pc-$2-report" || fail "pkg-config report ($2)"
  # A -static link takes Libs.private (libzeroinst.a, --wrap, static deps).
  libs=$(PKG_CONFIG_PATH="$pc" pkg-config --static --libs zeroinst)
  # shellcheck disable=SC2086
  gcc -O1 -static -fplugin="$plugin" "$here/project/prog.c" -o "$work/pcs-$2" $libs 2>"$work/pcs.log" \
    || { cat "$work/pcs.log"; fail "pkg-config --static build ($2)"; }
  ZEROINST_OUTPUT="$work/pcs-$2-report" "$work/pcs-$2" >/dev/null || fail "run pkg-config -static build ($2)"
  check_report "$work/pcs-$2-report" || fail "pkg-config -static report ($2)"
  echo "ok: pkg-config from $2"
}

cmake_project "$build" build-tree
pkg_config_build "$build" build-tree
cmake --install "$build" --prefix "$work/prefix" >/dev/null || fail "install"
for f in bin/zeroinst bin/zeroinst-cc bin/zeroinst-cxx bin/zeroinst-fortran lib/libzeroinst.so \
         lib/libzeroinst.a lib/cmake/zeroinst/zeroinstConfig.cmake lib/pkgconfig/zeroinst.pc \
         include/zeroinst/zeroinst-abi.h include/zeroinst/zeroinst-classes.def \
         include/zeroinst/zeroinst-descriptors.def; do
  [ -e "$work/prefix/$f" ] || fail "install lacks $f"
done
# The installed contract compiles on its own, in C and C++, and says its
# version: the symbol the installed runtime defines.
printf '#include <zeroinst/zeroinst-abi.h>\nint v = ZI_ABI_VERSION; int k = ZI_F64; int w = ZI_WIDE_TYPE (ZI_I128);\n' \
  > "$work/abi.c"
cc -fsyntax-only -I"$work/prefix/include" "$work/abi.c" || fail "the installed zeroinst-abi.h (C)"
c++ -fsyntax-only -I"$work/prefix/include" -x c++ "$work/abi.c" || fail "the installed zeroinst-abi.h (C++)"
version=$(printf '#include <zeroinst/zeroinst-abi.h>\nZI_ABI_VERSION\n' | cc -E -P -I"$work/prefix/include" - | tail -n 1)
nm -D --defined-only "$work/prefix/lib/libzeroinst.so" | grep -q " __zeroinst_abi_v$version\$" \
  || fail "the installed runtime does not define __zeroinst_abi_v$version"
ls "$work"/prefix/lib/zeroinst/*/zeroinst.so >/dev/null || fail "install lacks the plugin"
cmake_project "$work/prefix" install-prefix
mv "$work/prefix" "$work/moved"
cmake_project "$work/moved" moved-prefix
pkg_config_build "$work/moved" moved-prefix
# The wrappers of the moved prefix find their plugin and runtime too.
"$work/moved/bin/zeroinst-cc" -O1 "$here/project/prog.c" -o "$work/wrapped" || fail "moved wrapper"
ZEROINST_OUTPUT="$work/wrapped-report" "$work/wrapped" >/dev/null
check_report "$work/wrapped-report" || fail "moved wrapper report"
ldd "$work/wrapped" | grep -q "$work/moved/lib/libzeroinst.so" || fail "moved wrapper links another runtime"
echo "ok: wrappers from the moved prefix"
