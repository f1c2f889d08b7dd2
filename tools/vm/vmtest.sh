#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The VM stage: build xrt_accel.ko against the Debian headers of the
# exact kernel it boots, pack it with the driver selftests and the
# engine tests into an initramfs, boot Debian's kernel in QEMU (software
# emulation), and report the tests' TAP results.  Fails on any failed
# test, on BUG/WARNING/Oops in dmesg, on a leak left after the tests, or
# on a timeout.  Boots once per CPU model given (default: "max", whose
# AVX2 selects the engine's AVX2 kernels, and QEMU's default CPU, which
# has SSE2 only).
#
#   tools/vm/vmtest.sh [BUILD_DIR]
#   env: XRT_VM_CPUS="max default"  XRT_VM_TIMEOUT=900 (seconds per boot)
#        XRT_FUZZ_SECONDS=10  XRT_VM_WORK=<scratch folder>
#        XRT_VM_BENCH=1: also run xrt-bench --only=devices after the tests
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
cache=$("$src/tools/install-deps.sh" --print-cache)/vm
work=${XRT_VM_WORK:-$build/vm}
cpus=${XRT_VM_CPUS:-max default}
boot_timeout=${XRT_VM_TIMEOUT:-900}
fuzz_seconds=${XRT_FUZZ_SECONDS:-10}
bench=${XRT_VM_BENCH:-0}
accels=accel:0,accel:1,accel:2,accel:3
modparams="num_devices=4 memory_mb=256 client_memory_mb=256 job_timeout_ms=2000"

say() { echo "vmtest: $*"; }
die() { echo "vmtest: $*" >&2; exit 1; }

# The kernel: the one Debian's linux-headers-amd64 is for.
kver=$(apt-cache depends linux-headers-amd64 2>/dev/null |
	sed -n 's/^ *Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
[ -n "$kver" ] || die "cannot tell the kernel version (is apt's cache there?)"
kdir=/usr/src/linux-headers-$kver
[ -f "$kdir/Module.symvers" ] || die "missing $kdir: run tools/install-deps.sh"
for tool in qemu-system-x86_64 busybox cpio depmod modprobe; do
	command -v "$tool" >/dev/null || die "missing $tool: run tools/install-deps.sh"
done

# The kernel image, downloaded once into the cache.
kroot=$cache/kernel-$kver
if [ ! -f "$kroot/boot/vmlinuz-$kver" ]; then
	say "downloading linux-image-$kver"
	mkdir -p "$cache/debs"
	chown _apt "$cache/debs" 2>/dev/null || true
	(cd "$cache/debs" && { apt-get download -q "linux-image-$kver-unsigned" ||
		apt-get download -q "linux-image-$kver"; }) >/dev/null
	deb=$(ls "$cache"/debs/linux-image-"$kver"*.deb | head -n1)
	rm -rf "$kroot.tmp"
	dpkg -x "$deb" "$kroot.tmp"
	mv "$kroot.tmp" "$kroot"
fi

# QEMU boots the uncompressed kernel through its PVH entry: the bzImage's
# own decompression costs seconds under emulation.
vmlinux=$kroot/boot/vmlinux-$kver
if [ ! -s "$vmlinux" ]; then
	off=$(LC_ALL=C grep -aboP '\xfd7zXZ\x00' "$kroot/boot/vmlinuz-$kver" |
		head -n1 | cut -d: -f1 || true)
	if [ -n "$off" ]; then
		tail -c +$((off + 1)) "$kroot/boot/vmlinuz-$kver" |
			xz -dc >"$vmlinux.tmp" 2>/dev/null || true
		mv "$vmlinux.tmp" "$vmlinux"
	fi
fi
kernel=$kroot/boot/vmlinuz-$kver
readelf -n "$vmlinux" 2>/dev/null | grep -q 'Unknown note type: (0x00000012)' &&
	kernel=$vmlinux

# The module, built out of the source tree.
say "building xrt_accel.ko for $kver"
rm -rf "$work/src"
mkdir -p "$work/src"
cp -r "$src/driver" "$src/uapi" "$work/src/"
make -s -C "$kdir" M="$work/src/driver" modules
ko=$work/src/driver/xrt_accel.ko

# The initramfs: busybox, the module and what it needs, the tests and
# the shared libraries they load.
stage=$work/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,tests} "$stage/lib/modules/$kver"
cp "$(command -v busybox)" "$stage/bin/busybox"
mods=$kroot/lib/modules/$kver
mkdir -p "$mods/updates"
cp "$ko" "$mods/updates/"
depmod -b "$kroot" "$kver"
for f in $(modprobe -d "$kroot" -S "$kver" --show-depends xrt_accel |
		awk '$1 == "insmod" { print $2 }'); do
	rel=${f#"$mods"/}
	mkdir -p "$stage/lib/modules/$kver/$(dirname "$rel")"
	cp "$f" "$stage/lib/modules/$kver/$rel"
done
cp "$mods"/modules.{builtin,builtin.modinfo,order} "$stage/lib/modules/$kver/"
depmod -b "$stage" "$kver"

# The engine tests that run programs (they run each in the kernel too);
# test_engine_math and test_engine_half check userspace math only, and
# test_engine_bounds the userspace validator's answers (SUBMIT's come from
# test_driver_programs' malformed cases).
# libxrt's device test compares accel with host; the XRT API and eager
# suites run again with accel:0 as the default device; the replicated
# runs on accel:0..3, whose jobs stop at every collective.  The data they
# read goes to the same path as here (the tests have it compiled in).
# xrt-smi goes along for test_driver_smi.
libxrt_tests="test_accel_device test_xrt_alloc test_xrt_exec test_xrt_replicated test_eager test_eager_ops test_eager_vars \
	test_eager_functions test_eager_ref test_eager_numpy"
libxrt_on_accel="test_xrt_alloc test_xrt_exec test_eager test_eager_ops test_eager_vars \
	test_eager_functions test_eager_ref test_eager_numpy"
libxrt=()
for t in $libxrt_tests; do libxrt+=("$build/selftests/libxrt/$t"); done
# the conformance suite (XLA's outputs) on accel:0 alone: the evaluator
# and host:0 ran it outside
libxrt+=("$build/selftests/conformance/test_conformance")
mkdir -p "$stage$src/selftests/libxrt" "$stage$src/selftests/conformance"
cp -r "$src/selftests/libxrt/hlo" "$src/selftests/libxrt/eval" "$src/selftests/libxrt/eager" \
	"$src/selftests/libxrt/xla" \
	"$stage$src/selftests/libxrt/"
cp -r "$src/selftests/conformance/cases" "$src/selftests/conformance/known.txt" \
	"$stage$src/selftests/conformance/"
mkdir -p "$stage$src/selftests/xrt-run"
cp "$src/selftests/xrt-run/replicas.hlo" "$stage$src/selftests/xrt-run/"
tests=()
for t in "$build"/selftests/driver/test_driver_* "$build"/selftests/engine/test_engine_* \
	"${libxrt[@]}" "$build"/tools/xrt-smi/xrt-smi "$build"/tools/xrt-run/xrt-run \
	$([ "$bench" = 1 ] && echo "$build"/tools/xrt-bench/xrt-bench); do
	[ -f "$t" ] && [ -x "$t" ] || continue
	case $(basename "$t") in test_engine_math | test_engine_half | test_engine_bounds) continue ;; esac
	cp "$t" "$stage/tests/"
	case $(basename "$t") in xrt-smi | xrt-run | xrt-bench) ;;
	*) tests+=("$(basename "$t")") ;;
	esac
	ldd "$t" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
		while read -r lib; do
			# found through an $ORIGIN rpath (libxrt): into the
			# default search path, as the binaries move to /tests
			case $lib in
			/lib/* | /usr/lib/*) dest=$lib ;;
			*) dest=/lib/x86_64-linux-gnu/$(basename "$lib") ;;
			esac
			mkdir -p "$stage$(dirname "$dest")"
			cp -L "$lib" "$stage$dest"
		done
done
[ ${#tests[@]} -gt 0 ] || die "no test programs in $build (build first)"
mkdir -p "$stage/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"

cat >"$stage/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin XRT_FUZZ_SECONDS=$fuzz_seconds XRT_SMI=/tests/xrt-smi
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
( sleep $((boot_timeout - 20)); echo "XRT-VM-RESULT: TIMEOUT"; poweroff -f ) &
echo "### guest \$(uname -r), \$(nproc) cpus, avx2: \$(grep -cm1 avx2 /proc/cpuinfo)"
rc=0
modprobe xrt_accel $modparams || { echo "### modprobe failed"; rc=1; }
if [ \$rc = 0 ]; then
	for t in ${tests[*]}; do
		echo "### \$t"
		env=
		case \$t in test_engine_*) env=XRT_TEST_ACCEL=0 ;; esac
		case " $libxrt_on_accel " in *" \$t "*) env=XRT_DEVICE=accel:0 ;; esac
		[ \$t = test_conformance ] && env=XRT_CONFORMANCE_DEVICES=accel:0
		[ \$t = test_xrt_replicated ] && env=XRT_REPLICATED_DEVICES=$accels
		env \$env /tests/\$t || { echo "### \$t FAILED"; rc=1; }
	done
	echo "### xrt-run: a module on accel:0 and accel:1 prints what host:0 prints"
	m=$src/selftests/libxrt/hlo/slices.hlo
	/tests/xrt-run --seed=3 --device=host:0 \$m >/tmp/host.out || rc=1
	for d in accel:0 accel:1; do
		/tests/xrt-run --seed=3 --device=\$d \$m >/tmp/dev.out &&
			cmp /tmp/host.out /tmp/dev.out || { echo "### xrt-run on \$d FAILED"; rc=1; }
	done
	grep result /tmp/dev.out
	echo "### xrt-run: 4 replicas on accel:0..3 print what 4 host devices print"
	m=$src/selftests/xrt-run/replicas.hlo
	/tests/xrt-run --seed=3 \$m >/tmp/host.out || rc=1
	/tests/xrt-run --seed=3 --devices=$accels \$m >/tmp/dev.out &&
		cmp /tmp/host.out /tmp/dev.out || { echo "### xrt-run --devices=$accels FAILED"; rc=1; }
	cat /tmp/dev.out
	if [ $bench = 1 ]; then
		echo "### xrt-bench --only=devices"; /tests/xrt-bench --only=devices || rc=1
	fi
	echo "### xrt-smi after the tests:"; /tests/xrt-smi
	for d in /sys/kernel/debug/dri/12[89] /sys/kernel/debug/dri/13[01]; do
		echo "### \$d/stats after the tests:"; cat \$d/stats
		for k in live_bos memory_used live_jobs live_queues; do
			v=\$(sed -n "s/^\$k: //p" \$d/stats)
			[ "\$v" = 0 ] || { echo "### leak: \$k = \$v"; rc=1; }
		done
	done
	rmmod xrt_accel || { echo "### rmmod failed"; rc=1; }
fi
if dmesg | grep -qE 'BUG:|WARNING:|Oops|Call Trace|refcount_t:|UBSAN|KASAN|soft lockup|rcu.*stall|hung_task|scheduling while atomic'; then
	echo "### the kernel complained:"; rc=1
fi
[ \$rc = 0 ] || { echo "### dmesg:"; dmesg; }
echo "XRT-VM-RESULT: \$([ \$rc = 0 ] && echo PASS || echo FAIL)"
poweroff -f
INIT
chmod +x "$stage/init"
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) >"$work/initramfs.cpio"

status=0
for cpu in $cpus; do
	log=$work/serial-$cpu.log
	cpu_args=()
	[ "$cpu" = default ] || cpu_args=(-cpu "$cpu")
	say "booting $kver with cpu $cpu (log: $log)"
	start=$(date +%s)
	set +e
	timeout --kill-after=10 "$boot_timeout" qemu-system-x86_64 -accel tcg \
		"${cpu_args[@]}" -m 2G -smp 2 -nic none -nographic -no-reboot \
		-kernel "$kernel" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet" </dev/null 2>&1 |
		tr -d '\r' >"$log"
	set -e
	grep -aE '^(ok|not ok|#|###) ' "$log" | grep -avE '^# (RUN|OK|     )' || true
	counts=$(awk '/^# Totals:/ { for (i = 3; i <= NF; i++) { split($i, kv, ":"); n[kv[1]] += kv[2] } }
		END { printf "%d passed, %d failed, %d skipped", n["pass"], n["fail"], n["skip"] }' "$log")
	if grep -aq '^XRT-VM-RESULT: PASS' "$log"; then
		say "cpu $cpu: PASS ($counts) in $(($(date +%s) - start)) s"
	else
		say "cpu $cpu: FAIL ($counts; $(grep -a '^XRT-VM-RESULT' "$log" || echo 'no result: timeout or crash'))"
		tail -n 40 "$log"
		status=1
	fi
done
exit $status
