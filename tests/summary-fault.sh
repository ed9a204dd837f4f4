#!/bin/bash
# Proves: a sample the producer fails to build changes nothing.  With
# kstat.ko's test-only parameter fault_samples=1 the next sample fails as
# if an allocation had failed, while IRQs are being fired: the producer
# counts it (alloc_failures + 1), subscribers see a seq gap (a "gap" loss
# of 1 sample), the next delivered sample is a keyframe, and the counts
# carry each increment once: they end equal to /proc/interrupts and to
# what was fired (the failed sample's increments were once added twice).
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

# fault_samples=1, then fire one interrupt on each IRQ after another until
# the producer has counted the failure: the failed sample certainly had
# increments of its own since the sample before it.
f0=$(alloc_failures)
echo 1 > "$fault"
t_a=$(boottime_ns)
fired=0
end=$(( ${EPOCHREALTIME/./} + $(t_scaled 20) * 1000000 ))
while (($(alloc_failures) < f0 + 1)); do
	((${EPOCHREALTIME/./} < end)) || t_fail "fault_samples=1: alloc_failures still $f0 after 20 s"
	irqsim_fire 0 0 1
	irqsim_fire 1 0 1
	fired=$((fired + 1))
done
t_b=$(boottime_ns)
t_log "fault_samples=1; fired 1 + 1 $fired times until alloc_failures rose from $f0 ($(((t_b - t_a) / 1000000)) ms)"
monitor_wait 15 "$TMPDIR/mon" 2 "$t_b"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2

assert_eq $((f0 + 1)) "$(alloc_failures)" "alloc_failures after one failed sample"
assert_eq $((5 + fired)) "$(proc_total "$a")" "/proc/interrupts total of IRQ $a"
assert_eq $((9 + fired)) "$(proc_total "$b")" "/proc/interrupts total of IRQ $b"

# The samples around the failure: last before it, the loss, first after.
jq -c 'if .seq != null then {seq, keyframe, timestamp_ns} else . end' "$TMPDIR/mon" >"$TMPDIR/seqs"
t_log "stream: $(tr '\n' ' ' <"$TMPDIR/seqs")"
assert_match '^\{"lost":1,"reason":"gap"\}$' "$(cat "$TMPDIR/seqs")" "the monitor's loss report"
around=$(jq -s -c '(map(.lost != null) | index(true)) as $i |
	{before: .[$i - 1].seq, after: .[$i + 1].seq, key: .[$i + 1].keyframe}' "$TMPDIR/seqs")
t_log "around the loss: $around"
assert_eq "$(jq '.before + 2' <<<"$around")" "$(jq .after <<<"$around")" \
	"seq of the first sample after the failed one"
assert_eq true "$(jq .key <<<"$around")" "the first sample after the failed one is a keyframe"

for q in "$a" "$b"; do
	series=$(jq -c --argjson q "$q" 'select(.seq != null) | .irq[]? | select(.irq == $q) | .count' \
		"$TMPDIR/mon" | tr '\n' ' ')
	series=${series% }
	t_log "IRQ $q: $series"
	assert_eq "$(proc_total "$q")" "${series##* }" "IRQ $q applied by the monitor vs /proc/interrupts"
done
