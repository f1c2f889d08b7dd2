#!/bin/sh
# SPDX-License-Identifier: MIT
#
# xrt-run --input: values read from files reach the module on both
# devices, and bad files fail with exit status 1 and a message naming
# the file.  Big results print elided.  Usage: test_inputs.sh XRT_RUN DATA_DIR
set -u
run=$1
d=$2
fails=0

expect() {	# expect WANT_RC WANT_TEXT ARGS...
	want_rc=$1
	want=$2
	shift 2
	out=$("$run" "$@" 2>&1)
	rc=$?
	case "$out" in
	*"$want"*) ;;
	*) echo "FAIL: $*: wanted '$want', got '$out'"; fails=$((fails + 1)); return ;;
	esac
	if [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL: $*: exit status $rc, wanted $want_rc"
		fails=$((fails + 1))
	fi
}

want='result     (f32[2,3] {{-3, -6, -9}, {-12, -15, -18}}, s32[] -3)'
expect 0 "$want" --input="$d/x.txt" --input="$d/k.txt" "$d/affine.hlo"
expect 0 "$want" --device=reference --input="$d/x.txt" --input="$d/k.txt" "$d/affine.hlo"

# The module may come as an xrt.Computation message: its HLO text or its
# IrModule body (files written from affine.hlo).
expect 0 "$want" --input="$d/x.txt" --input="$d/k.txt" "$d/affine_ir.computation"
expect 0 "$want" --device=reference --input="$d/x.txt" --input="$d/k.txt" \
	"$d/affine_text.computation"
printf '\022\005\377\377' > "${TMPDIR:-/tmp}/xrt-run-bad.computation"
expect 1 "neither HLO text nor an xrt.Computation; read as XLA's: xla.HloModuleProto" \
	"${TMPDIR:-/tmp}/xrt-run-bad.computation"
rm -f "${TMPDIR:-/tmp}/xrt-run-bad.computation"

# Or as XLA serialized it (an HloProto from its dump): the values its text gives.
xla="$d/../libxrt/xla"
want=$("$run" --seed=5 "$xla/loop_and_cond.after.hlo" 2>&1)
expect 0 "$want" --seed=5 "$xla/loop_and_cond.after.pb"
expect 0 "result" --seed=5 "$xla/loop_and_cond.after.pb"

# An HloSnapshot (XLA's --xla_dump_hlo_snapshots, from jax 0.10.2) runs on
# the arguments it recorded and is checked against its recorded result;
# --input wins over them; a result that differs fails.
snap_want='result     (f32[4] {0.86141217, 0.86141217, 0.86141217, 0.86141217}, s32[2,3] {{0, 0, 0}, {1, 1, 2}})'
expect 0 "inputs     the 2 arguments the HloSnapshot recorded" "$d/jax_snapshot.pb"
expect 0 "$snap_want" "$d/jax_snapshot.pb"
expect 0 "snapshot   the result matches the one XLA recorded" --device=reference "$d/jax_snapshot.pb"
expect 1 "the result differs from the one XLA recorded: tuple element {0}: at {2}: expected 0.5" \
	"$d/jax_snapshot_wrong.pb"
expect 0 "result     (f32[4]" --seed=3 --input="$d/x.txt" "$d/jax_snapshot.pb"

# An input may be an xla.LiteralProto (values in its layout's order: column-major here).
neg="${TMPDIR:-/tmp}/xrt-run-negate.hlo"
printf 'HloModule n\nENTRY e {\n  x = f32[2,3] parameter(0)\n  ROOT n = f32[2,3] negate(x)\n}\n' > "$neg"
expect 0 "result     f32[2,3] {{-1, -2, -3}, {-4, -5, -6}}" \
	--input="$d/../fuzz/seeds/xla_literal/f32_column_major.pb" "$neg"
rm -f "$neg"

# Big arrays print like numpy's, three at each edge, in index order
# whatever the layout; small ones whole.
big='result     (s32[100,100] {{0, 1, 2, ..., 97, 98, 99}, {0, 1, 2, ..., 97, 98, 99}'
expect 0 "$big" "$d/big.hlo"
expect 0 '{9604, 9604, 9604, ..., 9604, 9604, 9604}, {9801, 9801, 9801, ..., 9801, 9801, 9801}}, f32[3] {1.5, 2.5, 3.5})' --device=reference "$d/big.hlo"
expect 0 'parameter  f32[2,3] {{1, 2, 3}, {4, 5, 6}}' --show-inputs --input="$d/x.txt" \
	"$d/affine.hlo"
expect 1 "wrong_shape.txt: holds f32[3,2]{1,0}, the parameter is f32[2,3]{1,0}" \
	--input="$d/wrong_shape.txt" "$d/affine.hlo"
expect 1 "ragged.txt: not a literal:" --input="$d/ragged.txt" "$d/affine.hlo"
expect 1 "no-such-file: No such file or directory" --input="$d/no-such-file" "$d/affine.hlo"
# A directory is refused by name, as a module and as an input (it once
# asked for 2^63 bytes); a pipe is read whole.
expect 1 "$d: a directory, not a file or a pipe" --input="$d" "$d/affine.hlo"
expect 1 "reading the module: INVALID_ARGUMENT: $d: a directory" "$d"
expect 1 "/dev/null: a special file, not a file or a pipe" /dev/null
out=$(cat "$d/affine.hlo" | "$run" --input="$d/x.txt" --input="$d/k.txt" /dev/stdin 2>&1)
case "$out" in
*'result     (f32[2,3] {{-3, -6, -9}, {-12, -15, -18}}, s32[] -3)'*) ;;
*) echo "FAIL: the module through a pipe: got '$out'"; fails=$((fails + 1)) ;;
esac
# Parameter numbers with a gap fail at parse, on every device (they once
# reached a NULL shape).
gap="${TMPDIR:-/tmp}/xrt-run-gap.$$.hlo"
printf 'HloModule m\nENTRY e {\n  p = f32[2] parameter(5)\n  ROOT n = f32[2] negate(p)\n}\n' >"$gap"
for dev in host:0 reference; do
	expect 1 "parameter(5) 'p', but it has 1 parameters" --device=$dev \
		--input="$d/k.txt" "$gap"
done
rm -f "$gap"
expect 1 "3 --input files for 2 parameters" --input="$d/x.txt" --input="$d/k.txt" \
	--input="$d/k.txt" "$d/affine.hlo"
echo "$fails failures"
[ "$fails" -eq 0 ]
