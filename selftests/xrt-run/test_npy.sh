#!/bin/sh
# SPDX-License-Identifier: MIT
#
# xrt-run and NumPy's .npy: inputs written by numpy (C and Fortran order,
# five element types) reach the module, the result saved with --output
# reads back in numpy with the values numpy computes; malformed files
# fail with exit status 1 naming the file; --repeat prints its timing.
# Usage: test_npy.sh XRT_RUN DATA_DIR
set -u
run=$1
d=$2
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! $py -c 'import numpy' 2>/dev/null; then
	echo "SKIP: no numpy for $py"
	exit 77
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

$py - "$tmp" <<'PY'
import sys
import numpy as np
t = sys.argv[1]
np.save(t + '/a.npy', np.asfortranarray(np.array([[1.5, -2.0], [3.25, 4.0]])))
np.save(t + '/b.npy', np.array([7, -8, 9], dtype=np.int32))
np.save(t + '/c.npy', np.array([True, False]))
np.save(t + '/d.npy', np.array([1.5, -0.25], dtype=np.float16))
np.save(t + '/e.npy', np.array([100, 200], dtype=np.uint8))
np.save(t + '/big.npy', np.array([1, 2], dtype='>f4'))
PY
args="--input=$tmp/a.npy --input=$tmp/b.npy --input=$tmp/c.npy --input=$tmp/d.npy"
args="$args --input=$tmp/e.npy"
for dev in host reference; do
	out=$("$run" --device=$dev $args --output="$tmp/r.npy" "$d/types.hlo" 2>&1) ||
		fail "$dev: exit status $?: $out"
	$py - "$tmp" <<'PY' || fail "$dev: numpy does not read back what numpy computes"
import sys
import numpy as np
t = sys.argv[1]
a = np.load(t + '/a.npy'); b = np.load(t + '/b.npy'); c = np.load(t + '/c.npy')
d = np.load(t + '/d.npy'); e = np.load(t + '/e.npy')
want = [-a, b + b, ~c, d * d, (e + e).astype(np.uint8)]
for i, w in enumerate(want):
    got = np.load('%s/r.%d.npy' % (t, i))
    assert got.dtype == w.dtype and got.shape == w.shape, (i, got.dtype, got.shape)
    assert np.array_equal(got, w), (i, got, w)
PY
	rm -f "$tmp"/r.*.npy
done

expect_fail() {	# expect_fail WANT_TEXT FILE: the first input is FILE
	out=$("$run" --input="$2" "$d/types.hlo" 2>&1)
	rc=$?
	case "$out" in
	*"$1"*) ;;
	*) fail "$2: wanted '$1', got '$out'" ;;
	esac
	[ "$rc" -eq 1 ] || fail "$2: exit status $rc, wanted 1"
}
expect_fail "big.npy: not a .npy file xrt-run reads: an element type" "$tmp/big.npy"
head -c 40 "$tmp/a.npy" > "$tmp/cut.npy"
expect_fail "cut.npy: not a .npy file xrt-run reads: the header runs past the end" "$tmp/cut.npy"
printf '\223NUMPY\003\000\047\040\073' > "$tmp/cut3.npy"	# a fuzzer's find
expect_fail "cut3.npy: not a .npy file xrt-run reads: the header runs past the end" "$tmp/cut3.npy"
head -c 150 "$tmp/a.npy" > "$tmp/short.npy"
expect_fail "short.npy: " "$tmp/short.npy"
expect_fail "b.npy: holds s32[3]{0}, the parameter is f64[2,2]{1,0}" "$tmp/b.npy"

# Headers written by hand, each with numpy's own verdict beside ours:
# numpy refuses what follows the dict and keys other than its three; a
# key given twice (numpy takes the last) is ambiguous, so we refuse it.
$py - "$tmp" <<'PY'
import struct, sys
import numpy as np
t = sys.argv[1]
body = np.array([[1, 2], [3, 4]], dtype='<f8').tobytes()
cases = {
    'plain': "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
    'dquote': '{"descr": "<f8", "fortran_order": False, "shape": (2,2)}',
    'dup': "{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
    'after': "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), } xyz",
    'extra': "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), 'x': 1}",
    'lacks': "{'descr': '<f8', 'shape': (2, 2)}",
    'shape': "{'descr': '<f8', 'fortran_order': False, 'shape': (2 2), }",
}
for name, h in cases.items():
    h = h.encode() + b' ' * ((-(10 + len(h) + 1)) % 64) + b'\n'
    with open('%s/h_%s.npy' % (t, name), 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h + body)
    try:
        np.load('%s/h_%s.npy' % (t, name))
        verdict = 'reads'
    except Exception:
        verdict = 'refuses'
    want = 'reads' if name in ('plain', 'dquote', 'dup') else 'refuses'
    assert verdict == want, (name, verdict)
PY
[ $? -eq 0 ] || fail "numpy's verdicts on the hand-written headers changed"
for c in plain:reads dquote:reads; do
	"$run" --input="$tmp/h_${c%%:*}.npy" "$d/types.hlo" >/dev/null 2>&1 ||
		fail "h_${c%%:*}.npy: numpy reads it, xrt-run does not"
done
expect_fail "h_dup.npy: not a .npy file xrt-run reads: the header has 'descr' twice" \
	"$tmp/h_dup.npy"
expect_fail "h_after.npy: not a .npy file xrt-run reads: something follows the header dict" \
	"$tmp/h_after.npy"
expect_fail "h_extra.npy: not a .npy file xrt-run reads: a header key other than" \
	"$tmp/h_extra.npy"
expect_fail "h_lacks.npy: not a .npy file xrt-run reads: the header lacks" "$tmp/h_lacks.npy"
expect_fail "h_shape.npy: not a .npy file xrt-run reads: a bad shape" "$tmp/h_shape.npy"

# --output must name a file: empty, a directory or a trailing '/' is a
# usage error before anything runs, and nothing is written.
mkdir "$tmp/dir"
for o in "" "$tmp/dir" "$tmp/dir/" "$tmp/new/"; do
	out=$("$run" $args --output="$o" "$d/types.hlo" 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "--output='$o': exit status $rc, wanted 2 ($out)"
	case "$out" in
	*"--output wants a file name"* | *"--output=$o: a directory; give a file name"*) ;;
	*) fail "--output='$o': '$out'" ;;
	esac
done
[ -z "$(ls "$tmp/dir")" ] && ! ls "$tmp"/dir.*.npy "$tmp"/.0.npy >/dev/null 2>&1 ||
	fail "--output refused, yet a file was written"

out=$("$run" --repeat=3 $args "$d/types.hlo" 2>&1)
case "$out" in
*"median"*"(3 runs after the first)"*) ;;
*) fail "--repeat: no timing in '$out'" ;;
esac
"$run" --repeat=0 "$d/types.hlo" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--repeat=0 is not a usage error"

[ $fails -eq 0 ] && echo "ok: .npy in and out, errors, --repeat"
exit $((fails != 0))
