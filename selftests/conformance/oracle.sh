#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The tests that need the oracle environment (tools/install-deps.sh makes
# it); each skips, saying why, where it is missing.
#   oracle.sh regen               gen.py --check: XLA's outputs unchanged
#   oracle.sh tf                  gen_tf_cases.py --check: TensorFlow's
#                                 outputs of the eager cases unchanged
#   oracle.sh python BUILD_PYDIR  the xrt package's suite in the oracle
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
py=$("$src/tools/install-deps.sh" --print-oracle)

if [ ! -x "$py" ]; then
	echo "SKIP: no oracle environment at ${py%/bin/python} (tools/install-deps.sh" \
		"creates it): XLA's checked-in outputs were not regenerated and compared"
	exit 77
fi
case ${1:-} in
regen)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cd "$here" && "$py" gen.py --check "$tmp"
	;;
tf)
	eager=$src/selftests/libxrt/eager
	exec "$py" "$eager/gen_tf_cases.py" --check "$eager/eager_cases_tf.txt"
	;;
python)
	# the extension is built for Debian's python3: the oracle's must share its ABI
	want=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	have=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	if [ "$want" != "$have" ]; then
		echo "SKIP: the oracle's Python takes $have extensions, the build makes $want"
		exit 77
	fi
	PYTHONPATH=$2 PYTHONDONTWRITEBYTECODE=1 exec "$py" -m unittest discover \
		-s "$src/python/tests" -t "$src/python/tests"
	;;
*)
	echo "usage: $0 regen | tf | python BUILD_PYDIR" >&2
	exit 2
	;;
esac
