# SPDX-License-Identifier: GPL-2.0
#
# kstat top-level Makefile.
#
#   make              build kstat.ko, the test helper module, libkstat and the CLI
#   make check        install missing packages, build, run host unit tests and
#                     the guest suite (T=tests/foo.sh SMP=8 KERNEL=/boot/vmlinuz-x)
#   make bench-seed   the seed's 10,000 /proc/stat reads beside kstat in one
#                     96-CPU guest with 2824 IRQs (not in check; 20+ min)
#   make stress       the long robustness runs, tests/long/*.sh (not in check)
#   make fuzz         the long fuzzer run alone, tests/long/fuzz-long.sh
#   make run          boot a guest with kstat loaded and show it at work
#   make check-rt     the kernel-facing guest tests on Debian's PREEMPT_RT
#                     kernel (linux-image-rt-amd64), modules built in build/rt
#   make check-6.12   the same on Debian 12's 6.12 kernel, in build/6.12
#   make check-kernels  check-rt and check-6.12 side by side (what CI runs)
#   make check-debug  the guest suite on a debug kernel (KASAN, kmemleak,
#                     lockdep, UBSAN) with kstat built in-tree; make
#                     debug-kernel only builds that kernel (cached, KSTAT_CACHE)
#   make kernel-lint  checkpatch --strict, sparse and W=1 on the kernel code
#   make install      install CLI, library, headers, man pages, systemd unit
#                     and module (DESTDIR, PREFIX); make uninstall
#   make dkms-install the module's source under /usr/src/kstat-VERSION for DKMS
#
# The kernel we build against and boot (KVER, scripts/kver.sh): the running
# kernel if its headers are installed, else Debian 12's stock 6.1 (what
# linux-image-amd64 depends on), never the PREEMPT_RT or 6.12 kernels that
# may be installed beside it: those only when named (KVER=..., make check-rt).

VERSION    := 0.1.0
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
# systemd reads units and modules-load.d under /usr/lib and /usr/local/lib
# (and /etc): right for PREFIX=/usr and /usr/local; set them for others.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
DKMS_SRC   := $(DESTDIR)/usr/src/kstat-$(VERSION)

TOP        := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
# Resolved when a recipe first needs it, not when make reads this file:
# on a fresh machine `make check` and `make run` install the kernel (deps)
# before they build against it, and their sub-makes and scripts get the
# kernel deps installed (tests/unit/test_make_fresh).  Kept once found,
# so scripts/kver.sh runs once per make, not at every use.
ifeq ($(origin KVER),undefined)
KVER        = $(if $(KVER_FOUND),,$(eval KVER_FOUND := $$(shell $(TOP)/scripts/kver.sh)))$(KVER_FOUND)
endif
KDIR       ?= /lib/modules/$(KVER)/build
KERNEL     ?= /boot/vmlinuz-$(KVER)
SMP        ?= 2
T          ?=

export VERSION KVER KDIR KERNEL SMP T

# Recursive (=), like KDIR: expanded in the recipes, after deps.
KBUILD_ARGS = -C $(KDIR) W=1

.PHONY: v6-module bench bench-seed bench-smoke tools all modules kmod irqsim userspace unit check stress fuzz run deps install uninstall \
	debug-kernel check-debug check-rt check-6.12 check-kernels kernel-lint \
	dkms-install dkms-uninstall clean examples

all: modules userspace tools examples

modules: kmod irqsim

tools: userspace
	$(MAKE) -C tests/tools
	$(MAKE) -C bench

# KSTAT_VERSION_BUMP=1: a module registering the family's version + 1
# (tests/protocol-version.sh).
kmod:
	$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/kernel CONFIG_KSTAT=m \
		KSTAT_VERSION_BUMP=$(KSTAT_VERSION_BUMP) modules

irqsim:
	$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/tests/irqsim modules

userspace:
	$(MAKE) -C userspace VERSION=$(VERSION)

# The examples against this tree's library (examples/Makefile on its own
# builds against the installed one, through pkg-config).
examples: userspace
	$(MAKE) -C examples KSTAT_CFLAGS="-I$(CURDIR)/userspace/lib -I$(CURDIR)/include/uapi" \
		KSTAT_LIBS="-L$(CURDIR)/userspace/lib -lkstat -Wl,-rpath,$(CURDIR)/userspace/lib" \
		KSTAT_DEPS="$(CURDIR)/userspace/lib/libkstat.h $(CURDIR)/userspace/lib/libkstat.so.2"

deps:
	scripts/install-deps.sh

# Benchmarks: kstat against /proc in the guest (2, 4 and 8 CPUs, 0/1024/4096
# synthetic IRQs; protocol 4's module beside it in each boot, built by
# scripts/bench-before.sh) and the library's parse cost on the host; the
# tables go to stdout and docs/performance.md.  About 15 minutes on a
# 2-core machine.
bench: deps
	$(MAKE) all
	scripts/bench.sh

# The seed thread's experiment at its own scale: one 96-CPU guest with 2824
# IRQ descriptors, 10,000 /proc/stat reads beside kstat's requests and
# samples, protocol 4's module beside it, the exporter beside node_exporter;
# a section of docs/performance.md.  Not in make check: 20 minutes or more
# here, the 96-CPU guest under TCG.
bench-seed: deps
	scripts/install-deps.sh --bench
	$(MAKE) all
	scripts/bench-seed.sh

# One small configuration, as a guest test (it runs in make check too).
bench-smoke: deps
	$(MAKE) all
	T=tests/bench-smoke.sh tests/check.sh

unit: userspace
	tests/run-unit.sh

check: deps
	$(MAKE) all v6-module
	tests/check.sh

# kstat.ko registering the family's version + 1, for
# tests/protocol-version.sh, which builds it in the guest when it is not
# here (over two minutes under TCG: a sixth of make check's guest time).
# (tests/unit/test_make_fresh's fake tree has no module sources: nothing.)
v6-module:
	if [ -f kernel/Kbuild ]; then \
		rm -rf build/v6 && mkdir -p build/v6/kernel && \
		cp kernel/*.c kernel/*.h kernel/Kbuild build/v6/kernel/ && \
		rm -f build/v6/kernel/*.mod.c && cp -r include build/v6/ && \
		$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/build/v6/kernel \
			CONFIG_KSTAT=m KSTAT_VERSION_BUMP=1 modules; \
	fi

# The long robustness runs, tests/long/*.sh (5 minutes of concurrency, 200
# unloads under load, ...), in one guest boot: about 40 minutes under TCG.
# Not part of make check, which runs tests/*.sh only.
stress: deps
	$(MAKE) all
	tests/vm/run-guest.sh $(sort $(wildcard tests/long/*.sh))

# A million random and mutated requests (tests/tools/fuzz.c, a random
# seed) in one guest boot; make check runs a short fixed-seed tests/fuzz.sh.
fuzz: deps
	$(MAKE) all
	tests/vm/run-guest.sh tests/long/fuzz-long.sh

run: deps
	$(MAKE) all
	tests/vm/run-guest.sh --demo

# Linux 6.1 from linux-source-6.1 with KASAN, kmemleak, lockdep, UBSAN and
# kstat in net/kstat (Kconfig.snippet), cached outside the repository in
# KSTAT_CACHE (default ~/.cache/kstat): the first build takes long (see
# docs/testing.md), a second run with nothing changed builds nothing.
debug-kernel: deps
	scripts/debug-kernel.sh

# The guest suite on that kernel, booted with kmemleak=on panic_on_warn=1;
# kmemleak scans after the suite, any leak fails.
check-debug: deps
	$(MAKE) all
	scripts/check-debug.sh

# The guest suite less its userspace-only tests on Debian 12's 6.1
# PREEMPT_RT kernel, with kstat.ko and kstat_irqsim.ko built against its
# headers in build/rt/ (the stock build stays).  CHECK_LEAVE_OUT= runs all.
check-rt: deps
	$(MAKE) all
	scripts/check-kernel.sh rt

# The same on Debian 12's 6.12 backport (scripts/install-deps.sh --kernel
# 6.12 installs it), built in build/6.12/: what CI runs on the second
# kernel.  The whole suite there: make check KVER=6.12.117+deb12-amd64.
check-6.12: deps
	$(MAKE) all
	scripts/check-kernel.sh 6.12

# Both at once, each guest in its own build/vm-FLAVOUR: one such guest
# keeps about 1.2 of 2 cores busy, so together they take about 70 % of
# the time one after the other (scripts/check-kernels.sh).  CI runs this.
check-kernels: deps
	$(MAKE) all
	scripts/check-kernels.sh

# Also a host unit test (tests/unit/test_kernel_lint), so make check runs it.
kernel-lint:
	scripts/kernel-lint.sh

# Builds only what it installs (not the test modules and tools).  The
# unit's ExecStart gets $(BINDIR)/kstat-exporter.  depmod only for a real install,
# so that modprobe finds the module.
# The module has one location: when DKMS manages kstat (make dkms-install,
# dkms install; DKMS=1, or found by `dkms status` for a real install),
# DKMS put it under updates/dkms/ and make install leaves extra/ alone.
DKMS ?= $(if $(DESTDIR),0,$(shell command -v dkms >/dev/null 2>&1 && \
	  dkms status kstat 2>/dev/null | grep -q . && echo 1 || echo 0))

install: kmod userspace
	$(MAKE) -C userspace install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) MANDIR=$(MANDIR)
	install -D -m 0644 docs/man/kstat.8 $(DESTDIR)$(MANDIR)/man8/kstat.8
	install -D -m 0644 docs/man/libkstat.3 $(DESTDIR)$(MANDIR)/man3/libkstat.3
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|g' \
	    -e 's|^\(ExecStart=\)/usr/bin/kstat-exporter |\1$(BINDIR)/kstat-exporter |' \
		dist/kstat-exporter.service > $(DESTDIR)$(SYSTEMDUNITDIR)/kstat-exporter.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/kstat-exporter.service
	install -D -m 0644 dist/modules-load.d/kstat.conf $(DESTDIR)$(MODULESLOADDIR)/kstat.conf
	if [ "$(DKMS)" != 1 ]; then \
		install -D -m 0644 kernel/kstat.ko $(DESTDIR)/lib/modules/$(KVER)/extra/kstat.ko; \
	else echo "kstat.ko: managed by DKMS, not installed in extra/"; fi
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER) || true; fi

uninstall:
	$(MAKE) -C userspace uninstall DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) MANDIR=$(MANDIR)
	rm -f $(DESTDIR)$(MANDIR)/man8/kstat.8 $(DESTDIR)$(MANDIR)/man3/libkstat.3 \
	      $(DESTDIR)$(SYSTEMDUNITDIR)/kstat-exporter.service \
	      $(DESTDIR)$(MODULESLOADDIR)/kstat.conf \
	      $(DESTDIR)/lib/modules/$(KVER)/extra/kstat.ko
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER) || true; fi

# The module's source as DKMS wants it: dkms.conf and a Makefile at the
# top, kernel/ and the UAPI header beside it (kernel/Kbuild looks in
# ../include/uapi).  Then: dkms add kstat/$(VERSION); dkms install ...
dkms-install:
	install -d $(DKMS_SRC)/kernel $(DKMS_SRC)/include/uapi/linux
	install -m 0644 $(filter-out %.mod.c %.gen.h,$(wildcard kernel/*.[ch])) \
		kernel/Kbuild kernel/Kconfig $(DKMS_SRC)/kernel/
	install -m 0644 include/uapi/linux/kstat.h $(DKMS_SRC)/include/uapi/linux/kstat.h
	install -m 0644 dkms/Makefile $(DKMS_SRC)/Makefile
	sed 's|@VERSION@|$(VERSION)|g' dkms/dkms.conf.in > $(DKMS_SRC)/dkms.conf
	chmod 0644 $(DKMS_SRC)/dkms.conf

# A real uninstall first takes the module out of DKMS (every kernel).
dkms-uninstall:
	if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
	   [ -n "$$(dkms status kstat/$(VERSION) 2>/dev/null)" ]; then \
		dkms remove kstat/$(VERSION) --all; fi
	rm -rf $(DKMS_SRC)

clean:
	-$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/kernel clean
	-$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/tests/irqsim clean
	$(MAKE) -C userspace clean
	$(MAKE) -C examples clean
	rm -rf build
