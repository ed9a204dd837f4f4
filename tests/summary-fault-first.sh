#!/bin/bash
# Proves: a producer whose first sample fails does not spin.  With the
# test-only fault_samples=200 set before anyone subscribed (interval
# 1000 ms), every sample fails: the producer must try once per interval,
# so alloc_failures grows by about one a second, not by 200 at once (it
# did: the interval of a producer that had never committed a sample was
# 0, and the work requeued itself at once for as long as samples failed).
# Once samples succeed again, they come at the interval.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat

fault=/sys/module/kstat/parameters/fault_samples
fault_off() { echo 0 > "$fault"; }
stat_() { "$KSTAT" -j stats | jq -r ".$1"; }
running() { [[ $(stat_ running) == true ]]; }

# A fresh module: no producer, no committed sample.
kstat_load
t_cleanup fault_off
"$KSTAT" config set interval 1000 batch 1 keyframe 10
assert_eq false "$(stat_ running)" "producer running before any subscriber"
assert_eq 0 "$(stat_ alloc_failures)" "alloc_failures of a fresh module"
echo 200 > "$fault"

t0=$(boottime_ns)
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
wait_until 10 running
sleep 3
f1=$(stat_ alloc_failures)
t1=$(boottime_ns)
left=$(cat "$fault")
ms=$(((t1 - t0) / 1000000))
t_log "alloc_failures 0 -> $f1 in the $ms ms since the monitor started (fault_samples left: $left)"
# One attempt when the monitor subscribed, then one per 1000 ms interval,
# on the grid of whole seconds: the first of those may come at once.
((f1 <= ms / 1000 + 2)) ||
	t_fail "$f1 samples failed in $ms ms at a 1000 ms interval: the producer retries without waiting"
((f1 > 0)) || t_fail "no sample failed with fault_samples=200"

# Samples come again, at the interval, once nothing fails.
fault_off
t=$(boottime_ns)
monitor_wait 10 "$TMPDIR/mon" 2 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
