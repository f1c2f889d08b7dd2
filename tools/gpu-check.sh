#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The CUDA device's check, for a machine with an NVIDIA GPU: builds
# libxrt with the CUDA device, runs its tests on cuda:0 (the CUDA tests,
# NCCL as a communicator of one rank among them,
# then the XRT API and eager suites with XRT_DEVICE=cuda:0) and the GPU
# benchmarks,
# and writes a summary.  Under 8 minutes on one H200; each step has its
# own time limit, and a failing step does not stop the ones after it.
#
#   tools/gpu-check.sh [OUTDIR]     summary and logs into OUTDIR
#                                   (default: $OUT, else build-gpu/check)
#
# Needs meson, ninja, the build's Debian packages and the selftest
# harness (tools/install-deps.sh puts it in its cache; XRT_KSELFTEST_DIR
# names another folder).  XRT_GPU_BUILD=DIR uses a build made elsewhere
# instead of building.
set -uo pipefail

cd "$(dirname "$0")/.."
build="${XRT_GPU_BUILD:-build-gpu}"
out="${1:-${OUT:-$build/check}}"
mkdir -p "$out"
summary="$out/gpu-check-summary.txt"
: >"$summary"
failed=0

note() {
	echo "$*" | tee -a "$summary"
}

# step NAME LIMIT_S COMMAND...: runs it with its log in $out/NAME.log
step() {
	local name=$1 limit=$2 t0 rc
	shift 2
	t0=$(date +%s)
	timeout -k 10 "$limit" "$@" >"$out/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		note "PASS  $name ($(($(date +%s) - t0)) s)"
	else
		note "FAIL  $name (exit $rc after $(($(date +%s) - t0)) s; log: $out/$name.log)"
		failed=1
	fi
	grep -E '^# [0-9]|^# (PASSED|FAILED|Totals)' "$out/$name.log" | sed 's/^/      /' |
		tee -a "$summary"
	return $rc
}

note "gpu-check $(date -u +%FT%TZ) on $(hostname)"
if command -v nvidia-smi >/dev/null; then
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader |
		sed 's/^/GPU: /' | tee -a "$summary"
else
	note "GPU: nvidia-smi not found"
fi

if [ -z "${XRT_GPU_BUILD:-}" ]; then
	ks="${XRT_KSELFTEST_DIR:-$(tools/install-deps.sh --print-cache)/linux/tools/testing/selftests}"
	if [ ! -f "$build/build.ninja" ]; then
		step configure 120 meson setup "$build" -Dkselftest_dir="$ks" -Dgpu_cuda=enabled \
			-Dbuildtype=release || { note "cannot build: see $out/configure.log"; exit 1; }
	fi
	step build 240 ninja -C "$build" || { note "build failed"; exit 1; }
fi

t="$build/selftests/libxrt"
step cuda_codegen 120 "$t/test_cuda_codegen"
step cuda_device 240 "$t/test_cuda_device"
if grep -q 'SKIP *no GPU' "$out/cuda_device.log"; then
	note "no GPU here ($(grep -m1 -o 'no GPU.*' "$out/cuda_device.log")): the GPU steps cannot run"
	note "gpu-check: FAIL"
	exit 1
fi
step xrt_alloc_on_cuda 90 env XRT_DEVICE=cuda:0 "$t/test_xrt_alloc"
step xrt_exec_on_cuda 120 env XRT_DEVICE=cuda:0 "$t/test_xrt_exec"
step eager_on_cuda 120 env XRT_DEVICE=cuda:0 "$t/test_eager"
step eager_ops_on_cuda 120 env XRT_DEVICE=cuda:0 "$t/test_eager_ops"
step eager_vars_on_cuda 90 env XRT_DEVICE=cuda:0 "$t/test_eager_vars"
step eager_functions_on_cuda 90 env XRT_DEVICE=cuda:0 "$t/test_eager_functions"
step eager_numpy_on_cuda 120 env XRT_DEVICE=cuda:0 "$t/test_eager_numpy"
if [ -x "$build/tools/xrt-bench/xrt-bench" ]; then
	step bench 150 "$build/tools/xrt-bench/xrt-bench" --only=cuda
	sed -n '/^benchmark/,$p' "$out/bench.log" | tee -a "$summary"
else
	note "SKIP  bench (xrt-bench is built only with OpenBLAS)"
fi
note "gpu-check: $([ $failed -eq 0 ] && echo PASS || echo FAIL)"
exit $failed
