#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Installs every Debian package that building and testing XRT needs, and
# extracts the kernel's selftest harness (and checkpatch) from Debian's
# linux-source-6.1 into a cache outside the source tree.
#
# Idempotent: a second run installs nothing and extracts nothing.
#   tools/install-deps.sh           install what is missing
#   tools/install-deps.sh --check   exit 0 if nothing is missing, 1 otherwise
#   tools/install-deps.sh --print-cache   print the cache folder
#   tools/install-deps.sh --bench   also the benchmarks' peers (PyTorch),
#                                   which building and testing do not need
#   tools/install-deps.sh --print-oracle   print the oracle's interpreter
#
# The oracle environment: a virtual environment (from the python3 first on
# PATH, without system site-packages) holding the pins of
# tools/oracle-requirements.txt, real XLA (jax, jaxlib) and TensorFlow from
# PyPI.  The conformance suite and the benchmarks use it where it is; its
# absence (no network) is not an error here, and the tests say so.
set -euo pipefail

packages=(
	build-essential pkg-config meson ninja-build
	protobuf-c-compiler libprotobuf-c-dev libdrm-dev
	clang llvm libclang-rt-14-dev
	python3 python3-dev python3-numpy python3-venv libopenblas-dev python3-sphinx
	linux-source-6.1 xz-utils
	qemu-system-x86 busybox-static cpio kmod binutils linux-headers-amd64
	libopenmpi-dev openmpi-bin iproute2
)

cache="${XRT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/xrt}"
ksrc=/usr/src/linux-source-6.1.tar.xz
oracle=$cache/oracle
pins=$(dirname "$0")/oracle-requirements.txt
# Files taken from the kernel source: the selftest harness and the style
# checker.  Kept in the cache under their in-tree paths.
kfiles=(
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	scripts/kernel-doc
)

missing_packages() {
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

missing_kfiles() {
	local f
	for f in "${kfiles[@]}"; do
		[ -s "$cache/linux/$f" ] || echo "$f"
	done
}

if [ "${1:-}" = --bench ]; then
	packages+=(python3-torch valgrind)
	shift
fi

case "${1:-}" in
--print-cache)
	echo "$cache"
	exit 0
	;;
--print-oracle)
	echo "$oracle/bin/python"
	exit 0
	;;
--check)
	[ -z "$(missing_packages)" ] && [ -z "$(missing_kfiles)" ]
	exit
	;;
"") ;;
*)
	echo "usage: $0 [--bench] [--check|--print-cache|--print-oracle]" >&2
	exit 2
	;;
esac

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

mapfile -t want < <(missing_packages)
if [ ${#want[@]} -gt 0 ]; then
	echo "install-deps: installing ${want[*]}"
	$sudo apt-get update -q
	$sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${want[@]}"
fi

if [ -n "$(missing_kfiles)" ]; then
	echo "install-deps: extracting the selftest harness and checkpatch from $ksrc"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	tar -xJf "$ksrc" -C "$tmp" "${kfiles[@]/#/linux-source-6.1/}"
	mkdir -p "$cache/linux"
	cp -r "$tmp/linux-source-6.1/." "$cache/linux/"
fi
# The oracle environment, rebuilt when the pins change (the copy of them
# in it says which it holds).  Left out, with a warning, when PyPI cannot
# be reached.
if ! cmp -s "$pins" "$oracle/pins.txt" 2>/dev/null; then
	echo "install-deps: creating the oracle environment in $oracle ($(python3 --version))"
	rm -rf "$oracle"
	if python3 -m venv "$oracle" &&
		"$oracle/bin/pip" install -q --disable-pip-version-check --no-input \
			--timeout 60 -r "$pins"; then
		cp "$pins" "$oracle/pins.txt"
	else
		rm -rf "$oracle"
		echo "install-deps: WARNING: no oracle environment (PyPI unreachable?):" \
			"the conformance suite runs on its checked-in XLA outputs only"
	fi
fi
echo "install-deps: all dependencies present (cache: $cache)"
