#!/bin/bash
# Proves: with 4096 synthetic IRQs and one of them fired between samples,
# delta samples carry only the IRQs that changed (the fired one among
# them, with its new count), keyframes carry every IRQ, and the counts the
# library applied equal `kstat irq show`.
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup "$KSTAT" config set interval 1000 keyframe 10

irqsim_load irqs=4096
t_cleanup irqsim_unload
irq=$(irqsim_irq 100)
total=$(ls /sys/kernel/irq | wc -l)

"$KSTAT" config set interval 500 keyframe 4
"$KSTAT" -j monitor >"$TMPDIR/mon" &
mon=$!
stop_mon() { kill "$mon" 2>/dev/null || true; }
t_cleanup stop_mon
# Fire once the monitor has its first sample: fired before, the IRQ's
# count is in that keyframe and no delta need carry it (a slow start on
# a loaded debug kernel took longer than the three fires).
monitor_wait 60 "$TMPDIR/mon" 1
for i in 1 2 3; do irqsim_fire 100 0 7; sleep 1.2; done
# Stop once a sample holds the last fire and 10 samples have come: a
# fixed count of samples ended before the third fire on the debug kernel.
now=$("$KSTAT" -j irq show "$irq" | jq '.[0].count')
applied() {
	[[ $(jq -s --argjson q "$irq" \
		'[.[] | .irq[] | select(.irq == $q) | .count] | last' \
		"$TMPDIR/mon" 2>/dev/null) == "$now" ]] &&
		(($(wc -l <"$TMPDIR/mon") >= 10))
}
wait_until 60 applied
stop_mon
wait "$mon" 2>/dev/null || true
# Whole lines only: the monitor may have been stopped mid-line.
head -n "$(wc -l <"$TMPDIR/mon")" "$TMPDIR/mon" >"$TMPDIR/mon.whole"
mv "$TMPDIR/mon.whole" "$TMPDIR/mon"

keys=$(jq -s '[.[] | select(.keyframe)] | length' "$TMPDIR/mon")
deltas=$(jq -s '[.[] | select(.keyframe | not)] | length' "$TMPDIR/mon")
t_log "$keys keyframes, $deltas deltas"
((keys >= 1 && deltas >= 3)) || t_fail "expected keyframes and deltas, got $keys and $deltas"
jq -s -e --argjson n "$total" '[.[] | select(.keyframe) | .irq | length] | all(. == $n)' \
	"$TMPDIR/mon" >/dev/null || t_fail "a keyframe does not carry all $total IRQs"
big=$(jq -s '[.[] | select(.keyframe | not) | .irq | length] | max' "$TMPDIR/mon")
((big < 20)) || t_fail "a delta carried $big IRQs; only the changed ones belong there"
seen=$(jq -s --argjson q "$irq" '[.[] | select(.keyframe | not) | .irq[] | select(.irq == $q)] | length' "$TMPDIR/mon")
((seen >= 1)) || t_fail "the fired IRQ $irq never appeared in a delta"
last=$(jq -s --argjson q "$irq" '[.[] | .irq[] | select(.irq == $q) | .count] | last' "$TMPDIR/mon")
assert_eq "$now" "$last" "count of IRQ $irq applied by the library vs kstat irq show"
"$KSTAT" -j stats | jq -c '{keyframe_bytes, delta_bytes, build_ns_last, build_ns_max}' >&2
