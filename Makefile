# SPDX-License-Identifier: GPL-2.0
#
# kstat top-level Makefile.
#
#   make              build kstat.ko, the test helper module, libkstat and the CLI
#   make check        install missing packages, build, run host unit tests and
#                     the guest suite (T=tests/foo.sh SMP=8 KERNEL=/boot/vmlinuz-x)
#   make run          boot a guest with kstat loaded and show it at work
#   make install      install CLI, library, headers and module (DESTDIR, PREFIX)
#
# The kernel we build against and boot is Debian 12's linux-image-amd64, not
# the host's running kernel (the host cannot load modules).

VERSION    := 0.1.0
PREFIX     ?= /usr/local
DESTDIR    ?=

# Newest installed Debian *-amd64 kernel unless told otherwise.
KVER       ?= $(shell ls -1 /lib/modules 2>/dev/null | grep -- '-amd64$$' | sort -V | tail -n 1)
KDIR       ?= /lib/modules/$(KVER)/build
KERNEL     ?= /boot/vmlinuz-$(KVER)
SMP        ?= 2
T          ?=

export VERSION KVER KDIR KERNEL SMP T

KBUILD_ARGS := -C $(KDIR) W=1

.PHONY: bench bench-smoke tools all modules kmod irqsim userspace unit check run deps install uninstall clean

all: modules userspace tools

modules: kmod irqsim

tools:
	$(MAKE) -C tests/tools
	$(MAKE) -C bench

kmod:
	$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/kernel CONFIG_KSTAT=m modules

irqsim:
	$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/tests/irqsim modules

userspace:
	$(MAKE) -C userspace VERSION=$(VERSION)

deps:
	scripts/install-deps.sh

# Benchmarks: kstat against /proc in the guest (2 and 8 CPUs, 0/1024/4096
# synthetic IRQs) and the library's parse cost on the host; the table goes
# to stdout and docs/performance.md.  About 5 minutes on a 2-core machine.
bench: deps
	$(MAKE) all
	scripts/bench.sh

# One small configuration, as a guest test (it runs in make check too).
bench-smoke: deps
	$(MAKE) all
	T=tests/bench-smoke.sh tests/check.sh

unit: userspace
	tests/run-unit.sh

check: deps
	$(MAKE) all
	tests/check.sh

run: deps
	$(MAKE) all
	tests/vm/run-guest.sh --demo

install: all
	$(MAKE) -C userspace install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	install -D -m 0644 kernel/kstat.ko $(DESTDIR)/lib/modules/$(KVER)/extra/kstat.ko

uninstall:
	$(MAKE) -C userspace uninstall DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	rm -f $(DESTDIR)/lib/modules/$(KVER)/extra/kstat.ko

clean:
	-$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/kernel clean
	-$(MAKE) $(KBUILD_ARGS) M=$(CURDIR)/tests/irqsim clean
	$(MAKE) -C userspace clean
	rm -rf build
