#!/bin/bash
# Proves: the benchmark runs end to end in a small configuration (1024
# synthetic IRQs, few repeats) and its results are sane: every timing is
# positive, kstat's IRQ dump sees as many descriptors as /proc/interrupts
# lists plus the hidden ones, nothing is sampled while nobody listens, and
# a keyframe is larger than a delta.  No timing is asserted.  Then one
# round of bench/streams-cost.sh with 2 s windows: every case gives its
# line, the readers get samples (each of them, none overrunning), and with
# no reader no tick runs at all.
# timeout: 300
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq

irqsim_load irqs=1024
t_cleanup irqsim_unload
out=$TMPDIR/bench
bench/kstat-bench -r 3 -n 5 -s 3 >"$out" || t_fail "kstat-bench failed: $(tail -3 "$out")"
cat "$out" >&2

# every metric line: base and kstat medians > 0
awk '$1 == "metric" && !($3 > 0 && $6 > 0) { bad = 1; print "bad: " $0 }
     END { exit bad }' "$out" >&2 || t_fail "a timing is not positive"
for m in floor cpu irq_vs_interrupts irq_vs_stat_intr agent; do
	grep -q "^metric $m " "$out" || t_fail "metric $m missing"
done
assert_eq 0 "$(awk '$2 == "idle_samples" { print $3 + 0 }' "$out")" "samples taken while idle"
kf=$(awk '$2 == "summary_bytes_keyframe" { print $3 + 0 }' "$out")
d=$(awk '$2 == "summary_bytes_delta" { print $3 + 0 }' "$out")
((kf > d && d > 0)) || t_fail "keyframe $kf bytes should exceed delta $d bytes"

# kstat counts equal /proc counts: the synthetic IRQs, held still
want=$(grep -c 'kstat-sim-' /proc/interrupts)
got=$("$KSTAT" -j irq show | jq '[.[] | select(.actions[0] // "" | startswith("kstat-sim-"))] | length')
assert_eq "$want" "$got" "synthetic IRQs in /proc/interrupts vs kstat"

# The streams' cost (make bench): one short round, and its report.
source bench/streams-cost.sh
streams_cost 1 2 >"$TMPDIR/streams" || t_fail "streams_cost failed"
cat "$TMPDIR/streams" >&2
for c in union eight m64 idle; do
	grep -qE "^round 1 $c elapsed_ns [0-9]+ ticks [0-9]+ tick_ns [0-9]+ samples [0-9]+ readers [0-9]+$" "$TMPDIR/streams" ||
		t_fail "no line for case $c"
done
! grep -q "SUBSCRIBE failed" "$TMPDIR/streams" || t_fail "$(grep "SUBSCRIBE failed" "$TMPDIR/streams")"
! grep -q "got nothing or overran" "$TMPDIR/streams" || t_fail "$(grep "got nothing or overran" "$TMPDIR/streams")"
awk '$3 != "idle" && $1 == "round" && !($9 > 0 && $11 > 0) { bad = 1 } END { exit bad }' "$TMPDIR/streams" ||
	t_fail "a case with readers had no tick or no sample"
assert_eq "0 0" "$(awk '$3 == "idle" { print $7, $9 }' "$TMPDIR/streams")" "ticks and tick_ns with no reader"
bench/report-streams.py "$TMPDIR/streams" >"$TMPDIR/report" || t_fail "report-streams.py failed"
grep -q '^| m64 |' "$TMPDIR/report" || t_fail "the report has no m64 row: $(cat "$TMPDIR/report")"
