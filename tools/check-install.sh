#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Installs the build into a scratch root and builds the examples against
# that install the way a user would, with `pkg-config --cflags --libs
# libxrt`, then runs them.  Proves the installed headers, library and
# libxrt.pc are whole.
#
#   tools/check-install.sh [BUILD_DIR]
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

meson install -C "$build" --destdir "$root" >/dev/null
pc=$(find "$root" -name libxrt.pc | head -n1)
lib=$(find "$root" -name 'libxrt.so' | head -n1)
[ -n "$pc" ] && [ -n "$lib" ] || { echo "check-install: no libxrt.pc or libxrt.so installed" >&2; exit 1; }
for page in xrt-run.1 xrt-bench.1 xrt-smi.1 xrt.3 xrt_status.3 xrt_eager.3 xrt_builder.3; do
	[ -n "$(find "$root" -name "$page*")" ] ||
		{ echo "check-install: no man page $page installed" >&2; exit 1; }
done
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs libxrt)

status=0
for ex in "$src"/examples/*.c; do
	name=$(basename "$ex" .c)
	cc -std=c11 -Wall -Wextra -Werror -o "$root/$name" "$ex" $flags
	args=()
	[ "$name" = run_hlo ] && args=("$src/examples/hlo/classifier.hlo")
	if LD_LIBRARY_PATH=$(dirname "$lib") "$root/$name" "${args[@]}" >"$root/$name.out" 2>&1; then
		echo "check-install: $name: ok: $(head -c 160 "$root/$name.out" | head -n1)"
	else
		echo "check-install: $name: FAILED" >&2
		cat "$root/$name.out" >&2
		status=1
	fi
done

# The Python package, imported from where it was installed.
pkg=$(find "$root" -path '*/xrt/__init__.py' | head -n1)
if [ -n "$pkg" ]; then
	if out=$(cd "$root" && PYTHONPATH=$(dirname "$(dirname "$pkg")") \
		LD_LIBRARY_PATH=$(dirname "$lib") /usr/bin/python3 -c \
		'import xrt; a = xrt.tensor([[1.0, 2.0], [3.0, 4.0]]); print((a @ a).numpy().tolist())' 2>&1) &&
		[ "$out" = "[[7.0, 10.0], [15.0, 22.0]]" ]; then
		echo "check-install: python: ok: $out"
	else
		echo "check-install: python: FAILED: $out" >&2
		status=1
	fi
else
	echo "check-install: python: FAILED: the package was not installed" >&2
	status=1
fi

# The MPI plugin beside the installed libxrt.so, where libxrt finds it:
# two processes under mpirun join through it.
if command -v mpirun >/dev/null && [ -n "$pkg" ]; then
	if [ ! -e "$(dirname "$lib")/libxrt-mpi.so" ]; then
		echo "check-install: mpi: FAILED: no libxrt-mpi.so beside libxrt.so" >&2
		status=1
	elif out=$(cd "$root" && PYTHONPATH=$(dirname "$(dirname "$pkg")") \
		LD_LIBRARY_PATH=$(dirname "$lib") mpirun --allow-run-as-root --oversubscribe \
		-np 2 /usr/bin/python3 -c 'import xrt; xrt.distributed_init()
print(xrt.distributed_rank()[1]); xrt.distributed_shutdown()' 2>&1) &&
		[ "$out" = "$(printf '2\n2')" ]; then
		echo "check-install: mpi: ok: two processes joined"
	else
		echo "check-install: mpi: FAILED: $out" >&2
		status=1
	fi
fi
exit $status
