#!/bin/bash
# Proves: a sample the producer fails to build changes nothing.  With
# kstat.ko's test-only parameter fault_samples=1 the next sample fails as
# if an allocation had failed, right after IRQs were fired: the producer
# counts it (alloc_failures + 1), subscribers see a seq gap (a "gap" loss
# of 1 sample), the next delivered sample is a keyframe, and it and every
# later one carry each increment once: the counts equal /proc/interrupts
# (the failed sample's increments were once added twice).
# timeout: 180
source tests/lib.sh
require_cmd jq
require_kstat

fault=/sys/module/kstat/parameters/fault_samples
[[ -e $fault ]] ||
	t_fail "$fault does not exist: this kstat.ko cannot fail a sample on purpose (the test-only parameter fault_samples comes with the dropped-sample fix)"
fault_off() { echo 0 > "$fault"; }
t_cleanup fault_off
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10

irqsim_load irqs=4
t_cleanup irqsim_unload
a=$(irqsim_irq 0)
b=$(irqsim_irq 1)
proc_total() {
	awk -v q="$1:" 'NR == 1 { n = NF; next }
		$1 == q { s = 0; for (i = 2; i <= n + 1; i++) s += $i; printf "%.0f\n", s }' /proc/interrupts
}
alloc_failures() { "$KSTAT" -j stats | jq .alloc_failures; }

irqsim_fire 0 0 5
irqsim_fire 1 1 9
"$KSTAT" config set interval 2000 batch 1 keyframe 10
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 1

# Right after a sample: the next one, the one that fails, is 2 s away.
monitor_wait 10 "$TMPDIR/mon" 1 "$(boottime_ns)"
f0=$(alloc_failures)
t_a=$(boottime_ns)
irqsim_fire 0 0 7
irqsim_fire 1 0 4
echo 1 > "$fault"
t_b=$(boottime_ns)
t_log "fired 7 and 4, fault_samples=1 ($(((t_b - t_a) / 1000000)) ms after the last sample arrived); alloc_failures $f0"
failed() { (($(alloc_failures) == f0 + 1)); }
wait_until 10 failed
t_f=$(boottime_ns)
monitor_wait 15 "$TMPDIR/mon" 2 "$t_f"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2

assert_eq $((f0 + 1)) "$(alloc_failures)" "alloc_failures after one failed sample"
inside=$(jq -s --argjson a "$t_a" --argjson b "$t_b" \
	'[.[] | select(.seq != null and .timestamp_ns > $a and .timestamp_ns <= $b)] | length' "$TMPDIR/mon")
((inside == 0)) ||
	t_log "NOTE: a sample was delivered between the fire and fault_samples=1: the failed one had no increment of its own"
assert_eq 12 "$(proc_total "$a")" "/proc/interrupts total of IRQ $a"
assert_eq 13 "$(proc_total "$b")" "/proc/interrupts total of IRQ $b"

# The samples around the failure: last before it, the loss, first after.
jq -c 'if .seq != null then {seq, keyframe, timestamp_ns} else . end' "$TMPDIR/mon" >"$TMPDIR/seqs"
t_log "stream: $(tr '\n' ' ' <"$TMPDIR/seqs")"
assert_match '^\{"lost":1,"reason":"gap"\}$' "$(cat "$TMPDIR/seqs")" "the monitor's loss report"
read -r last_before first_after key_after < <(jq -rs --argjson t "$t_b" '
	([.[] | select(.seq != null and .timestamp_ns < $t)] | last | .seq),
	([.[] | select(.seq != null and .timestamp_ns > $t)] | first | .seq, .keyframe)' \
	"$TMPDIR/mon" | tr '\n' ' ')
assert_eq $((last_before + 2)) "$first_after" "seq of the first sample after the failed one (last before: $last_before)"
assert_eq true "$key_after" "the first sample after the failed one is a keyframe"

counts_after() {
	jq -s --argjson t "$t_b" --argjson q "$1" '[.[] | select(.seq != null and .timestamp_ns > $t)] |
		first | .irq[] | select(.irq == $q) | .count' "$TMPDIR/mon"
}
assert_eq 12 "$(counts_after "$a")" "IRQ $a (5, then 7) in the first sample after the failed one"
assert_eq 13 "$(counts_after "$b")" "IRQ $b (9, then 4) in the first sample after the failed one"
for q in "$a" "$b"; do
	last=$(jq -s --argjson q "$q" '[.[] | select(.seq != null) | .irq[]? | select(.irq == $q) | .count] | last' "$TMPDIR/mon")
	assert_eq "$(proc_total "$q")" "$last" "IRQ $q applied by the monitor vs /proc/interrupts"
done
