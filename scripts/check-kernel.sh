#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-kernel.sh rt|6.12 - what `make check-rt` and `make
# check-6.12` run after `make all`: the guest suite (tests/check.sh,
# without the host unit tests) on another kernel than the stock 6.1 that
# `make check` boots: rt, Debian 12's PREEMPT_RT kernel
# (linux-image-rt-amd64, 6.1); 6.12, Debian 12's 6.12 backport
# (linux-image-6.12-amd64, scripts/install-deps.sh --kernel 6.12), less the tests marked
# "# leave-out: userspace-only" (CHECK_LEAVE_OUT, default userspace-only;
# CHECK_LEAVE_OUT= runs them all).  The kernel log is scanned after every
# test as in make check: "BUG: scheduling while atomic", "BUG: sleeping
# function called from invalid context" and "BUG: workqueue leaked lock"
# fail the test that was running.
#
# kstat.ko and kstat_irqsim.ko are built against that kernel's headers in
# a copy of their sources under build/rt/ or build/6.12/ (kbuild's M= builds in the source
# directory: the stock build in kernel/ and tests/irqsim/ stays as it is);
# the guest bind-mounts them over kernel/kstat.ko and
# tests/irqsim/kstat_irqsim.ko (GUEST_KSTAT_KO, GUEST_IRQSIM_KO, as make
# check-debug does).
#
# RT_KVER (default scripts/kver.sh --rt), K612_KVER (default
# scripts/kver.sh --6.12), T=, SMP=, CHECK_SMP8=,
# KSTAT_VMDIR= and KSTAT_TIMEOUT_SCALE (default 2) work as for make check.
# The last line is "N passed, N failed, N skipped".

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FLAVOUR=${1:-rt}
OUT=$REPO/build/$FLAVOUR

give_up() {
	echo "not ok - <$FLAVOUR-kernel>: $*"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
}

# copy_tree: kstat's and irqsim's kernel sources into $OUT/src, keeping
# their times (cp -p), so that make rebuilds only what changed.
copy_tree() {
	local src=$OUT/src
	mkdir -p "$src/kernel" "$src/include/uapi/linux" "$src/irqsim"
	cp -p kernel/Kbuild kernel/*.c kernel/*.h "$src/kernel/"
	rm -f "$src/kernel/"*.mod.c "$src/kernel/"*.gen.h
	cp -p include/uapi/linux/kstat.h "$src/include/uapi/linux/"
	cp -p tests/irqsim/Kbuild tests/irqsim/*.c kernel/compat.h "$src/irqsim/"
	rm -f "$src/irqsim/"*.mod.c
}

# build KDIR: kstat.ko and kstat_irqsim.ko against KDIR; the log in
# $OUT/build.log.
build() {
	local kdir=$1
	copy_tree
	{
		make -C "$kdir" W=1 M="$OUT/src/kernel" CONFIG_KSTAT=m modules &&
		make -C "$kdir" W=1 M="$OUT/src/irqsim" modules
	} > "$OUT/build.log" 2>&1
}

main() {
	local kver kdir kernel start=$SECONDS
	cd "$REPO" || exit 1
	case $FLAVOUR in
	rt)
		kver=${RT_KVER:-$(scripts/kver.sh --rt)}
		[[ -n $kver ]] ||
			give_up "no Debian PREEMPT_RT kernel in /lib/modules (scripts/install-deps.sh installs linux-image-rt-amd64)"
		;;
	6.12)
		kver=${K612_KVER:-$(scripts/kver.sh --6.12)}
		[[ -n $kver ]] ||
			give_up "no Debian 6.12 kernel in /lib/modules (scripts/install-deps.sh --kernel 6.12 installs it)"
		;;
	*)
		echo "usage: $0 rt|6.12" >&2
		exit 2
		;;
	esac
	kernel=/boot/vmlinuz-$kver
	kdir=/lib/modules/$kver/build
	[[ -r $kernel ]] || give_up "no $kernel (apt-get install linux-image-$kver)"
	[[ -d $kdir ]] || give_up "no headers in $kdir (apt-get install linux-headers-$kver)"
	echo "# $FLAVOUR kernel: $kver ($kernel)"
	if [[ $FLAVOUR == rt ]]; then
		grep -E '^CONFIG_PREEMPT_RT=' "/boot/config-$kver" 2>/dev/null | sed 's/^/# /' ||
			echo "# warning: /boot/config-$kver does not say CONFIG_PREEMPT_RT=y"
	fi

	mkdir -p "$OUT"
	if ! build "$kdir"; then
		echo "not ok - <$FLAVOUR-build>: kstat.ko or kstat_irqsim.ko does not build against $kdir"
		grep -E 'error|warning' "$OUT/build.log" | head -n 20 | sed 's/^/    /'
		echo "    (the whole log: ${OUT#"$REPO"/}/build.log)"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	echo "# kstat.ko and kstat_irqsim.ko built against $kver in ${OUT#"$REPO"/}/src, after $((SECONDS - start))s"

	export KVER=$kver KERNEL=$kernel MODDIR=/lib/modules/$kver
	export GUEST_KSTAT_KO=$OUT/src/kernel/kstat.ko
	export GUEST_IRQSIM_KO=$OUT/src/irqsim/kstat_irqsim.ko
	export CHECK_LEAVE_OUT=${CHECK_LEAVE_OUT-userspace-only}
	# Every test's limit (and the harness's margins) doubles: the rt
	# kernel's threaded interrupts and sleeping locks cost time under
	# TCG, and summary-lifecycle.sh then runs 8 cycles, not 50 (the
	# cycles hunt races, which make check and make stress do on 6.1).
	export KSTAT_TIMEOUT_SCALE=${KSTAT_TIMEOUT_SCALE:-2}
	CHECK_UNIT=0 tests/check.sh
}

main "$@"
