#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-debug.sh - what `make check-debug` runs after `make all`:
# the guest suite (tests/check.sh, without the host unit tests) on the debug
# kernel of scripts/debug-kernel.sh, with its in-tree kstat.ko and the
# kstat_irqsim.ko built against it, booted with kmemleak=on and
# panic_on_warn=1.  After the tests the guest runner unloads the modules and
# has kmemleak scan twice: any suspected leak fails the run ("<kmemleak>").
#
# T=, SMP= and KSTAT_VMDIR= work as for make check; KSTAT_TIMEOUT_SCALE
# (default 3), QEMU_MACHINE (default q35) and BOOT_MARGIN (default 600)
# are set for this kernel unless given.  Prints the debug options
# of the kernel first; the last line is "N passed, N failed, N skipped".

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OPTIONS='KASAN|KASAN_GENERIC|KASAN_INLINE|DEBUG_KMEMLEAK|LOCKDEP|PROVE_LOCKING|PROVE_RCU'
OPTIONS+='|DEBUG_ATOMIC_SLEEP|DEBUG_OBJECTS_WORK|DEBUG_OBJECTS_TIMERS|UBSAN|KSTAT'

main() {
	local env start=$SECONDS
	cd "$REPO" || exit 1
	echo "# debug kernel: scripts/debug-kernel.sh"
	if ! env=$(scripts/debug-kernel.sh); then
		echo "not ok - <debug-kernel>: scripts/debug-kernel.sh failed"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	# shellcheck source=/dev/null
	source "$env"
	echo "# $DEBUG_KVER ($DEBUG_KERNEL), ready after $((SECONDS - start))s"
	grep -E "^CONFIG_($OPTIONS)=" "$DEBUG_CONFIG" | sed 's/^/# /'

	export KERNEL=$DEBUG_KERNEL MODDIR=$DEBUG_MODDIR
	export GUEST_KSTAT_KO=$DEBUG_KSTAT_KO GUEST_IRQSIM_KO=$DEBUG_IRQSIM_KO
	export KSTAT_KMEMLEAK=1
	# Everything runs some 3 times slower than on Debian's kernel: every
	# test's limit (and the harness's margins) too.
	export KSTAT_TIMEOUT_SCALE=${KSTAT_TIMEOUT_SCALE:-3} BOOT_MARGIN=${BOOT_MARGIN:-600}
	# q35, not pc: on pc the instrumented ACPI interpreter runs the _PRT
	# loop of the DSDT into its 30 s timeout, twice, at every boot.
	export QEMU_MACHINE=${QEMU_MACHINE:-q35}
	export KSTAT_APPEND="${KSTAT_APPEND:+$KSTAT_APPEND }kmemleak=on panic_on_warn=1"
	CHECK_UNIT=0 tests/check.sh
}

main "$@"
