#!/bin/bash
# Proves: a tick the producer fails to collect changes nothing but
# itself.  With kstat.ko's test-only parameter fail_ticks=1 the next tick
# fails as if an allocation had failed, while IRQs are being fired: the
# producer counts it (alloc_failures + 1), the listener is not cut off
# (samples come again at the interval), and every sample after it carries
# the IRQs' exact counts: the last equals /proc/interrupts and what was
# fired; no sample's count goes back.
# timeout: 180
source tests/lib.sh
require_cmd jq
require_kstat

fault=/sys/module/kstat/parameters/fail_ticks
[[ -e $fault ]] || t_fail "$fault does not exist: this kstat.ko cannot fail a tick on purpose"
fault_off() { echo 0 > "$fault"; }
t_cleanup fault_off
t_cleanup config_reset

irqsim_load irqs=4
t_cleanup irqsim_unload
a=$(irqsim_irq 0)
b=$(irqsim_irq 1)
proc_total() {
	awk -v q="$1:" 'NR == 1 { n = NF; next }
		$1 == q { s = 0; for (i = 2; i <= n + 1; i++) s += $i; printf "%.0f\n", s }' /proc/interrupts
}

irqsim_fire 0 0 5
irqsim_fire 1 1 9
"$KSTAT" config set interval 500 batch 1
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 2

# fail_ticks=1, then fire one interrupt on each IRQ after another until
# the producer has counted the failure.
f0=$(stat_of alloc_failures)
echo 1 > "$fault"
fired=0
end=$(( ${EPOCHREALTIME/./} + $(t_scaled 20) * 1000000 ))
while (($(stat_of alloc_failures) < f0 + 1)); do
	((${EPOCHREALTIME/./} < end)) || t_fail "fail_ticks=1: alloc_failures still $f0 after 20 s"
	irqsim_fire 0 0 1
	irqsim_fire 1 0 1
	fired=$((fired + 1))
done
t_b=$(boottime_ns)
t_log "fail_ticks=1; fired 1 + 1 $fired times until alloc_failures rose from $f0"
monitor_wait 15 "$TMPDIR/mon" 2 "$t_b"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2

assert_eq $((f0 + 1)) "$(stat_of alloc_failures)" "alloc_failures after one failed tick"
assert_eq $((5 + fired)) "$(proc_total "$a")" "/proc/interrupts total of IRQ $a"
assert_eq $((9 + fired)) "$(proc_total "$b")" "/proc/interrupts total of IRQ $b"
t_log "stream: $(jq -c 'if .seq != null then {seq, timestamp_ns} else . end' "$TMPDIR/mon" | tr '\n' ' ')"
for q in "$a" "$b"; do
	series=$(jq -c --argjson q "$q" "$T_SAMPLE"' | .irq[]? | select(.irq == $q) | .count' \
		"$TMPDIR/mon" | tr '\n' ' ')
	series=${series% }
	t_log "IRQ $q: $series"
	assert_eq "$(proc_total "$q")" "${series##* }" "IRQ $q in the last sample vs /proc/interrupts"
	sort -n -c <<<"${series// /$'\n'}" 2>/dev/null || t_fail "IRQ $q's count went back: $series"
done
