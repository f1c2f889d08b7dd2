#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Proves that the structure-aware fuzzer finds the class of bug it was
# written for: FUZZER is fuzz_cs_gen built over an engine whose span
# check still has the wrapping sum (XRT_ENGINE_PLANTED_SPAN_WRAP).
# Started from SEEDS, which do not contain the bug, it must report an
# access outside a slot within SECONDS, twice: by the exact-reach check,
# and by guarded, sanitized execution alone (FUZZ_CS_GEN_NO_REACH=1).
#
# A guided search now and then wanders off for a while (a heavy tail of
# its time to find), so each hunt restarts from the seeds with a new
# random seed every 15 s, within the SECONDS in all.
#
# usage: find-planted.sh FUZZER SEEDS [SECONDS]
set -u
fuzzer=$1 seeds=$2 seconds=${3:-60}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

hunt() {  # NAME PATTERN ENV=VALUE
	name=$1 pattern=$2 setting=$3
	start=$(date +%s) try=0
	while :; do
		try=$((try + 1))
		left=$((start + seconds - $(date +%s)))
		[ $left -gt 0 ] || break
		[ $left -lt 15 ] || left=15
		rm -rf "$work/$name"
		mkdir -p "$work/$name"
		env "$setting" "$fuzzer" -seed="$try" -max_total_time="$left" \
			-max_len=128 -len_control=0 -timeout=10 \
			-artifact_prefix="$work/$name/" "$work/$name" "$seeds" \
			>"$work/$name.log" 2>&1
		rc=$?
		if [ $rc -ne 0 ] && grep -q -E "$pattern" "$work/$name.log"; then
			echo "find-planted: $name: found in $(($(date +%s) - start)) s" \
			     "(try $try):"
			grep -m1 -E "$pattern" "$work/$name.log"
			return 0
		fi
		if [ $rc -ne 0 ]; then
			echo "find-planted: $name: the fuzzer failed otherwise (exit $rc):"
			tail -n 30 "$work/$name.log"
			return 1
		fi
	done
	echo "find-planted: $name: NOT found in $seconds s ($((try - 1)) tries); the log's tail:"
	tail -n 30 "$work/$name.log"
	return 1
}

hunt reach "reaches outside its slot" FUZZ_CS_GEN_NO_REACH=0 || exit 1
# The executor's first step outside a slot may be forming the pointer
# (UBSan's pointer-overflow check) rather than the access (ASan, guards).
hunt guards "AddressSanitizer: (use-after-poison|SEGV|heap-buffer-overflow|unknown-crash)|runtime error: (addition|subtraction) of unsigned offset" \
	FUZZ_CS_GEN_NO_REACH=1 || exit 1
