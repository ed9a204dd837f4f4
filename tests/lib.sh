# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # T_OUT, T_ERR, T_RC are for the tests
#
# tests/lib.sh - shared library of the kstat guest tests.  Not a test.
#
#   source tests/lib.sh
#
# Sourcing it turns on `set -euo pipefail`: any failing command fails the
# test, and the failure names the command and line.  Tests run as root in
# the guest with cwd = repo root; see docs/testing.md for the whole
# contract.  Messages go to stderr so that $(...) never captures them.
#
# Outcome of a test (decided by tests/vm/guest-runner.sh):
#   exit 0 = pass, exit 77 = skip (t_skip), anything else = fail;
#   the first "FAIL: ..." line is the reason shown for a failure, the first
#   "SKIP: ..." line the reason for a skip.

set -euo pipefail
set -E			# the ERR trap below also fires inside functions

# Defaults for a test started by hand (the runner sets all of these).
: "${KSTAT_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${KSTAT_KO:=$KSTAT_ROOT/kernel/kstat.ko}"
: "${IRQSIM_KO:=$KSTAT_ROOT/tests/irqsim/kstat_irqsim.ko}"
: "${KSTAT:=$KSTAT_ROOT/userspace/cli/kstat}"
: "${TEST_NAME:=${0#"$KSTAT_ROOT"/}}"
: "${TMPDIR:=/tmp}"
: "${KSTAT_LOAD_ERROR:=}"
export KSTAT_ROOT KSTAT_KO IRQSIM_KO KSTAT TEST_NAME TMPDIR
case ":${LD_LIBRARY_PATH:-}:" in
*":$KSTAT_ROOT/userspace/lib:"*) ;;
*) export LD_LIBRARY_PATH=$KSTAT_ROOT/userspace/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
esac

IRQSIM_DIR=/sys/kernel/debug/kstat_irqsim
_T_START=${EPOCHREALTIME/./}

# ---------------------------------------------------------------------------
# Messages and outcome
# ---------------------------------------------------------------------------

# t_log MSG...: a progress line, with seconds since the test started.
t_log() {
	local us=$(( ${EPOCHREALTIME/./} - _T_START ))
	printf '[%3d.%02d] %s\n' $((us / 1000000)) $((us / 10000 % 100)) "$*" >&2
}

# t_fail MSG...: fail the test with MSG as the reason.
t_fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}

# t_skip REASON...: skip the test (exit 77).
t_skip() {
	printf 'SKIP: %s\n' "$*" >&2
	exit 77
}

# A command failing under set -e names itself.  Only where errexit is on
# (bash turns it off inside $(...)), so it is the failure that ends the test.
_t_on_err() {
	local rc=$1 cmd=$2 line=$3
	[[ $- == *e* ]] || return 0
	printf 'FAIL: line %s: command failed (exit %s): %s\n' "$line" "$rc" "$cmd" >&2
}
trap '_t_on_err $? "$BASH_COMMAND" "$LINENO"' ERR

# ---------------------------------------------------------------------------
# Cleanup
# ---------------------------------------------------------------------------

_T_CLEANUPS=()

# t_cleanup CMD [ARGS...]: run CMD when the test exits (pass, fail, skip or
# SIGTERM from the timeout), the last registered first.  Use this instead of
# your own "trap ... EXIT".  Each cleanup runs in a subshell; one that fails
# (say, t_fail from kstat_unload) fails the test but the others still run.
t_cleanup() {
	_T_CLEANUPS+=("$(printf '%q ' "$@")")
}

_t_run_cleanups() {
	local rc=$? i
	set +e
	trap - ERR
	for ((i = ${#_T_CLEANUPS[@]} - 1; i >= 0; i--)); do
		if ! (eval "${_T_CLEANUPS[i]}"); then
			printf 'FAIL: cleanup failed: %s\n' "${_T_CLEANUPS[i]}" >&2
			((rc != 0 && rc != 77)) || rc=1
		fi
	done
	_T_CLEANUPS=()
	exit "$rc"
}
trap _t_run_cleanups EXIT
# On the runner's timeout SIGTERM: exit, which runs the cleanups.
trap 'exit 143' TERM
trap 'exit 130' INT

# ---------------------------------------------------------------------------
# Assertions
# ---------------------------------------------------------------------------

# assert_eq EXPECTED ACTUAL WHAT
assert_eq() {
	[[ $2 == "$1" ]] || t_fail "$3: expected '$1', got '$2'"
}

# assert_ne UNEXPECTED ACTUAL WHAT
assert_ne() {
	[[ $2 != "$1" ]] || t_fail "$3: expected anything but '$1'"
}

# assert_match REGEX STRING WHAT: some line of STRING matches the extended
# regular expression REGEX (grep -E semantics: ^ and $ anchor at lines).
assert_match() {
	if [[ $2 != *$'\n'* ]]; then
		# One line: bash's own regex (same ERE), no grep to start.
		[[ $2 =~ $1 ]] && return 0
	elif grep -Eq -- "$1" <<< "$2"; then
		return 0
	fi
	t_fail "$3: no line matches /$1/ in: $(_t_short "$2")"
}

# assert_no_match REGEX STRING WHAT: no line of STRING matches REGEX.
assert_no_match() {
	local hit
	hit=$(grep -E -m 1 -- "$1" <<< "$2") || return 0
	t_fail "$3: unexpected line matching /$1/: $hit"
}

# _t_short STRING: STRING shortened for a message.
_t_short() {
	local s=$1
	((${#s} <= 300)) || s="${s:0:300}..."
	printf "'%s'" "$s"
}

# _t_capture CMD...: run CMD; T_RC, T_OUT and T_ERR are its exit status,
# stdout and stderr.  Whole shell functions run with errexit off here.
_t_capture() {
	local out=$TMPDIR/.t_out err=$TMPDIR/.t_err
	T_RC=0
	"$@" > "$out" 2> "$err" || T_RC=$?
	T_OUT=$(< "$out")
	T_ERR=$(< "$err")
	rm -f "$out" "$err"
}

# assert_ok CMD...: CMD exits 0.  Sets T_OUT, T_ERR, T_RC.
assert_ok() {
	_t_capture "$@"
	((T_RC == 0)) || t_fail "'$*' failed (exit $T_RC): $(_t_short "$T_ERR")"
}

# assert_fail CMD...: CMD exits non-zero.  Sets T_OUT, T_ERR, T_RC.
assert_fail() {
	_t_capture "$@"
	((T_RC != 0)) || t_fail "'$*' succeeded but should have failed"
}

# assert_exit CODE CMD...: CMD exits with CODE.  Sets T_OUT, T_ERR, T_RC.
assert_exit() {
	local code=$1
	shift
	_t_capture "$@"
	((T_RC == code)) ||
		t_fail "'$*': expected exit $code, got $T_RC; stderr: $(_t_short "$T_ERR")"
}

# t_scaled SECS: SECS times KSTAT_TIMEOUT_SCALE, for a time limit (never a
# measurement window): make check-debug's kernel is several times slower.
t_scaled() {
	echo $(($1 * ${KSTAT_TIMEOUT_SCALE:-1}))
}

# wait_until SECS CMD...: retry CMD every 0.1 s until it succeeds; fail the
# test after t_scaled SECS seconds.
wait_until() {
	local end=$(( ${EPOCHREALTIME/./} + $(t_scaled "$1") * 1000000 ))
	shift
	until "$@"; do
		((${EPOCHREALTIME/./} < end)) || t_fail "timed out waiting for: $*"
		sleep 0.1
	done
}

# t_exited PID: PID is gone or a zombie (killed, not yet reaped: cleanups
# run in a subshell, which cannot wait for the test's children).
t_exited() {
	[[ ! -e /proc/$1 || $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) == Z ]]
}

# t_term PID SECS: SIGTERM to PID, a child of the test, which must be gone
# within SECS (scaled, as wait_until); sets T_RC to its exit status.
t_term() {
	kill -TERM "$1"
	wait_until "$2" t_exited "$1"
	T_RC=0
	wait "$1" || T_RC=$?
}

# t_kill PID: SIGTERM to PID if it still runs; never fails (for t_cleanup).
t_kill() {
	kill "$1" 2>/dev/null || true
}

# boottime_ns: CLOCK_BOOTTIME in ns, the clock of the samples' timestamps.
boottime_ns() {
	"$KSTAT_ROOT/tests/tools/nlraw" boottime
}

# `kstat -j monitor` prints JSON Lines: samples ({"seq": N, "timestamp_ns":
# ..., ...}), losses ({"lost": N, "reason": ...}) and family events.  A
# subscriber's first sample is the state it read by a GET on joining
# ("from_get": true, docs/protocol.md "State at once"), taken when it
# joined, not a tick of the producer: the helpers below that speak of
# spacing, lateness or samples common to several readers (T_PUSHED) leave
# it out; monitor_count and monitor_wait count it (it is a sample).
T_SAMPLE='select(.seq != null)'
T_PUSHED='select(.seq != null and (.from_get // false | not))'

# monitor_samples FILE: the (seq, timestamp) pairs of the producer's
# samples in FILE, the output of `kstat -j monitor`, one per line, sorted
# and unique.  FILE may still be written: jq stops at a partial last line.
monitor_samples() {
	jq -c "$T_PUSHED | [.seq, .timestamp_ns]" "$1" 2>/dev/null | sort -u
}

# common_samples FILE...: how many (seq, timestamp) pairs every FILE holds.
common_samples() {
	local f
	for f; do monitor_samples "$f"; done | sort | uniq -c | awk -v n=$# '$1 == n' | wc -l
}

# monitor_count FILE [AFTER_NS]: how many samples FILE, the output of
# `kstat -j monitor` (may still be written), holds that were taken after
# AFTER_NS (CLOCK_BOOTTIME ns, default 0), the one read on joining included.
monitor_count() {
	{ jq -c --argjson t "${2:-0}" "$T_SAMPLE"' | select(.timestamp_ns > $t) | .seq' \
		"$1" 2>/dev/null || true; } | wc -l
}

# monitor_spacing FILE FROM_NS TO_NS: "N MIN MAX GAPS" of the producer's
# samples in FILE (`kstat -j monitor` output) taken between FROM_NS and
# TO_NS (CLOCK_BOOTTIME): how many, the shortest and longest spacing of
# consecutive ones in ms, and how many seq numbers are missing among them.
monitor_spacing() {
	jq -s -r --argjson a "$2" --argjson b "$3" '
		[.[] | '"$T_PUSHED"' | select(.timestamp_ns >= $a and .timestamp_ns <= $b)] |
		unique_by(.seq) as $s |
		[range(1; $s | length) | ($s[.].timestamp_ns - $s[. - 1].timestamp_ns) / 1e6] as $d |
		[range(1; $s | length) | $s[.].seq - $s[. - 1].seq - 1] as $g |
		"\($s | length) \($d | min // 0 | floor) \($d | max // 0 | ceil) \($g | add // 0)"' "$1"
}

# monitor_long_gaps FILE FROM_NS TO_NS INTERVAL_MS [PERCENT]: "N LONG
# MAX_MS" of the producer's samples in FILE taken between FROM_NS and
# TO_NS: how many, how many of the gaps between consecutive ones are
# longer than INTERVAL_MS + PERCENT (default 10) %, and the longest gap.
# One host stall makes one tick late, and one gap long (the producer does
# not make it up: the next tick comes an interval after the late one, so
# the gaps after it are whole again): this counts it once.
monitor_long_gaps() {
	jq -s -r --argjson a "$2" --argjson b "$3" --argjson i "$4" \
		--argjson p "${5:-10}" '
		[.[] | '"$T_PUSHED"' | select(.timestamp_ns >= $a and .timestamp_ns <= $b)] |
		unique_by(.seq) | map(.timestamp_ns / 1e6) as $t |
		[range(1; $t | length) | $t[.] - $t[. - 1]] as $d |
		"\($t | length) \($d | map(select(. > $i * (100 + $p) / 100)) | length) \($d | max // 0 | floor)"' "$1"
}

# monitor_times FILE FROM_NS TO_NS: "seq:ms" of those samples, ms since
# FROM_NS, on one line (for a failure's message).
monitor_times() {
	jq -s -r --argjson a "$2" --argjson b "$3" '
		[.[] | '"$T_PUSHED"' | select(.timestamp_ns >= $a and .timestamp_ns <= $b)] |
		unique_by(.seq) | map("\(.seq):\((.timestamp_ns - $a) / 1e6 | floor)") | join(" ")' "$1"
}

# stat_of KEY: KEY of `kstat -j stats` (the producer's telemetry: ticks,
# tick_ns_total, samples, delivery_failures, alloc_failures,
# subscriptions, running, listening, generation, ...).
stat_of() {
	"$KSTAT" -j stats | jq -r ".$1"
}

# config_reset: the default stream's config and the limits as a fresh
# module has them (docs/protocol.md, "Config" and "Limits"), for t_cleanup.
config_reset() {
	"$KSTAT" config set interval 1000 batch 1 sections all percpu off netns off \
		min-interval 250 max-subscriptions 64
}

_t_monitor_has() { (($(monitor_count "$1" "$3") >= $2)); }

# monitor_wait SECS FILE N [AFTER_NS]: wait until FILE holds N samples taken
# after AFTER_NS; fail the test after SECS (scaled, as wait_until).
monitor_wait() {
	wait_until "$1" _t_monitor_has "$2" "$3" "${4:-0}"
}

# as_user UID CMD...: CMD as UID and its group, without capabilities or
# supplementary groups (an unprivileged reader); UID 0 runs it as root,
# capabilities kept.
as_user() {
	local u=$1
	shift
	if ((u == 0)); then
		"$@"
	else
		setpriv --reuid "$u" --regid "$u" --inh-caps=-all --bounding-set=-all \
			--clear-groups -- "$@"
	fi
}

# ---------------------------------------------------------------------------
# Requirements
# ---------------------------------------------------------------------------

# require_cmd NAME...: skip unless every NAME is an available command.
require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" > /dev/null || t_skip "$c is not installed"
	done
}

# require_py_package NAME DEBIAN-PACKAGE: skip unless Debian's python3 has
# NAME (looked up on disk: starting python costs seconds under TCG).
require_py_package() {
	[[ -d /usr/lib/python3/dist-packages/$1 ]] || t_skip "$2 is not installed"
}

# possible_cpus: how many CPU ids the kernel may use (nr_cpu_ids: the last
# possible CPU plus one), the length of every per-CPU array kstat sends.
possible_cpus() {
	echo $(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
}

# require_cpus N: skip unless at least N CPUs are online.
require_cpus() {
	local n
	n=$(getconf _NPROCESSORS_ONLN)
	((n >= $1)) || t_skip "needs $1 CPUs, the guest has $n (make check SMP=$1)"
}

# require_kstat: fail unless kstat.ko is loaded (the runner loads it before
# every test; KSTAT_LOAD_ERROR says why it could not).
require_kstat() {
	kstat_loaded || t_fail "kstat.ko is not loaded${KSTAT_LOAD_ERROR:+: $KSTAT_LOAD_ERROR}"
}

# ---------------------------------------------------------------------------
# Modules
# ---------------------------------------------------------------------------

# _t_insmod KO [PARAMS...]: insmod, failing the test with insmod's message.
_t_insmod() {
	local err
	[[ -f $1 ]] || t_fail "$1 is not built (make ${1##*/})"
	err=$(insmod "$@" 2>&1) || t_fail "insmod $*: $err"
}

_t_rmmod() {
	local err
	err=$(rmmod "$1" 2>&1) || t_fail "rmmod $1: $err"
}

kstat_loaded() { [[ -d /sys/module/kstat ]]; }

# kstat_load [PARAMS...]: (re)load kstat.ko with PARAMS.
kstat_load() {
	if kstat_loaded; then _t_rmmod kstat; fi
	_t_insmod "$KSTAT_KO" "$@"
}

# kstat_load_interval MS: (re)load kstat.ko, then set the default
# stream's interval to MS (a fresh module starts at 1000 ms).
kstat_load_interval() {
	kstat_load
	"$KSTAT" config set interval "$1" >/dev/null || t_fail "config set interval $1 failed"
}

# kstat_unload: unload kstat.ko if it is loaded.
kstat_unload() {
	if kstat_loaded; then _t_rmmod kstat; fi
}

# kstat_unload_busy: rmmod kstat, retrying for 5 s: a GET dump in flight
# holds the module (rmmod says EAGAIN).
kstat_unload_busy() {
	local i
	for i in $(seq 100); do
		rmmod kstat 2>/dev/null && return 0
		sleep 0.05
	done
	t_fail "rmmod kstat kept failing for 5 s"
}

irqsim_loaded() { [[ -d /sys/module/kstat_irqsim ]]; }

# irqsim_load [PARAMS...]: (re)load the test helper module kstat_irqsim.ko
# (e.g. irqs=64).  The runner unloads it after each test.
irqsim_load() {
	if irqsim_loaded; then _t_rmmod kstat_irqsim; fi
	_t_insmod "$IRQSIM_KO" "$@"
}

irqsim_unload() {
	if irqsim_loaded; then _t_rmmod kstat_irqsim; fi
}

# irqsim_irq INDEX: print the IRQ number of synthetic IRQ INDEX.
irqsim_irq() {
	local idx irq
	[[ -r $IRQSIM_DIR/irqs ]] || t_fail "irqsim_irq: kstat_irqsim is not loaded"
	while read -r idx irq; do
		if [[ $idx == "$1" ]]; then
			echo "$irq"
			return 0
		fi
	done < "$IRQSIM_DIR/irqs"
	t_fail "irqsim_irq: no synthetic IRQ with index $1"
}

# sim_proc_rows CPUS: /proc/interrupts' kstat-sim rows as "irq c0 c1 ..."
# (the CPUS online CPUs' columns), by IRQ number.
sim_proc_rows() {
	awk -v n="$1" '/kstat-sim/ { sub(":", "", $1); line = $1;
		for (c = 2; c <= n + 1; c++) line = line " " $c; print line }' \
		/proc/interrupts | sort -n
}

# percpu_match PROC FILE CPUS POSSIBLE WHAT: FILE's lines "irq count c0
# ... c(POSSIBLE-1)" (irqdump's, or a JSON's made so) for every IRQ of
# PROC (sim_proc_rows'): the online columns must be /proc's, the rest 0,
# and they sum to the count.  Fails the test, saying where, if not.
percpu_match() {
	awk -v n="$3" -v p="$4" -v what="$5" '
		NR == FNR { want[$1] = $0; next }
		!($1 in want) { next }
		{	seen++
			if (NF != p + 2) { print what ": IRQ " $1 " has " NF - 2 " per-CPU counts, not " p; bad = 1; next }
			line = $1; sum = 0
			for (c = 3; c <= NF; c++) sum += $c
			for (c = 3; c < 3 + n; c++) line = line " " $c
			for (c = 3 + n; c <= NF; c++) if ($c != 0) { print what ": IRQ " $1 " CPU " c - 3 " is " $c; bad = 1 }
			if (line != want[$1]) { print what ": IRQ " $1 ": " line " where /proc has " want[$1]; bad = 1 }
			if (sum != $2) { print what ": IRQ " $1 " per-CPU sum " sum " != count " $2; bad = 1 }
		}
		END { if (seen != length(want)) { print what ": " seen " of " length(want) " IRQs"; bad = 1 }; exit bad }
	' "$1" "$2" || t_fail "$5: per-CPU counts differ (above)"
}

# irqsim_fire INDEX CPU COUNT: fire synthetic IRQ INDEX COUNT times on CPU.
irqsim_fire() {
	(($# == 3)) || t_fail "usage: irqsim_fire INDEX CPU COUNT"
	echo "$1 $2 $3" 2> /dev/null > "$IRQSIM_DIR/fire" ||
		t_fail "irqsim_fire $*: write to $IRQSIM_DIR/fire failed"
}

# irqsim_fire_affine N: synthetic IRQs 0..N-1 fire as on real machines,
# each on one CPU: IRQ i (i % 7) + 1 times on CPU i % CPUs.
irqsim_fire_affine() {
	local n=$1 cpus i
	cpus=$(nproc)
	for ((i = 0; i < n; i++)); do echo "$i $((i % cpus)) $((i % 7 + 1))"; done \
		2> /dev/null > "$IRQSIM_DIR/fire" ||
		t_fail "irqsim_fire_affine $n: write to $IRQSIM_DIR/fire failed"
}

# irqsim_warn: make kstat_irqsim WARN() (harness self-test only).
irqsim_warn() {
	echo 1 > "$IRQSIM_DIR/warn" || t_fail "irqsim_warn: write to $IRQSIM_DIR/warn failed"
}

# _t_irqsim_write FILE STRING: write STRING to the debugfs FILE of
# kstat_irqsim, failing the test if the write fails.
_t_irqsim_write() {
	[[ -e $IRQSIM_DIR/$1 ]] || t_fail "$IRQSIM_DIR/$1: no such file (kstat_irqsim not loaded, or too old)"
	echo "$2" 2> /dev/null > "$IRQSIM_DIR/$1" ||
		t_fail "write '$2' to $IRQSIM_DIR/$1 failed"
}

# irqsim_preset INDEX CPU VALUE: set synthetic IRQ INDEX's count on CPU to
# VALUE (0..2^32-1), as if (VALUE - count) mod 2^32 interrupts had been
# handled there: its total (tot_count) and /proc/stat's intr total follow.
irqsim_preset() {
	(($# == 3)) || t_fail "usage: irqsim_preset INDEX CPU VALUE"
	_t_irqsim_write preset "$1 $2 $3"
}

# irqsim_preset_softirq VEC CPU VALUE: set softirq vector VEC's count on
# CPU to VALUE (the same fast-forward).
irqsim_preset_softirq() {
	(($# == 3)) || t_fail "usage: irqsim_preset_softirq VEC CPU VALUE"
	_t_irqsim_write preset_softirq "$1 $2 $3"
}

# irqsim_preset_arch NAME CPU VALUE: set the arch counter NAME (SPU; HYP,
# HRE, HVS where the kernel has them) on CPU to VALUE (the same
# fast-forward; x86 only).
irqsim_preset_arch() {
	(($# == 3)) || t_fail "usage: irqsim_preset_arch NAME CPU VALUE"
	_t_irqsim_write preset_arch "$1 $2 $3"
}

# irqsim_realloc: free every synthetic IRQ (actions and descriptors) and
# allocate as many again; irqsim_irq then gives the new numbers (usually
# the same ones), whose counts start at 0.
irqsim_realloc() {
	_t_irqsim_write realloc 1
}
