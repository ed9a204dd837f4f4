#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-runner.sh - runs kstat guest tests inside the test VM.
#
#   guest-runner.sh [options] TEST...     run TESTs (paths relative to the repo)
#   guest-runner.sh --demo                load kstat and run tests/vm/demo.sh
#   guest-runner.sh --limits TEST...      print "<secs> <test>" per test (host)
#
# Options:
#   --list FILE        read more tests from FILE, one per line
#   --timeout SECS     default time limit per test (else $TEST_TIMEOUT, else
#                      180); a "# timeout: N" line in a test's first 30
#                      lines sets that test's own limit.  Every limit is
#                      multiplied by $KSTAT_TIMEOUT_SCALE (default 1; make
#                      check-debug sets it for its slow kernel)
#   --kill-grace SECS  SIGTERM -> SIGKILL delay on timeout (default 5)
#   --logdir DIR       keep each test's output (.log) and kernel log (.dmesg)
#   --progress FILE    write the name of the running test there (lets the
#                      host tell which test a crashed guest was running)
#   --boot-scan        first report kernel log problems since boot as <boot>
#   --kmemleak         kmemleak (the kernel booted with kmemleak=on): clear
#                      the suspects found before the first test; after the
#                      last one, unload the modules, scan twice and report
#                      any leak as a failed "<kmemleak>" (make check-debug)
#
# For each test it prints one line: "ok - T (1.2s)", "skip - T: reason" or
# "not ok - T: reason" followed by the tail of the test's output, indented;
# at the end "N passed, N failed, N skipped".  Exit status 1 if any failed.
#
# The same script runs the whole suite at boot (via guest-boot.sh) and, with
# a short --timeout, the deliberately bad tests of tests/harness.sh.
#
# Under TCG every program started costs ~0.1 s, so this script sticks to
# bash builtins wherever that stays readable.

set -euo pipefail
export LC_ALL=C		# predictable tools, and grep/awk regexes are much faster

KSTAT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEFAULT_TIMEOUT=${TEST_TIMEOUT:-180}
SCALE=${KSTAT_TIMEOUT_SCALE:-1}
[[ $SCALE =~ ^[1-9][0-9]*$ ]] || { echo "guest-runner: KSTAT_TIMEOUT_SCALE=$SCALE is not a positive integer" >&2; exit 2; }
KILL_GRACE=$((5 * SCALE))	# a timed-out test's cleanups get this long
TAIL_LINES=40

# Kernel log lines that mean something went wrong in the kernel.  These are
# the headers of the kernel's own reports, so ordinary lines do not match.
# (An ERE for awk; keep it free of GNU extensions.)
KLOG_BAD='(^|[^[:alnum:]_])BUG(:| [^ ]+ \()'		# BUG: ..., SLUB "BUG kmalloc-64 (Tainted): ..."
KLOG_BAD+='|kernel BUG at'
KLOG_BAD+='|WARNING:'					# WARN(), lockdep, RCU splats
KLOG_BAD+='|(^|[^[:alnum:]_])Oops([^[:alnum:]_]|$)'
KLOG_BAD+='|(KASAN|UBSAN|KFENCE|KCSAN|KMSAN):'
KLOG_BAD+='|general protection fault'
KLOG_BAD+='|Call Trace:'
KLOG_BAD+='|refcount_t:'
KLOG_BAD+='|possible (circular|recursive) locking|inconsistent lock state'
KLOG_BAD+='|INFO: (possible|inconsistent|trying to register|task .* blocked for more than)'
# lockdep's own messages, not the boot banner "RCU lockdep checking is enabled".
KLOG_BAD+='|DEBUG_LOCKS_WARN_ON|lockdep(:| bfs| is turned off)|needs lockdep annotation'
KLOG_BAD+='|kmemleak: .*suspected memory leak|unreferenced object 0x'
KLOG_BAD+='|soft lockup|hard LOCKUP|self-detected stall|rcu_(sched|preempt) detected stalls'
KLOG_BAD+='|list_(add|del) corruption|Kernel panic'

# Taint flags that only a kernel problem sets: B bad page, D died (oops),
# W warning, L soft lockup.  A backstop for reports the log scan missed.
TAINT_BAD_MASK=$(( (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14) ))

PASSED=0 FAILED=0 SKIPPED=0
LOGDIR='' PROGRESS='' BOOT_SCAN=0 KMEMLEAK=0 SLEEP_FD='' NTEST=0
KMEMLEAK_FILE=/sys/kernel/debug/kmemleak
PANIC_ON_WARN=/proc/sys/kernel/panic_on_warn
declare -a TESTS=()
declare -A MODS_BEFORE=()
KSTAT_WANTED=0		# kstat loaded fine at start: keep it loaded
KSTAT_PARAMS=		# its parameters then, to spot a test changing them

say() { printf '%s\n' "$*"; }
kmsg() { echo "kstat-harness: $*" > /dev/kmsg 2>/dev/null || true; }

# now_us: microseconds since the epoch.
now_us() { local t=${EPOCHREALTIME/./}; echo "$((10#$t))"; }

# read_headers TEST: set LIMIT and EXPECT_WARN from the test's header lines.
#   # timeout: N               time limit in seconds
#   # expect: kernel-warning   the test makes the kernel warn on purpose.  Its
#       run is bracketed by "kstat-harness: expected-warn begin/end" markers
#       outside its own begin/end markers: this runner still fails the test
#       on the warning, but a runner further out (tests/harness.sh runs this
#       script inside a test) skips the bracketed region when it scans the
#       kernel log of its own test.  If the kernel panics on warnings
#       (panic_on_warn=1, as in make check-debug), the test runs with that
#       off: the kernel log scan still sees its warning.
read_headers() {
	local line n=0
	LIMIT=$DEFAULT_TIMEOUT EXPECT_WARN=0
	while ((n++ < 30)) && IFS= read -r line; do
		if [[ $line =~ ^#[[:space:]]*timeout:[[:space:]]*([0-9]+) ]]; then
			LIMIT=${BASH_REMATCH[1]}
		elif [[ $line =~ ^#[[:space:]]*expect:[[:space:]]*kernel-warning ]]; then
			EXPECT_WARN=1
		fi
	done < "$1"
	LIMIT=$((LIMIT * SCALE))
}

# ---------------------------------------------------------------------------
# Environment and module state
# ---------------------------------------------------------------------------

export_env() {
	export KSTAT_ROOT
	export KSTAT_KO=$KSTAT_ROOT/kernel/kstat.ko
	export IRQSIM_KO=$KSTAT_ROOT/tests/irqsim/kstat_irqsim.ko
	export KSTAT=$KSTAT_ROOT/userspace/cli/kstat
	case ":${LD_LIBRARY_PATH:-}:" in
	*":$KSTAT_ROOT/userspace/lib:"*) ;;
	*) export LD_LIBRARY_PATH=$KSTAT_ROOT/userspace/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
	esac
	case ":$PATH:" in
	*":$KSTAT_ROOT/userspace/cli:"*) ;;
	*) export PATH=$KSTAT_ROOT/userspace/cli:$PATH ;;
	esac
}

kstat_is_loaded() { [[ -d /sys/module/kstat ]]; }

# kstat_params: "name=value" for each readable parameter of kstat.
kstat_params() {
	local f v
	for f in /sys/module/kstat/parameters/*; do
		[[ -r $f ]] && read -r v < "$f" && echo "${f##*/}=$v"
	done 2>/dev/null
	return 0
}

loaded_modules() {
	local m _
	while read -r m _; do echo "$m"; done < /proc/modules
}

# load_kstat: insmod kstat.ko; on failure say why in KSTAT_LOAD_ERROR, which
# tests see (lib.sh's require_kstat fails with it).
load_kstat() {
	local err
	if [[ ! -f $KSTAT_KO ]]; then
		KSTAT_LOAD_ERROR="$KSTAT_KO is not built (make kmod)"
	elif ! err=$(insmod "$KSTAT_KO" 2>&1); then
		KSTAT_LOAD_ERROR="insmod $KSTAT_KO failed: $err"
	else
		KSTAT_LOAD_ERROR=
		return 0
	fi
	return 1
}

# setup_modules: make sure kstat is loaded; remember what is loaded now.
setup_modules() {
	local m
	KSTAT_LOAD_ERROR=
	if kstat_is_loaded || load_kstat; then
		KSTAT_WANTED=1
		KSTAT_PARAMS=$(kstat_params)
	else
		say "# kstat not loaded: $KSTAT_LOAD_ERROR"
	fi
	export KSTAT_LOAD_ERROR
	for m in $(loaded_modules); do MODS_BEFORE[$m]=1; done
}

# restore_modules: undo what the last test left behind.  Modules it loaded
# (kstat_irqsim, or any other) are unloaded, newest first; kstat is loaded
# again if the test unloaded it or left it with other parameters.  Leaving
# things behind is not a failure; failing to clean up is said in the log.
restore_modules() {
	local m
	for m in $(loaded_modules); do
		[[ $m == kstat || -n ${MODS_BEFORE[$m]:-} ]] && continue
		rmmod "$m" || say "harness: could not unload $m"
	done
	((KSTAT_WANTED)) || return 0
	if kstat_is_loaded && [[ $(kstat_params) != "$KSTAT_PARAMS" ]]; then
		rmmod kstat || say "harness: could not unload kstat"
	fi
	if ! kstat_is_loaded && ! load_kstat; then
		say "harness: could not reload kstat: $KSTAT_LOAD_ERROR"
	fi
	return 0
}

# ---------------------------------------------------------------------------
# Kernel log
# ---------------------------------------------------------------------------

# scan_klog NAME OUT: write to OUT the kernel log between the last "begin
# NAME" marker and the "end NAME" after it (NAME "<boot>": from the start of
# the log), minus the regions of expected warnings nested inside it; print
# the first line in OUT that reports a kernel problem.  If there were
# expected warnings, OUT ends with "kstat-harness: expected-warn seen".
scan_klog() {
	# Values go in through the environment: awk -v would eat backslashes.
	{ dmesg --notime 2>/dev/null || true; } |
	NAME=$1 OUT=$2 BAD=$KLOG_BAD awk '
		BEGIN { name = ENVIRON["NAME"]; out = ENVIRON["OUT"]; bad = ENVIRON["BAD"] }
		function ends_with(s, t) {
			return length(s) >= length(t) &&
			       substr(s, length(s) - length(t) + 1) == t
		}
		{ line[NR] = $0 }
		ends_with($0, "kstat-harness: begin " name) { b = NR; e = 0 }
		b && !e && ends_with($0, "kstat-harness: end " name) { e = NR }
		END {
			printf "" > out
			if (!e) e = NR + 1
			for (i = b + 1; i < e; i++) {
				l = line[i]
				if (l ~ /kstat-harness: expected-warn begin /) {
					depth++; seen = 1; continue
				}
				if (l ~ /kstat-harness: expected-warn end /) {
					if (depth) depth--
					continue
				}
				if (depth) continue
				print l > out
				if (first == "" && l !~ /kstat-harness:/ && l ~ bad)
					first = l
			}
			if (seen) print "kstat-harness: expected-warn seen" > out
			if (first != "") print first
		}'
}

# ---------------------------------------------------------------------------
# Running one test
# ---------------------------------------------------------------------------

# sleeper SECS: a background job that ends after SECS; no program started.
sleeper() {
	{ read -r -t "$1" -u "$SLEEP_FD" || true; } &
}

# wait_either PID...: wait for the first of PIDs to end; DONE = which one,
# ST = its exit status.
wait_either() {
	DONE='' ST=0
	while [[ -z $DONE ]]; do
		ST=0
		wait -n -p DONE "$@" || ST=$?
	done
}

# run_limited LIMIT LOG TEST: run TEST with bash in its own session (so its
# process group can be killed as a whole) with stdin from /dev/null and its
# output in LOG.  Sets RC and TIMED_OUT.  On timeout: SIGTERM to the group,
# SIGKILL after the grace period.
run_limited() {
	local limit=$1 log=$2 pid timer
	(exec {SLEEP_FD}<&- setsid bash "$3" < /dev/null > "$log" 2>&1) &
	pid=$!
	sleeper "$limit"
	timer=$!
	TIMED_OUT=0
	wait_either "$pid" "$timer"
	if [[ $DONE == "$timer" ]]; then
		TIMED_OUT=1
		kill -TERM -- "-$pid" 2>/dev/null || true
		sleeper "$KILL_GRACE"
		timer=$!
		wait_either "$pid" "$timer"
		if [[ $DONE == "$timer" ]]; then
			kill -KILL -- "-$pid" 2>/dev/null || true
			wait_either "$pid"
		fi
	fi
	RC=$ST
	kill "$timer" 2>/dev/null || true
	wait "$timer" 2>/dev/null || true
	# Whatever the test left running in its group goes too.
	kill -KILL -- "-$pid" 2>/dev/null || true
}

# procs_now ARRAY: ARRAY (associative) maps the PID of every user-space
# process now to its command line (kernel threads have an empty one).
# Builtins only: this runs twice per test.
procs_now() {
	local -n into=$1
	local d
	local -a args
	into=()
	for d in /proc/[0-9]*; do
		args=()
		{ mapfile -t -d '' args < "$d/cmdline"; } 2>/dev/null || true
		# shellcheck disable=SC2034 # a nameref to the caller's array
		((${#args[@]} == 0)) || into[${d#/proc/}]=${args[*]}
	done
}

# ppid_of PID: its parent's PID in PPID ('' when it is gone).
ppid_of() {
	local stat=''
	PPID_OF=''
	{ IFS= read -r stat < "/proc/$1/stat"; } 2>/dev/null || return 0
	stat=${stat##*) }		# past "pid (comm) ": comm may hold spaces
	stat=${stat#* }			# past the state
	PPID_OF=${stat%% *}
}

# ours PID: PID is this runner or one of its descendants (the $(...) of
# these very checks).
ours() {
	local p=$1 n=0
	while [[ -n $p && $p != 0 && $p != 1 ]] && ((n++ < 64)); do
		[[ $p != "$$" ]] || return 0
		ppid_of "$p"
		p=$PPID_OF
	done
	return 1
}

# kill_orphans BEFORE: processes the test left running outside its
# process group (a daemon, a tmux server: they call setsid), which the
# group kill of run_limited missed.  Gives the killed group 2 s to go,
# then kills what is new since BEFORE (an associative array of procs_now)
# and not the runner's own, and sets ORPHANS to "PID cmd" of each (at
# most 3 named).  A test must clean up after itself: one left running
# kept a subscription open and changed the results of later tests.
kill_orphans() {
	local -n before=$1
	local -A now=()
	local p try
	local -a left=()
	ORPHANS=''
	for ((try = 0; try < 20; try++)); do
		procs_now now
		left=()
		for p in "${!now[@]}"; do
			[[ ${before[$p]:-} != "${now[$p]}" ]] || continue
			ours "$p" || left+=("$p")
		done
		((${#left[@]})) || return 0
		read -r -t 0.1 -u "$SLEEP_FD" || true
	done
	for p in "${left[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	for p in "${left[@]:0:3}"; do
		ORPHANS+="${ORPHANS:+, }$p ${now[$p]}"
	done
	((${#left[@]} <= 3)) || ORPHANS+=" and $((${#left[@]} - 3)) more"
}

# first_tagged TAG LOG: the message of the first "TAG: ..." line in LOG.
first_tagged() {
	sed -n "/^$1: /{s///p;q;}" "$2"
}

# report STATUS NAME DETAIL [LOG]: print the result line (and the tail of LOG
# for a failure) and count it.
report() {
	local status=$1 name=$2 detail=$3 log=${4:-}
	case $status in
	ok) PASSED=$((PASSED + 1)); say "ok - $name ($detail)" ;;
	skip) SKIPPED=$((SKIPPED + 1)); say "skip - $name: $detail" ;;
	*)
		FAILED=$((FAILED + 1))
		say "not ok - $name: $detail"
		if [[ -n $log && -s $log ]]; then
			tail -n "$TAIL_LINES" "$log" | sed 's/^/    /'
		fi
		;;
	esac
}

# show_klog DMESG: the kernel's report, from its first bad line on.
show_klog() {
	say "    --- kernel log:"
	grep -E -m 1 -B 2 -A 25 -- "$KLOG_BAD" "$1" | sed "s/^/    /"
}

run_test() {
	local name=$1 log tdir taint0 taint1 start secs hit reason
	local -a why=()
	# shellcheck disable=SC2034 # passed by name to kill_orphans
	local -A procs0=()
	if [[ ! -f $name ]]; then
		report fail "$name" "no such test"
		return 0
	fi
	[[ -z $PROGRESS ]] || echo "running $name" > "$PROGRESS"
	read_headers "$name"
	log=$LOGDIR/${name//\//_}.log
	tdir=${TMPDIR:-/tmp}/kstat-test.$$.$((++NTEST))
	mkdir -m 0700 "$tdir"
	taint0=$(< /proc/sys/kernel/tainted)
	procs_now procs0

	if ((EXPECT_WARN)); then
		kmsg "expected-warn begin $name"
		no_panic_on_warn "$name"
	fi
	kmsg "begin $name"
	start=$(now_us)
	TEST_NAME=$name TMPDIR=$tdir run_limited "$LIMIT" "$log" "$name"
	secs=$(( ($(now_us) - start + 50000) / 100000 ))
	kill_orphans procs0
	restore_modules >> "$log" 2>&1
	kmsg "end $name"
	if ((EXPECT_WARN)); then
		restore_panic_on_warn
		kmsg "expected-warn end $name"
	fi
	taint1=$(< /proc/sys/kernel/tainted)
	rm -rf "$tdir"

	hit=$(scan_klog "$name" "$log.dmesg")
	if ((TIMED_OUT)); then
		why+=("timed out after ${LIMIT}s")
	elif ((RC != 0 && RC != 77)); then
		reason=$(first_tagged FAIL "$log")
		why+=("${reason:-exit status $RC}")
	fi
	[[ -z $ORPHANS ]] || why+=("left running: $ORPHANS (killed)")
	if [[ -n $hit ]]; then
		why+=("kernel log: $hit")
	elif (((taint1 & ~taint0) & TAINT_BAD_MASK)) &&
	     ! grep -q 'kstat-harness: expected-warn seen' "$log.dmesg"; then
		why+=("kernel tainted (flags $taint0 -> $taint1) without a report in the log")
	fi

	if ((${#why[@]})); then
		reason=$(printf '%s; ' "${why[@]}")
		report fail "$name" "${reason%; }" "$log"
		if [[ -n $hit ]]; then show_klog "$log.dmesg"; fi
	elif ((RC == 77)); then
		reason=$(first_tagged SKIP "$log")
		report skip "$name" "${reason:-no reason given}"
	else
		report ok "$name" "$((secs / 10)).$((secs % 10))s"
	fi
}

# no_panic_on_warn NAME: turn panic_on_warn off for NAME, a test that warns
# on purpose; restore_panic_on_warn puts it back.
no_panic_on_warn() {
	SAVED_PANIC_ON_WARN=0
	[[ -r $PANIC_ON_WARN ]] || return 0
	SAVED_PANIC_ON_WARN=$(< "$PANIC_ON_WARN")
	if [[ $SAVED_PANIC_ON_WARN != 0 ]]; then
		kmsg "panic_on_warn off for $1 (it expects a kernel warning)"
		echo 0 > "$PANIC_ON_WARN"
	fi
}

restore_panic_on_warn() {
	if [[ $SAVED_PANIC_ON_WARN != 0 ]]; then
		echo "$SAVED_PANIC_ON_WARN" > "$PANIC_ON_WARN"
		kmsg "panic_on_warn back to $SAVED_PANIC_ON_WARN"
	fi
}

# kmemleak_start: forget the suspects kmemleak finds now (boot-time
# objects, not kstat's: the tests have not run yet) and say how many.
kmemleak_start() {
	local n start
	[[ -z $PROGRESS ]] || echo "running <kmemleak>" > "$PROGRESS"
	start=$(now_us)
	if ! echo scan 2> /dev/null > "$KMEMLEAK_FILE"; then
		report fail "<kmemleak>" "$KMEMLEAK_FILE is not usable (boot with kmemleak=on, CONFIG_DEBUG_KMEMLEAK)"
		KMEMLEAK=0
		return 0
	fi
	n=$(grep -c '^unreferenced object' "$KMEMLEAK_FILE" || true)
	echo clear > "$KMEMLEAK_FILE"
	[[ -z $PROGRESS ]] || echo "finished <kmemleak>" > "$PROGRESS"
	say "# kmemleak: on; ${n:-0} suspects from before the tests cleared ($(( ($(now_us) - start) / 1000000 ))s)"
}

# kmemleak_end: after the tests, with the test modules and kstat unloaded
# (what only they referenced becomes unreferenced), scan twice some seconds
# apart (kmemleak reports objects older than 5 s, unreferenced in a scan)
# and fail on any suspect.
kmemleak_end() {
	local m log=$LOGDIR/kmemleak.log n start
	[[ -z $PROGRESS ]] || echo "running <kmemleak>" > "$PROGRESS"
	start=$(now_us)
	for m in $(loaded_modules); do
		[[ $m == kstat || -z ${MODS_BEFORE[$m]:-} ]] || continue
		rmmod "$m" || say "# kmemleak: could not unload $m"
	done
	echo scan > "$KMEMLEAK_FILE"
	read -r -t 10 -u "$SLEEP_FD" || true
	echo scan > "$KMEMLEAK_FILE"
	cat "$KMEMLEAK_FILE" > "$log"
	n=$(grep -c '^unreferenced object' "$log" || true)
	if ((n == 0)); then
		report ok "<kmemleak>" "no leaks, $(( ($(now_us) - start) / 1000000 ))s"
	else
		head -n "$TAIL_LINES" "$log" > "$log.head"
		report fail "<kmemleak>" "$n suspected memory leaks (all in ${log##*/})" "$log.head"
	fi
}

# boot_scan: report problems in the kernel log up to now (boot and the first
# kstat load) as "<boot>".
boot_scan() {
	local hit log=$LOGDIR/boot.dmesg
	kmsg "end <boot>"
	hit=$(scan_klog "<boot>" "$log")
	if [[ -n $hit ]]; then
		report fail "<boot>" "kernel log: $hit"
		show_klog "$log"
	fi
}

# ---------------------------------------------------------------------------
# Modes
# ---------------------------------------------------------------------------

run_demo() {
	local demo=tests/vm/demo.sh
	export_env
	setup_modules
	if kstat_is_loaded; then say "# kstat.ko loaded"; fi
	if [[ -f $demo ]]; then
		TEST_NAME=$demo timeout -k 5 600 bash "$demo" < /dev/null ||
			say "# $demo exited with status $?"
	else
		say "# $demo does not exist yet; the kstat family as genl sees it:"
		say "\$ genl ctrl get name kstat"
		genl ctrl get name kstat 2>&1 || true
	fi
}

usage() {
	sed -n '4,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

add_list() {
	local t
	while read -r t; do
		[[ -z $t ]] || TESTS+=("$t")
	done < "$1"
}

main() {
	local mode=run t
	while (($#)); do
		case $1 in
		--demo) mode=demo; shift ;;
		--limits) mode=limits; shift ;;
		--list) add_list "$2"; shift 2 ;;
		--timeout) DEFAULT_TIMEOUT=$2; shift 2 ;;
		--kill-grace) KILL_GRACE=$2; shift 2 ;;
		--logdir) LOGDIR=$2; shift 2 ;;
		--progress) PROGRESS=$2; shift 2 ;;
		--boot-scan) BOOT_SCAN=1; shift ;;
		--kmemleak) KMEMLEAK=1; shift ;;
		-h|--help) usage ;;
		-*) echo "guest-runner: unknown option $1" >&2; usage ;;
		*) TESTS+=("$1"); shift ;;
		esac
	done
	cd "$KSTAT_ROOT"

	case $mode in
	limits)
		for t in "${TESTS[@]}"; do
			LIMIT=$((DEFAULT_TIMEOUT * SCALE))
			[[ ! -f $t ]] || read_headers "$t"
			echo "$LIMIT $t"
		done
		return 0 ;;
	demo)
		run_demo
		return 0 ;;
	esac

	if [[ -z $LOGDIR ]]; then
		LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/kstat-runner.XXXXXX")
	fi
	mkdir -p "$LOGDIR"
	# A pipe nobody writes to: "read -t" on it is a sleep without a program.
	exec {SLEEP_FD}<> <(:)
	export_env
	setup_modules
	if ((BOOT_SCAN)); then boot_scan; fi
	if ((KMEMLEAK)); then kmemleak_start; fi
	for t in "${TESTS[@]}"; do
		run_test "$t"
	done
	if ((KMEMLEAK)); then kmemleak_end; fi
	[[ -z $PROGRESS ]] || echo "finished" > "$PROGRESS"
	say "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	((FAILED == 0))
}

if [[ -n ${RUNNER_TRACE:-} ]]; then
	PS4='+ $EPOCHREALTIME '
	exec 2> "$RUNNER_TRACE"
	unset RUNNER_TRACE	# not for nested runners
	set -x
fi
main "$@"
