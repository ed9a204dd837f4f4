#!/bin/bash
# Proves: an IRQ whose per-CPU count (and so its 32-bit total) wraps at
# 2^32 keeps a 64-bit, monotonic, exact count, in samples and in GETs
# alike (protocol 5: one count, extended by descriptor identity at every
# reading).  kstat_irqsim presets IRQ 0's CPU0 count to 2^32-100, and IRQ
# 1's CPU0 count to 10 and CPU1 count to 2^32-50, before the monitor
# starts: its first sample reports those totals (2^32-100 and 2^32-40);
# after firing 300 on CPU0 and 100 on CPU1 the samples and `kstat irq
# show` say 2^32+200 and 2^32+60 while /proc/interrupts shows the wrapped
# 200 and 10 + 50.  Then readings of anyone extend the count: IRQ 2 is
# fast-forwarded by 3e9 twice, with a GET between (each step under 2^32,
# their sum over it), while the default stream's next tick is a minute
# away: the next sample says exactly 6e9 more than before.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
require_cpus 2
t_cleanup config_reset

irqsim_load irqs=3
t_cleanup irqsim_unload
a=$(irqsim_irq 0)
b=$(irqsim_irq 1)
c=$(irqsim_irq 2)
# col IRQ CPU: IRQ's column for CPU in /proc/interrupts.
col() {
	awk -v q="$1:" -v c="$(($2 + 2))" '$1 == q { print $c }' /proc/interrupts
}
# counts IRQ: every count of IRQ in the monitor's samples, in order.
counts() {
	jq -c --argjson q "$1" "$T_SAMPLE"' | .irq[]? | select(.irq == $q) | .count' \
		"$TMPDIR/mon" | tr '\n' ' '
}
get() { "$KSTAT" -j irq show "$1" | jq '.[0].count'; }

irqsim_preset 0 0 $((2 ** 32 - 100))
irqsim_preset 1 0 10
irqsim_preset 1 1 $((2 ** 32 - 50))

"$KSTAT" config set interval 500 batch 1
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 1
first=$(jq -c -s "[.[] | $T_SAMPLE][0]" "$TMPDIR/mon")
assert_eq $((2 ** 32 - 100)) "$(jq --argjson q "$a" '.irq[] | select(.irq == $q) | .count' <<<"$first")" \
	"IRQ $a in the first sample (preset)"
assert_eq $((2 ** 32 - 40)) "$(jq --argjson q "$b" '.irq[] | select(.irq == $q) | .count' <<<"$first")" \
	"IRQ $b in the first sample (preset)"

irqsim_fire 0 0 300
irqsim_fire 1 1 100
t=$(boottime_ns)
monitor_wait 15 "$TMPDIR/mon" 2 "$t"
t_log "IRQ $a: $(counts "$a")"
t_log "IRQ $b: $(counts "$b")"

assert_eq 200 "$(col "$a" 0)" "/proc/interrupts IRQ $a CPU0 (wrapped)"
assert_eq 10 "$(col "$b" 0)" "/proc/interrupts IRQ $b CPU0"
assert_eq 50 "$(col "$b" 1)" "/proc/interrupts IRQ $b CPU1 (wrapped)"
assert_eq $((2 ** 32 + 200)) "$(get "$a")" "kstat irq show $a (64-bit)"
assert_eq $((2 ** 32 + 60)) "$(get "$b")" "kstat irq show $b (64-bit)"

last() { counts "$1" | awk '{ print $NF }'; }
assert_eq $((2 ** 32 + 200)) "$(last "$a")" "IRQ $a in the samples: 2^32-100 + 300"
assert_eq $((2 ** 32 + 60)) "$(last "$b")" "IRQ $b in the samples: 2^32-40 + 100"

# Two steps of 3e9 between two ticks, a GET reading between them.
"$KSTAT" config set interval 60000
sleep 1		# the tick already due at 500 ms passes; the next is 60 s away
before=$(get "$c")
irqsim_preset 2 0 3000000000
mid=$(get "$c")
irqsim_preset 2 0 $((6000000000 % 2 ** 32))
t_log "IRQ $c: GET $before, after 3e9 $mid, /proc now $(col "$c" 0)"
assert_eq $((before + 3000000000)) "$mid" "kstat irq show $c after 3e9"
t=$(boottime_ns)
"$KSTAT" config set interval 500	# the next tick comes at once
monitor_wait 15 "$TMPDIR/mon" 1 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
assert_eq $((before + 6000000000)) "$(last "$c")" "IRQ $c in the next sample: 6e9 more, a GET having read it between"
assert_eq $((before + 6000000000)) "$(get "$c")" "kstat irq show $c: 6e9 more"

for q in "$a" "$b" "$c"; do
	jq -s -e --argjson q "$q" '[.[] | '"$T_SAMPLE"' | .irq[]? | select(.irq == $q) | .count] |
		. as $c | [range(1; length) | $c[.] >= $c[. - 1]] | all' "$TMPDIR/mon" >/dev/null ||
		t_fail "IRQ $q's count went down: $(counts "$q")"
done
