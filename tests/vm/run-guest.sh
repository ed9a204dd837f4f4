#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh - boot the kstat test guest under QEMU and run tests in it.
#
#   tests/vm/run-guest.sh [--timeout SECS] TEST...   run guest tests, one boot
#   tests/vm/run-guest.sh --demo                     boot, run tests/vm/demo.sh
#
# Environment:
#   KERNEL   kernel image to boot (default /boot/vmlinuz-$KVER, KVER by
#            default scripts/kver.sh's: the running kernel if its headers
#            are installed, else Debian 12's stock 6.1, never -rt or 6.12)
#   MODDIR   its modules (default /lib/modules/<version of KERNEL>)
#   SMP      guest CPUs (default 2); memory is 2G, 4G from 8 CPUs on
#   ACCEL    tcg (default) or kvm
#   QEMU_MACHINE  QEMU machine type (default QEMU's, pc; check-debug: q35)
#   KSTAT_APPEND  more kernel command line (e.g. "kmemleak=on")
#   GUEST_KSTAT_KO, GUEST_IRQSIM_KO  modules the guest uses instead of the
#            repository's kernel/kstat.ko and tests/irqsim/kstat_irqsim.ko
#            (bind-mounted over them in the guest; make check-debug)
#   KSTAT_KMEMLEAK=1  kmemleak scans around the tests (needs kmemleak=on)
#   RUNNER_TRACE=1  bash xtrace of the guest runner, with timestamps, in
#                 results/trace (to see where time goes)
#   TEST_TIMEOUT  default per-test time limit in seconds (180)
#   KSTAT_TIMEOUT_SCALE  multiply every test's limit (and the margins) by
#                 this integer, in the guest too (make check-debug)
#   KSTAT_VMDIR   where the initramfs, console.log and results go
#                 (default build/vm; a second run in the same one waits)
#
# The guest shares this machine's / read-only and build/vm/results read-write
# over virtio-9p.  The test results stream out of results/runner.out while
# the guest runs; the serial console goes to build/vm/console.log.
#
# Exit status: 0 all tests passed, 1 some failed, 2 the guest itself failed
# (did not boot, crashed, hung); then results/guest-failure says why.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VMDIR=${KSTAT_VMDIR:-$REPO/build/vm}	# another dir allows a second run at once
RESULTS=$VMDIR/results
CONSOLE=$VMDIR/console.log
RUNNER=$REPO/tests/vm/guest-runner.sh

BOOT_MARGIN=${BOOT_MARGIN:-240}	# seconds for boot + power off under TCG
PER_TEST_MARGIN=$((20 * ${KSTAT_TIMEOUT_SCALE:-1}))	# kill grace, module reload, log scan
DEMO_LIMIT=600

say() { echo "run-guest: $*" >&2; }
die() { say "$*"; exit 2; }

# kernel_version IMAGE: from the file name (vmlinuz-<version>), else from the
# bzImage header as `file` shows it.
kernel_version() {
	local base=${1##*/}
	if [[ $base == vmlinuz-* ]]; then
		echo "${base#vmlinuz-}"
	else
		file -bL "$1" | sed -n 's/.*, version \([^ ]*\) .*/\1/p'
	fi
}

pick_kernel() {
	local kver
	if [[ -z ${KERNEL:-} ]]; then
		kver=${KVER:-$("$REPO/scripts/kver.sh")}
		[[ -z $kver ]] || KERNEL=/boot/vmlinuz-$kver
	fi
	[[ -n $KERNEL && -r $KERNEL ]] ||
		die "no kernel image ${KERNEL:-in /boot} (install linux-image-amd64 or set KERNEL=)"
	GUEST_KVER=$(kernel_version "$KERNEL")
	[[ -n $GUEST_KVER ]] || die "cannot tell the version of $KERNEL"
	MODDIR=${MODDIR:-/lib/modules/$GUEST_KVER}
}

# warn_vermagic: kstat.ko built for another kernel will not load; say so
# early rather than let every test fail with a cryptic insmod error.
warn_vermagic() {
	local ko=${GUEST_KSTAT_KO:-$REPO/kernel/kstat.ko} magic
	[[ -f $ko ]] || return 0
	magic=$(modinfo -F vermagic "$ko" 2>/dev/null | awk '{ print $1 }')
	if [[ -n $magic && $magic != "$GUEST_KVER" ]]; then
		say "warning: ${ko#"$REPO"/} is built for $magic, the guest runs $GUEST_KVER"
	fi
}

# qemu_cmd INITRAMFS: the QEMU command line, one word per line.
qemu_cmd() {
	local mem=2G accel=${ACCEL:-tcg} smp=${SMP:-2} cpu
	((smp >= 8)) && mem=4G
	if [[ $accel == kvm ]]; then
		cpu=host
	else
		accel=tcg,thread=multi cpu=max
	fi
	local append="console=ttyS0 panic=-1 loglevel=4 printk.devkmsg=on"
	append+=" log_buf_len=8M rdinit=/init kstatvm.repo=$REPO ${KSTAT_APPEND:-}"
	local -a machine=()
	[[ -z ${QEMU_MACHINE:-} ]] || machine=(-machine "$QEMU_MACHINE")
	printf '%s\n' qemu-system-x86_64 "${machine[@]}" -accel "$accel" -cpu "$cpu" \
		-smp "$smp" -m "$mem" -nographic -no-reboot -nodefaults \
		-serial stdio -monitor none -nic none \
		-kernel "$KERNEL" -initrd "$1" -append "$append" \
		-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-fsdev "local,id=results,path=$RESULTS,security_model=none,multidevs=remap" \
		-device virtio-9p-pci,fsdev=results,mount_tag=results
}

# budget SECS...: an upper bound for the whole run (boot, every test at its
# limit, power off): QEMU never runs longer than that.
budget() {
	local total=$((2 * BOOT_MARGIN)) t
	for t in "$@"; do total=$((total + t + PER_TEST_MARGIN)); done
	echo "$total"
}

# watch_guest QPID [EXTRA]: the watchdog.  The guest runner kills a test at
# its limit, so a guest that stays on one test much longer is stuck (a
# kernel deadlock, say): kill QEMU when results/progress does not change for
# BOOT_MARGIN (+ EXTRA) seconds before the first test or after the last, or
# for the running test's limit + PER_TEST_MARGIN.  Sets WATCHDOG to why.
watch_guest() {
	local qpid=$1 deadline allowed progress='' last='' t
	allowed=$((BOOT_MARGIN + ${2:-0}))
	deadline=$((SECONDS + allowed))
	while kill -0 "$qpid" 2>/dev/null; do
		progress=$(cat "$RESULTS/progress" 2>/dev/null || true)
		if [[ $progress != "$last" ]]; then
			last=$progress
			if [[ $progress == running\ * ]]; then
				t=${progress#running }
				allowed=$((${LIMIT_OF[$t]:-$((${TEST_TIMEOUT:-180} * ${KSTAT_TIMEOUT_SCALE:-1}))} + PER_TEST_MARGIN))
			else
				allowed=$BOOT_MARGIN
			fi
			deadline=$((SECONDS + allowed))
		fi
		if ((SECONDS > deadline)); then
			WATCHDOG="guest watchdog: no progress for ${allowed}s, killed QEMU"
			kill -TERM "$qpid" 2>/dev/null
			break
		fi
		sleep 1
	done
}

# prepare_results MODE TEST...: a fresh results share with the guest's orders.
prepare_results() {
	local mode=$1
	shift
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
	{
		echo "KSTAT_MODE=$mode"
		echo "export KSTAT_GUEST_KVER=$GUEST_KVER"
		[[ -z ${TEST_TIMEOUT:-} ]] || echo "export TEST_TIMEOUT=$TEST_TIMEOUT"
		[[ -z ${KSTAT_TIMEOUT_SCALE:-} ]] || echo "export KSTAT_TIMEOUT_SCALE=$KSTAT_TIMEOUT_SCALE"
		[[ -z ${RUNNER_TRACE:-} ]] || echo "export RUNNER_TRACE=/run/kstat-results/trace"
		[[ -z ${GUEST_KSTAT_KO:-} ]] || echo "GUEST_KSTAT_KO=$GUEST_KSTAT_KO"
		[[ -z ${GUEST_IRQSIM_KO:-} ]] || echo "GUEST_IRQSIM_KO=$GUEST_IRQSIM_KO"
		[[ ${KSTAT_KMEMLEAK:-0} == 0 ]] || echo "KSTAT_KMEMLEAK=1"
	} > "$RESULTS/config"
	printf '%s\n' "$@" > "$RESULTS/tests.list"
	echo "${KSTAT_RUN_ID:-}" > "$RESULTS/run-id"
}

# diagnose QEMU_STATUS BUDGET: why the guest did not finish, in one line.
diagnose() {
	local qrc=$1 budget=$2 why running
	why=$(sed -n 's/.*kstat-guest: FATAL: //p' "$CONSOLE" | head -n 1)
	[[ -n $why ]] || why=$(grep -a -o -m 1 'Kernel panic - not syncing:.*' "$CONSOLE" || true)
	if [[ -n $WATCHDOG ]]; then
		why="$WATCHDOG${why:+ ($why)}"
	elif ((qrc == 124 || qrc == 137)); then
		why="guest watchdog: killed QEMU after ${budget}s in all${why:+ ($why)}"
	elif [[ -z $why ]]; then
		if [[ -s $RESULTS/status ]]; then
			why="guest stopped before the tests finished (QEMU exit status $qrc)"
		else
			why="guest did not boot (QEMU exit status $qrc)"
		fi
	fi
	running=$(sed -n 's/^running //p' "$RESULTS/progress" 2>/dev/null || true)
	[[ -z $running ]] || why+=" while running $running"
	echo "$why"
}

# crashed_before_init: did the kernel die before the initramfs's /init
# printed its first line?  Nothing of kstat's has run then (the module is
# loaded by the tests), so the crash is the kernel's or the emulator's: under
# multi-threaded TCG, Debian's 6.12 kernel has been seen to take an int3
# Oops in its own boot-time code patching (sched_clock_cpu, "Modules linked
# in:" empty, 1.6 s after boot; CI, stop 20).  Such a boot is tried once
# more; a crash once /init runs never is.
crashed_before_init() {
	! grep -a -q 'kstat-guest: \[' "$CONSOLE" &&
		grep -a -q -E 'Kernel panic - not syncing|Oops:|BUG:' "$CONSOLE"
}

# crash_summary: the crash's first Oops/BUG line and its RIP, for the log.
crash_summary() {
	local first rip
	first=$(grep -a -o -m 1 -E '(Oops|BUG):.*' "$CONSOLE" || true)
	rip=$(grep -a -o -m 1 -E 'RIP: [0-9]+:[^ ]+' "$CONSOLE" || true)
	echo "${first:-$(grep -a -o -m 1 'Kernel panic - not syncing:.*' "$CONSOLE")}${rip:+, $rip}"
}

# boot_once MODE INITRAMFS BUDGET: one boot running the tests in results/.
# Exit status as the script's.
boot_once() {
	local mode=$1 initramfs=$2 budget=$3 qpid tpid qrc=0 status
	local -a cmd=()
	WATCHDOG=
	mapfile -t cmd < <(qemu_cmd "$initramfs")
	say "booting $KERNEL (${SMP:-2} CPUs, ${ACCEL:-tcg}); console: ${CONSOLE#"$REPO"/}"

	# --foreground keeps QEMU in our process group: whatever stops this
	# script as a group (Ctrl-C, the timeout in .ci/run) stops QEMU too.
	timeout --foreground -k 10 "$budget" "${cmd[@]}" < /dev/null > "$CONSOLE" 2>&1 &
	qpid=$!
	# Stream the results as the guest writes them; tail ends with QEMU.
	tail -n +1 -s 0.3 -F --pid="$qpid" "$RESULTS/runner.out" 2>/dev/null &
	tpid=$!
	# And a signal to this script alone must not leave QEMU running either.
	trap 'kill -TERM "$qpid" "$tpid" 2>/dev/null; exit 143' TERM HUP
	trap 'kill -TERM "$qpid" "$tpid" 2>/dev/null; exit 130' INT
	if [[ $mode == demo ]]; then
		watch_guest "$qpid" "$DEMO_LIMIT"
	else
		watch_guest "$qpid"
	fi
	wait "$qpid" || qrc=$?
	wait "$tpid" || true

	status=$(cat "$RESULTS/status" 2>/dev/null || true)
	if [[ $status == done\ * ]]; then
		[[ $mode == tests ]] || return 0
		return $(( ${status#done } == 0 ? 0 : 1 ))
	fi
	diagnose "$qrc" "$budget" > "$RESULTS/guest-failure"
	say "guest failed: $(< "$RESULTS/guest-failure")"
	say "last lines of ${CONSOLE#"$REPO"/}:"
	tail -n 40 "$CONSOLE" | sed 's/^/    /' >&2
	return 2
}

main() {
	local mode=tests initramfs budget limit t attempt rc=0
	local -a tests=()
	while (($#)); do
		case $1 in
		--demo) mode=demo; shift ;;
		--timeout) export TEST_TIMEOUT=$2; shift 2 ;;
		-h|--help) sed -n '4,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		-*) die "unknown option $1" ;;
		*) tests+=("$1"); shift ;;
		esac
	done
	[[ $REPO != *[[:space:]]* ]] || die "the repository path must not contain spaces: $REPO"
	command -v qemu-system-x86_64 > /dev/null ||
		die "qemu-system-x86_64 not found (run scripts/install-deps.sh)"
	pick_kernel
	for t in "${GUEST_KSTAT_KO:-}" "${GUEST_IRQSIM_KO:-}"; do
		[[ -z $t || -f $t ]] || die "$t does not exist"
	done
	warn_vermagic
	mkdir -p "$VMDIR"

	# One guest at a time per directory: they would share results/.  (Two
	# guests would mostly fight over the CPUs anyway.)
	exec 9> "$VMDIR/lock"
	if ! flock -n 9; then
		say "waiting for another run using ${VMDIR#"$REPO"/} (KSTAT_VMDIR=... runs a second one)"
		flock 9
	fi

	initramfs=$("$REPO/tests/vm/build-initramfs.sh" --moddir "$MODDIR" \
		--out "$VMDIR/initramfs-$GUEST_KVER.cpio") || die "cannot build the initramfs"

	if [[ $mode == demo ]]; then
		budget=$(budget "$DEMO_LIMIT")
	else
		while read -r limit t; do
			LIMIT_OF[$t]=$limit
		done < <(cd "$REPO" && "$RUNNER" --limits "${tests[@]}")
		budget=$(budget "${LIMIT_OF[@]}")
	fi
	for attempt in 1 2; do
		prepare_results "$mode" "${tests[@]}"
		boot_once "$mode" "$initramfs" "$budget" && return 0 || rc=$?
		if ((rc != 2 || attempt > 1)) || ! crashed_before_init; then
			break
		fi
		cp "$CONSOLE" "$CONSOLE.boot-crash"
		say "the kernel crashed while booting, before the guest's /init ran and so before any kstat code" \
			"($(crash_summary)); console kept in ${CONSOLE#"$REPO"/}.boot-crash; booting once more"
	done
	return "$rc"
}

declare -A LIMIT_OF=()	# test -> its time limit
WATCHDOG=
main "$@"
exit
