#!/bin/bash
# Proves: the benchmark runs end to end in a small configuration (1024
# synthetic IRQs, few repeats) and its results are sane: every timed
# metric positive, each of floor, cpu, irq and agent there, and nothing
# ticks or is sent while nobody listens (the idle metric: ticks, tick time
# and samples 0, the producer not running); kstat's IRQ GET sees the
# synthetic IRQs /proc/interrupts lists.  Then one round of `kstat-bench
# readers` with 2 s windows: every case (union, eight, group64, idle) gives
# its line, the readers of each case with readers received samples and
# none overran, and with no reader no tick runs at all.  No timing or
# ratio is asserted (bench/ and docs/performance.md hold those).
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
awk '$1 == "metric" && !($4 > 0 && $7 > 0) { bad = 1; print "bad: " $0 }
     END { exit bad }' "$out" >&2 || t_fail "a timing is not positive"
for m in floor cpu irq agent; do
	grep -qE "^metric $m[a-z_]* " "$out" || t_fail "no metric $m*"
done
for v in idle_ticks idle_tick_ns idle_samples idle_running; do
	assert_eq 0 "$(awk -v n="$v" '$1 == "value" && $2 == n { print $3 + 0 }' "$out")" "$v"
done

# kstat counts what /proc lists: the synthetic IRQs
want=$(grep -c 'kstat-sim-' /proc/interrupts)
got=$("$KSTAT" -j irq show | jq '[.[] | select(.actions[0] // "" | startswith("kstat-sim-"))] | length')
assert_eq "$want" "$got" "synthetic IRQs in /proc/interrupts vs kstat"

# What readers cost the producer: one short round.
bench/kstat-bench -R 1 -w 2 readers >"$TMPDIR/readers" || t_fail "kstat-bench readers failed: $(tail -3 "$TMPDIR/readers")"
cat "$TMPDIR/readers" >&2
for c in union eight group64 idle; do
	grep -qE "^round 1 $c elapsed_ns [0-9]+ ticks [0-9]+ tick_ns [0-9]+ samples [0-9]+ readers [0-9]+ received [0-9]+ enobufs [0-9]+$" "$TMPDIR/readers" ||
		t_fail "no line for case $c"
done
awk '$1 == "round" && $3 != "idle" && !($7 > 0 && $15 > 0 && $17 == 0) { bad = 1; print "bad: " $0 }
     END { exit bad }' "$TMPDIR/readers" >&2 ||
	t_fail "a case with readers had no tick, received nothing or overran"
assert_eq "0 0" "$(awk '$1 == "round" && $3 == "idle" { print $7, $9 }' "$TMPDIR/readers")" "ticks and tick_ns with no reader"
