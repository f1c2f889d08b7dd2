# SPDX-License-Identifier: MIT
#
# The single entry point.  Userspace builds with Meson + Ninja; the
# kernel module with Kbuild against a kernel build tree (KDIR).
#
#   make               install missing packages, build everything
#   make run           the main job (for now: xrt-run --demo)
#   make test          quick: unit tests of the normal build only
#   make check         everything: unit tests, ASan+UBSan build, fuzzing,
#                      the threaded tests under ThreadSanitizer, the VM
#                      stage (XRT_SKIP_VM=1 skips it, and says so)
#   make examples      install into a scratch root, build examples/ with
#                      pkg-config against it and run them (make check does)
#   make vmtest        the VM stage alone: the driver and its selftests
#                      in Debian's kernel under QEMU
#   make vmbench       the VM stage with xrt-bench --only=devices after it
#                      (accel:0 against host:0 in the same VM)
#   make checkpatch    the kernel's checkpatch.pl --strict on driver/, uapi/
#                      (make check runs it: it must report nothing)
#   make docs          Documentation/ rendered by Sphinx into build/docs
#                      (make check runs it: no warning allowed)
#   make bench         benchmarks against peers, as ratios
#   make install PREFIX=/usr/local
#   make driver KDIR=/lib/modules/$(uname -r)/build
#   make clean

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
PREFIX     ?= /usr/local
FUZZ_SECONDS ?= 60

DEPS     := tools/install-deps.sh
CACHE    := $(shell $(DEPS) --print-cache)
KSELFTEST := $(CACHE)/linux/tools/testing/selftests
MESON_OPTS := -Dkselftest_dir=$(KSELFTEST)
ASAN_OPTS  := $(MESON_OPTS) -Db_sanitize=address,undefined -Db_lundef=false \
	      -Dbuildtype=debug -Dfuzz=true -Dfuzz_seconds=$(FUZZ_SECONDS)
TSAN_OPTS  := $(MESON_OPTS) -Db_sanitize=thread -Db_lundef=false

.PHONY: all deps build run test check check-long asan tsan bench install clean driver driver-clean \
	vmtest vmbench checkpatch examples docs

all: build

# Installs packages and extracts the selftest harness only when missing.
deps:
	@$(DEPS) --check || $(DEPS)

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD) $(MESON_OPTS)

$(ASAN_BUILD)/build.ninja: | deps
	CC=clang meson setup $(ASAN_BUILD) $(ASAN_OPTS)

$(TSAN_BUILD)/build.ninja: | deps
	meson setup $(TSAN_BUILD) $(TSAN_OPTS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

asan: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

# ThreadSanitizer: the tests that start threads (suite 'threads').
tsan: deps $(TSAN_BUILD)/build.ninja
	ninja -C $(TSAN_BUILD)

run: build
	$(BUILD)/tools/xrt-run/xrt-run --seed=1 --show-inputs examples/hlo/classifier.hlo
	$(BUILD)/tools/xrt-run/xrt-run --seed=1 --device=reference examples/hlo/classifier.hlo

test: build
	tools/run-selftests --suite unit $(BUILD)

check: build asan tsan
	tools/run-selftests $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)=threads
	tools/check-install.sh $(BUILD)
	$(MAKE) --no-print-directory checkpatch
	$(MAKE) --no-print-directory docs
ifeq ($(XRT_SKIP_VM),)
	tools/vm/vmtest.sh $(BUILD)
else
	@echo "check: the VM stage was SKIPPED (XRT_SKIP_VM is set): the driver is untested"
endif

# Long campaigns, run (and reported) before an issue is resolved: every
# fuzzer for FUZZ_LONG_SECONDS from the seeds and the corpus kept in
# build-long/ (an hour each by default), then every planted mutant.
FUZZ_LONG_SECONDS ?= 3600
LONG_BUILD ?= build-long
check-long: deps
	test -f $(LONG_BUILD)/build.ninja || CC=clang meson setup $(LONG_BUILD) $(ASAN_OPTS)
	meson configure $(LONG_BUILD) -Dfuzz_seconds=$(FUZZ_LONG_SECONDS)
	ninja -C $(LONG_BUILD)
	meson test -C $(LONG_BUILD) --suite fuzz --num-processes 2 --print-errorlogs
	tools/mutate/mutate

vmtest: build
	tools/vm/vmtest.sh $(BUILD)

vmbench: build
	XRT_VM_BENCH=1 XRT_VM_CPUS=max tools/vm/vmtest.sh $(BUILD)

examples: build
	tools/check-install.sh $(BUILD)

docs: deps
	sphinx-build -q -W --keep-going -b html Documentation $(BUILD)/docs

KERNEL_SOURCES := $(wildcard driver/*.[ch] driver/engine/*.[ch] driver/engine/include/engine/*.h \
	uapi/drm/*.h)
checkpatch: deps
	perl $(CACHE)/linux/scripts/checkpatch.pl --strict --no-tree --quiet --terse --no-summary \
		-f $(filter-out %.mod.c,$(KERNEL_SOURCES))

# OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE force slow kernels on some machines:
# unset for benchmark runs only, never for tests.
bench: build
	@$(DEPS) --bench --check || $(DEPS) --bench
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(BUILD)/tools/xrt-bench/xrt-bench

install: build
	meson configure $(BUILD) -Dprefix=$(abspath $(PREFIX))
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)

# The kernel module: Kbuild at the top level descends into driver/.
driver:
	@test -n "$(KDIR)" || { echo "make driver: set KDIR to a kernel build tree" >&2; exit 2; }
	@test -f driver/Kbuild || { echo "make driver: driver/ has no sources yet" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

driver-clean:
	@test -n "$(KDIR)" || { echo "make driver-clean: set KDIR" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
