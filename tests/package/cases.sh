#!/bin/sh
# Package test: zeroinst_instrument() on one project of tests/package/cases
# (configure, build, run prog, check its report): 10 elements, 70
# redundant bytes in every case (10 int64 ones, 7 zero bytes each).
#   cases.sh BUILD_DIR CASE
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/cases/$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail () { echo "FAIL: $2: $1"; exit 1; }
cmake -S "$src" -B "$work/b" -DCMAKE_PREFIX_PATH="$build" -DCMAKE_BUILD_TYPE=Release \
  >"$work/log" 2>&1 || { cat "$work/log"; fail configure "$2"; }
cmake --build "$work/b" >"$work/log" 2>&1 || { cat "$work/log"; fail build "$2"; }
out=$(ZEROINST_OUTPUT="$work/report" "$work/b/prog") || fail run "$2"
[ "$out" = 10 ] || fail "output '$out'" "$2"
python3 - "$work/report" <<'PY' || fail report "$2"
import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
s = r["summary"]["int"]
assert (s["elements"], s["redundant_bytes"]) == (10, 70), s
PY
echo "ok: $2"
