#!/bin/sh
# SPDX-License-Identifier: MIT
#
# xrt-run's limits on a run: an endless while with --timeout=1 fails with
# DEADLINE_EXCEEDED naming the loop, exit status 1, on the host and the
# reference evaluator (the time it took is printed, not asserted);
# --max-iterations fails there in the same words on both; bad values
# are usage errors.
# Usage: test_limits.sh XRT_RUN DATA_DIR
set -u
run=$1
d=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
now() { date +%s.%N; }

for dev in host reference; do
	t0=$(now)
	out=$("$run" --device=$dev --timeout=1 "$d/endless.hlo" 2>&1)
	rc=$?
	t1=$(now)
	echo "$dev: --timeout=1 stopped after $(awk "BEGIN { print $t1 - $t0 }") s"
	[ "$rc" -eq 1 ] || fail "$dev --timeout: exit status $rc ($out)"
	case "$out" in
	*"DEADLINE_EXCEEDED"*"instruction 'w' (while)"*) ;;
	*) fail "$dev --timeout: '$out'" ;;
	esac
	out=$("$run" --device=$dev --max-iterations=77 "$d/endless.hlo" 2>&1)
	rc=$?
	[ "$rc" -eq 1 ] || fail "$dev --max-iterations: exit status $rc ($out)"
	case "$out" in
	*"DEADLINE_EXCEEDED"*": computation 'main', instruction 'w' (while): more than 77 iterations") ;;
	*) fail "$dev --max-iterations: '$out'" ;;
	esac
done
for bad in --timeout=0 --timeout=-1 --timeout=x --timeout=1e10 --max-iterations=x; do
	"$run" "$bad" "$d/endless.hlo" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "$bad is not a usage error"
done
[ $fails -eq 0 ] && echo "ok: --timeout and --max-iterations on the host and the evaluator"
exit $((fails != 0))
