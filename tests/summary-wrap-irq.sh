#!/bin/bash
# Proves: an IRQ whose per-CPU count (and so its 32-bit total) wraps at
# 2^32 keeps a 64-bit, monotonic, exact count in the summary.  kstat_irqsim
# presets IRQ 0's CPU0 count to 2^32-100, and IRQ 1's CPU0 count to 10 and
# CPU1 count to 2^32-50, before the monitor starts: the first keyframe
# reports those totals (2^32-100 and 2^32-40); after firing 300 on CPU0
# and 100 on CPU1 the summary says 2^32+200 and 2^32+60 while
# /proc/interrupts shows the wrapped 200 and 10 + 50, and `kstat irq show`
# (the request path, documented as the kernel's 32-bit total) 200 and 60.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
require_cpus 2
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10

irqsim_load irqs=2
t_cleanup irqsim_unload
a=$(irqsim_irq 0)
b=$(irqsim_irq 1)
# col IRQ CPU: IRQ's column for CPU in /proc/interrupts.
col() {
	awk -v q="$1:" -v c="$(($2 + 2))" '$1 == q { print $c }' /proc/interrupts
}
# counts IRQ: every count of IRQ in the monitor's samples, in order.
counts() {
	jq -c --argjson q "$1" 'select(.seq != null) | .irq[]? | select(.irq == $q) | .count' \
		"$TMPDIR/mon" | tr '\n' ' '
}

irqsim_preset 0 0 $((2 ** 32 - 100))
irqsim_preset 1 0 10
irqsim_preset 1 1 $((2 ** 32 - 50))

"$KSTAT" config set interval 500 batch 1 keyframe 10
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 1
first=$(head -n 1 "$TMPDIR/mon")
assert_eq true "$(jq .keyframe <<<"$first")" "the first sample is a keyframe"
assert_eq $((2 ** 32 - 100)) "$(jq --argjson q "$a" '.irq[] | select(.irq == $q) | .count' <<<"$first")" \
	"IRQ $a in the first keyframe (preset)"
assert_eq $((2 ** 32 - 40)) "$(jq --argjson q "$b" '.irq[] | select(.irq == $q) | .count' <<<"$first")" \
	"IRQ $b in the first keyframe (preset)"

irqsim_fire 0 0 300
irqsim_fire 1 1 100
t=$(boottime_ns)
monitor_wait 15 "$TMPDIR/mon" 2 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
t_log "IRQ $a: $(counts "$a")"
t_log "IRQ $b: $(counts "$b")"

assert_eq 200 "$(col "$a" 0)" "/proc/interrupts IRQ $a CPU0 (wrapped)"
assert_eq 10 "$(col "$b" 0)" "/proc/interrupts IRQ $b CPU0"
assert_eq 50 "$(col "$b" 1)" "/proc/interrupts IRQ $b CPU1 (wrapped)"
assert_eq 200 "$("$KSTAT" -j irq show "$a" | jq '.[0].count')" "kstat irq show $a (32-bit)"
assert_eq 60 "$("$KSTAT" -j irq show "$b" | jq '.[0].count')" "kstat irq show $b (32-bit)"

last() { counts "$1" | awk '{ print $NF }'; }
assert_eq $((2 ** 32 + 200)) "$(last "$a")" "IRQ $a in the summary: 2^32-100 + 300"
assert_eq $((2 ** 32 + 60)) "$(last "$b")" "IRQ $b in the summary: 2^32-40 + 100"
for q in "$a" "$b"; do
	jq -s -e --argjson q "$q" '[.[] | select(.seq != null) | .irq[]? | select(.irq == $q) | .count] |
		. as $c | [range(1; length) | $c[.] >= $c[. - 1]] | all' "$TMPDIR/mon" >/dev/null ||
		t_fail "IRQ $q's count went down: $(counts "$q")"
done
