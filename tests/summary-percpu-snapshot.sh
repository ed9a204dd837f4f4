#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that a sample's per-CPU IRQ counts are those of the sample's
# own moment (issue 26, point 8): the producer reads them when it
# collects the sample, in one pass with the IRQ's count, so they sum to
# it.  They used to be read when a message was written, so the SUBSCRIBE
# snapshot, which repeats the latest sample seconds later, carried
# per-CPU counts of its own moment beside the sample's older counts.
#
# With a 5 s interval a first monitor keeps the producer running; an
# IRQ fires 5 times on CPU 1 after the first sample; a second monitor's
# first sample is the snapshot of that sample: every IRQ's per-CPU counts
# must sum to its count.  (Should a tick fall between the firing and the
# snapshot, the check still holds; it then only cannot catch the old
# fault.)
# timeout: 120
source tests/lib.sh

require_cmd jq
require_cpus 2
irqsim_load irqs=4
t_cleanup irqsim_unload
"$KSTAT" config set interval 5000 keyframe 10 batch 1 percpu on
t_cleanup "$KSTAT" config set interval 1000 keyframe 10 batch 1 percpu off
irq=$(irqsim_irq 3)

timeout -s INT "$(t_scaled 30)" "$KSTAT" -j monitor count 3 >"$TMPDIR/a" &
first=$!
t_cleanup t_kill "$first"
monitor_wait 10 "$TMPDIR/a" 1
irqsim_fire 3 1 5
timeout -s INT "$(t_scaled 10)" "$KSTAT" -j monitor count 1 >"$TMPDIR/b" ||
	t_fail "the second monitor got no sample"
seq_a=$(head -n 1 "$TMPDIR/a" | jq .seq)
seq_b=$(jq -s '[.[] | select(.seq != null)][0].seq' "$TMPDIR/b")
t_log "first sample seq $seq_a, second monitor's first seq $seq_b"

jq -s -r '[.[] | select(.seq != null)][0].irq[] |
	select(((.percpu // []) | add // 0) % 4294967296 != .count % 4294967296) |
	"IRQ \(.irq): count \(.count), per-CPU \(.percpu)"' "$TMPDIR/b" >"$TMPDIR/bad"
[[ ! -s $TMPDIR/bad ]] ||
	t_fail "per-CPU counts that do not sum to the count: $(head -n 3 "$TMPDIR/bad")"
# The snapshot of the sample before the firing shows that moment: 0.
if [[ $seq_a == "$seq_b" ]]; then
	assert_eq 0 "$(jq -s "[.[] | select(.seq != null)][0].irq[] | select(.irq == $irq) | .percpu[1]" "$TMPDIR/b")" \
		"IRQ $irq's count on CPU 1 in the snapshot of sample $seq_a"
else
	t_log "a tick fell between the firing and the snapshot"
fi
