#!/bin/bash
# Proves: a producer whose first tick fails does not spin.  With the
# test-only fail_ticks=200 set before anyone subscribed (interval 1000
# ms), every tick fails: the producer must try once per interval, so
# alloc_failures grows by about one a second, not by 200 at once (the old
# producer requeued its work at once while it had never committed a
# sample).  Once ticks succeed again, samples come at the interval.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat

fault=/sys/module/kstat/parameters/fail_ticks
fault_off() { echo 0 > "$fault"; }
running() { [[ $(stat_of running) == true ]]; }

# A fresh module: no producer, nothing failed yet.
kstat_load
[[ -e $fault ]] || t_fail "$fault does not exist"
t_cleanup fault_off
assert_eq false "$(stat_of running)" "producer running before any subscriber"
assert_eq 0 "$(stat_of alloc_failures)" "alloc_failures of a fresh module"
echo 200 > "$fault"

t0=$(boottime_ns)
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
wait_until 10 running
sleep 3
f1=$(stat_of alloc_failures)
t1=$(boottime_ns)
left=$(cat "$fault")
ms=$(((t1 - t0) / 1000000))
t_log "alloc_failures 0 -> $f1 in the $ms ms since the monitor started (fail_ticks left: $left)"
# One tick per 1000 ms interval from the subscription on; the first may
# come at once.
((f1 <= ms / 1000 + 2)) ||
	t_fail "$f1 ticks failed in $ms ms at a 1000 ms interval: the producer retries without waiting"
((f1 > 0)) || t_fail "no tick failed with fail_ticks=200"

# Samples come again, at the interval, once nothing fails.
fault_off
t=$(boottime_ns)
monitor_wait 10 "$TMPDIR/mon" 2 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
