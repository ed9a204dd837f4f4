#!/bin/bash
# Proves: readers choose (issue 38): two `kstat monitor`s at once, each
# with a subscription of its own (interval 200ms sections irq; interval
# 1000ms sections cpu), each get their own cadence within 10 % (the mean
# spacing of their samples' kernel timestamps) and only their sections
# (JSON lines: the irq one never has "cpu" or "softirq", the cpu one never
# "irq" or "softirq"); an admin's `kstat config set interval 500 sections
# softirq` meanwhile changes neither; `kstat -j stats` counts both
# subscriptions while they run (the producer ticking at the finest
# interval, 200 ms), and none once they exited.
# timeout: 180
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup config_reset

"$KSTAT" config set interval 1000 sections all

"$KSTAT" -j monitor interval 200ms sections irq count 50 >"$TMPDIR/fast" 2>"$TMPDIR/fast.err" &
fast=$!
t_cleanup t_kill $fast
"$KSTAT" -j monitor interval 1000ms sections cpu count 9 >"$TMPDIR/slow" 2>"$TMPDIR/slow.err" &
slow=$!
t_cleanup t_kill $slow
# running PID FILE N: FILE holds N samples; a monitor that ended fails
running() {
	(($(monitor_count "$2") >= $3)) && return 0
	t_exited "$1" && t_fail "a monitor ended early: $(cat "$2.err")"
	return 1
}
wait_until 60 running $fast "$TMPDIR/fast" 3
wait_until 60 running $slow "$TMPDIR/slow" 2

"$KSTAT" -j stats >"$TMPDIR/stats"
t_log "stats while they run: $(jq -c '{subscriptions, interval_ms, running}' "$TMPDIR/stats")"
assert_eq 2 "$(jq .subscriptions "$TMPDIR/stats")" "subscriptions counted by STATS"
assert_eq 200 "$(jq .interval_ms "$TMPDIR/stats")" "the producer's tick (the finest reader's interval)"

# an admin changes the default stream meanwhile: theirs stay
"$KSTAT" config set interval 500 sections softirq

wait $fast || t_fail "monitor interval 200ms failed: $(cat "$TMPDIR/fast.err")"
wait $slow || t_fail "monitor interval 1000ms failed: $(cat "$TMPDIR/slow.err")"

# check FILE MS SECTION OTHER...: the pushed samples of FILE are MS apart
# on average (+-10 %), every sample carries SECTION and none of OTHER
check() {
	local f=$1 ms=$2 sec=$3 mean k
	shift 3
	mean=$(jq -s '[.[] | '"$T_PUSHED"'] |
		(.[-1].timestamp_ns - .[0].timestamp_ns) / (.[-1].seq - .[0].seq) / 1e6' "$f")
	t_log "$ms ms, $sec: $(jq -s length "$f") samples, mean spacing $mean ms"
	jq -e --argjson m "$mean" --argjson w "$ms" -n '$m >= $w * 0.9 and $m <= $w * 1.1' >/dev/null ||
		t_fail "interval $ms: samples $mean ms apart on average"
	jq -s -e --arg s "$sec" 'all(.[] | select(.seq != null); has($s))' "$f" >/dev/null ||
		t_fail "interval $ms: a sample without \"$sec\""
	for k; do
		jq -s -e --arg k "$k" 'all(.[]; has($k) | not)' "$f" >/dev/null ||
			t_fail "interval $ms: a sample with \"$k\", which it did not ask for"
	done
}
check "$TMPDIR/fast" 200 irq cpu softirq
check "$TMPDIR/slow" 1000 cpu irq softirq

# gone with their readers
no_subscriptions() { [[ $(stat_of subscriptions) == 0 ]]; }
wait_until 10 no_subscriptions
