#!/bin/sh
# run.sh - the README's first command: install what is missing (Debian 12,
# as root), build zeroinst into ./build, then build and profile the
# quick-start example and print what zeroinst found.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
sh "$top/cmake/install-deps.sh"
cmake -S "$top" -B "$top/build" >/dev/null
cmake --build "$top/build" -j"$(nproc)" >/dev/null
bin=$top/build/bin
work=$top/build/quickstart
rm -rf "$work" && mkdir -p "$work" && cd "$work"
echo "== zeroinst-cc -O2 quickstart.c -o quickstart && ./quickstart"
"$bin/zeroinst-cc" -O2 "$top/examples/quickstart/quickstart.c" -o quickstart
ZEROINST_OUTPUT="$work/report" ./quickstart
echo
echo "== zeroinst show $work/report"
"$bin/zeroinst" show "$work/report" --top 5
"$bin/zeroinst" html "$work/report" -o "$work/quickstart.html"
echo
echo "== the same as a page (tables, call tree, source, byte maps): $work/quickstart.html"
