#!/bin/bash
# Proves: a slow subscriber with a tiny receive buffer sees its losses,
# never a silently wrong count: lost events appear, every sample delivered
# after a loss starts from a keyframe, and the counts it applies still
# equal `kstat irq show` after the resync.
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup "$KSTAT" config set interval 1000 keyframe 10

irqsim_load irqs=64
t_cleanup irqsim_unload
irq=$(irqsim_irq 5)
irqsim_fire 5 0 11

"$KSTAT" config set interval 20 keyframe 5
# 4 KiB socket buffer, 300 ms asleep after every read: it must overflow.
timeout -s INT 8 "$KSTAT" -j monitor rcvbuf 4096 delay 300 >"$TMPDIR/slow" || true

lost=$(jq -s '[.[] | select(.lost) | .lost] | add // 0' "$TMPDIR/slow")
t_log "slow subscriber: $(grep -c '"seq"' "$TMPDIR/slow") samples, $lost lost"
((lost > 0)) || t_fail "a 4 KiB buffer read every 300 ms at 20 ms samples reported no loss"
# After each loss, the next sample must be a keyframe.
jq -s -e '[range(1; length) as $i | select(.[$i - 1].lost) |
	.[$i] | select(.seq) | .keyframe] | all' "$TMPDIR/slow" >/dev/null ||
	t_fail "a sample after a loss was not a keyframe"
# Between samples without loss in between, seq is consecutive.
jq -s -e '[range(1; length) as $i | select(.[$i].seq and .[$i - 1].seq) |
	.[$i].seq == .[$i - 1].seq + 1] | all' "$TMPDIR/slow" >/dev/null ||
	t_fail "seq jumped without a lost event"
last=$(jq -s --argjson q "$irq" '[.[] | select(.irq) | .irq[] | select(.irq == $q) | .count] | last' "$TMPDIR/slow")
assert_eq "$("$KSTAT" -j irq show "$irq" | jq '.[0].count')" "$last" "count of IRQ $irq after resync"
