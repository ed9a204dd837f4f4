#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 of the kstat test guest: PID 1 after guest-init.sh has mounted
# everything and switch_root'ed into the host's / (read-only over 9p).  Runs
# what the host asked for in the results share (config: KSTAT_MODE=tests or
# demo, and for make check-debug GUEST_KSTAT_KO, GUEST_IRQSIM_KO and
# KSTAT_KMEMLEAK; tests.list) and powers off.  Whatever happens, it powers
# off: the host must never wait on a guest that has nothing left to do.
#
# Files it writes in the results share (the host's build/vm/results):
#   status       "started", then "done <runner exit status>"
#   runner.out   a "# guest ..." line, then the runner's output
#   progress     "running <test>" / "finished" (written by the runner)
#   logs/        each test's output and kernel log window
#   dmesg.log    the whole kernel log at the end

set -u

RESULTS=/run/kstat-results
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 TERM=dumb

# Only builtins where possible: each program started costs ~0.1 s under TCG.
uptime() { local up _; read -r up _ < /proc/uptime; echo "$up"; }
log() { echo "kstat-guest: [$(uptime)] $*"; }

poweroff_now() {
	sync
	umount "$RESULTS" 2>/dev/null
	echo o > /proc/sysrq-trigger
	sleep 10
	busybox poweroff -f
}
trap poweroff_now EXIT

# bind_module SRC DST: make check-debug's modules (built for the debug
# kernel) take the place of the repository's, in the guest only, so the tests
# load them by the usual paths ($KSTAT_KO, $IRQSIM_KO).
bind_module() {
	[[ -n $1 ]] || return 0
	if [[ -f $1 && -f $2 ]] && mount --bind "$1" "$2"; then
		log "$2 is $1"
		return 0
	fi
	# The host reports this line as the reason the guest failed.
	echo "kstat-guest: FATAL: cannot put $1 in place of $2"
	return 1
}

main() {
	local rc=0 mode
	if [[ ! -w $RESULTS ]]; then
		log "FATAL: the results share is not mounted on $RESULTS"
		return
	fi
	echo started > "$RESULTS/status"
	# bash wants /dev/fd for <(...); devtmpfs does not provide it.
	[[ -e /dev/fd ]] || ln -s /proc/self/fd /dev/fd
	# Messages below "warning" stay off the serial console: it is slow
	# under TCG, and dmesg.log keeps the whole kernel log anyway.
	echo 4 > /proc/sys/kernel/printk
	# shellcheck source=/dev/null
	source "$RESULTS/config"
	mode=${KSTAT_MODE:-tests}
	bind_module "${GUEST_KSTAT_KO:-}" "$REPO/kernel/kstat.ko" || return
	bind_module "${GUEST_IRQSIM_KO:-}" "$REPO/tests/irqsim/kstat_irqsim.ko" || return
	log "stage 2, mode $mode"
	echo "# guest $(< /proc/sys/kernel/osrelease), $(grep -c ^processor /proc/cpuinfo) CPUs, up after $(uptime)s" \
		> "$RESULTS/runner.out"
	cd "$REPO" || return

	case $mode in
	demo)
		tests/vm/guest-runner.sh --demo 2>&1 | tee -a "$RESULTS/runner.out"
		rc=${PIPESTATUS[0]}
		;;
	*)
		mkdir -p "$RESULTS/logs"
		tests/vm/guest-runner.sh --boot-scan ${KSTAT_KMEMLEAK:+--kmemleak} \
			--list "$RESULTS/tests.list" \
			--logdir "$RESULTS/logs" --progress "$RESULTS/progress" \
			2>&1 | tee -a "$RESULTS/runner.out"
		rc=${PIPESTATUS[0]}
		;;
	esac
	dmesg > "$RESULTS/dmesg.log" 2>&1
	echo "done $rc" > "$RESULTS/status"
	log "finished (runner status $rc)"
}

main
