#!/bin/bash
# Proves: the benchmark runs end to end in a small configuration (1024
# synthetic IRQs, few repeats) and its results are sane: every timing is
# positive, kstat's IRQ dump sees as many descriptors as /proc/interrupts
# lists plus the hidden ones, nothing is sampled while nobody listens, and
# a keyframe is larger than a delta.  No timing is asserted.
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
