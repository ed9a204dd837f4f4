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
count_of_irq() { "$KSTAT" -j irq show "$irq" | jq '.[0].count'; }
# The kind of the first sample after line $2 of the monitor's output
# that shows the IRQ's count above $1: "true" (keyframe), "false"
# (delta), or nothing while none does yet.  Only the lines since the
# fire are read: a keyframe is 4096 IRQs, not worth parsing again every
# 0.1 s.
first_change() {
	tail -n "+$(($2 + 1))" "$TMPDIR/mon" | jq -s -r --argjson q "$irq" --argjson b "$1" \
		'[.[] | select(has("irq")) |
		  select(any(.irq[]; .irq == $q and .count > $b))] |
		 first | select(.) | .keyframe // false' 2>/dev/null
}
changed() { [[ -n $(first_change "$@") ]]; }
# Fire once the monitor has its first sample (fired before, the count is
# in that keyframe and no delta need carry it).  One sample in 4 is a
# keyframe, which carries every IRQ anyway: when the sample after the
# fire is one, fire again (1 time in 4; 6 keyframes in a row fail).
monitor_wait 60 "$TMPDIR/mon" 1
in_delta=
for attempt in 1 2 3 4 5 6; do
	before=$(count_of_irq)
	since=$(wc -l <"$TMPDIR/mon")
	irqsim_fire 100 0 7
	wait_until 60 changed "$before" "$since"
	if [[ $(first_change "$before" "$since") == false ]]; then
		in_delta=$attempt
		break
	fi
	t_log "attempt $attempt: the first sample after the fire was a keyframe"
done
[[ -n $in_delta ]] || t_fail "the fired IRQ $irq never appeared in a delta (6 fires, each first seen in a keyframe)"
# Stop once a sample holds the last count and 10 samples have come.
now=$(count_of_irq)
applied() {
	[[ $(tail -n "+$((since + 1))" "$TMPDIR/mon" | jq -s --argjson q "$irq" \
		'[.[] | select(has("irq")) | .irq[] | select(.irq == $q) | .count] | last' \
		2>/dev/null) == "$now" ]] &&
		(($(wc -l <"$TMPDIR/mon") >= 10))
}
wait_until 60 applied
stop_mon
wait "$mon" 2>/dev/null || true
# Whole lines only: the monitor may have been stopped mid-line.
head -n "$(wc -l <"$TMPDIR/mon")" "$TMPDIR/mon" >"$TMPDIR/mon.whole"
mv "$TMPDIR/mon.whole" "$TMPDIR/mon"

keys=$(jq -s '[.[] | select(has("irq") and .keyframe)] | length' "$TMPDIR/mon")
deltas=$(jq -s '[.[] | select(has("irq") and (.keyframe | not))] | length' "$TMPDIR/mon")
losses=$(jq -s '[.[] | select(has("lost"))] | length' "$TMPDIR/mon")
t_log "$keys keyframes, $deltas deltas, $losses losses; in a delta at fire $in_delta"
((keys >= 1 && deltas >= 3)) || t_fail "expected keyframes and deltas, got $keys and $deltas"
jq -s -e --argjson n "$total" '[.[] | select(.keyframe) | .irq | length] | all(. == $n)' \
	"$TMPDIR/mon" >/dev/null || t_fail "a keyframe does not carry all $total IRQs"
big=$(jq -s '[.[] | select(has("irq") and (.keyframe | not)) | .irq | length] | max' "$TMPDIR/mon")
((big < 20)) || t_fail "a delta carried $big IRQs; only the changed ones belong there"
last=$(jq -s --argjson q "$irq" '[.[] | select(has("irq")) | .irq[] | select(.irq == $q) | .count] | last' "$TMPDIR/mon")
assert_eq "$now" "$last" "count of IRQ $irq applied by the library vs kstat irq show"
"$KSTAT" -j stats | jq -c '{keyframe_bytes, delta_bytes, build_ns_last, build_ns_max}' >&2
