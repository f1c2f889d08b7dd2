#!/bin/sh
# SPDX-License-Identifier: MIT
#
# xrt-smi on a machine without the accel driver: the host device with
# its real memory size, well-formed JSON, a watch that stops, and clear
# refusals of bad options.  The accel side is checked in the VM
# (selftests/driver/test_driver_smi.c).
#   test_smi.sh XRT_SMI
set -eu
smi=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_smi: $*" >&2; exit 1; }

"$smi" >"$tmp/table" || fail "plain run failed"
grep -q '^DEVICE ' "$tmp/table" || fail "no header: $(cat "$tmp/table")"
grep -q '^host:0 ' "$tmp/table" || fail "no host:0 row"

"$smi" --json >"$tmp/json" || fail "--json failed"
total_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" - "$tmp/json" "$total_kib" "$(nproc)" <<'PY' || fail "bad JSON: $(cat "$tmp/json")"
import json, sys
d = json.load(open(sys.argv[1]))
host = [x for x in d["devices"] if x["name"] == "host:0"][0]
assert host["kind"] == "host", host
assert host["memory_total"] == int(sys.argv[2]) * 1024, (host, sys.argv[2])
assert 0 < host["memory_used"] <= host["memory_total"], host
assert host["compute_units"] == int(sys.argv[3]), host
assert host["busy_ns"] is None and host["busy_percent"] is None, host
assert isinstance(d["clients"], list)
PY

# two refreshes, one JSON object per line
"$smi" --json --watch=0.1 --count=2 >"$tmp/watch" || fail "--watch failed"
[ "$(wc -l <"$tmp/watch")" = 2 ] || fail "--watch --count=2 printed $(wc -l <"$tmp/watch") lines"
"$python" -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/watch" ||
	fail "--watch lines are not JSON"

for bad in --watch=0 --watch=x --count=0 --count=2 --nope extra; do
	rc=0
	"$smi" $bad >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit status $rc, not 2"
	[ -s "$tmp/err" ] || fail "$bad: no message"
done
echo "test_smi: ok"
