#!/bin/bash
# Proves: failed samples do not age the base the counts are extended
# from.  While every sample fails (the test-only fault_samples), IRQ 0 of
# kstat_irqsim is fast-forwarded twice by 3 000 000 000 on CPU 0, a
# failed sample in between: 6e9 interrupts in all, more than 2^32, none
# of them ever 2^32 between two readings.  The first sample after the
# failures must say exactly 6e9 more than the last one before (it said
# 6e9 - 2^32 when failed samples left the base at the last good one), as
# a keyframe.  The longest interval is what keeps readings that close:
# CONFIG_SET above KSTAT_INTERVAL_MAX_MS is refused (tests/errors.sh).
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat

fault=/sys/module/kstat/parameters/fault_samples
fault_off() { echo 0 > "$fault"; }
t_cleanup fault_off
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10
alloc_failures() { "$KSTAT" -j stats | jq .alloc_failures; }
# failures_after N: wait until alloc_failures reaches N.
failures_reach() { (($(alloc_failures) >= $1)); }

irqsim_load irqs=1
t_cleanup irqsim_unload
a=$(irqsim_irq 0)
counts() {
	jq -c --argjson q "$a" 'select(.seq != null) | {seq, keyframe,
		count: (.irq[]? | select(.irq == $q) | .count)}' "$TMPDIR/mon"
}

"$KSTAT" config set interval 300 batch 1 keyframe 100
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 2
echo 1000 > "$fault"
f=$(alloc_failures)
wait_until 15 failures_reach $((f + 2))
before=$(counts | tail -n 1)
t_log "last sample before the failures: $before"

# Two steps of 3e9, each read by a (failed) sample: 2 failures after each.
irqsim_preset 0 0 3000000000
f=$(alloc_failures)
wait_until 15 failures_reach $((f + 2))
irqsim_preset 0 0 $(((6000000000) % 2 ** 32))
f=$(alloc_failures)
wait_until 15 failures_reach $((f + 2))

t=$(boottime_ns)
fault_off
monitor_wait 15 "$TMPDIR/mon" 1 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
after=$(counts | tail -n 1)
t_log "first sample after them: $after"
assert_eq true "$(jq .keyframe <<<"$after")" "the first sample after failed ones is a keyframe"
assert_eq $(($(jq .count <<<"$before") + 6000000000)) "$(jq .count <<<"$after")" \
	"IRQ $a after 2 x 3e9 interrupts over failed samples"
