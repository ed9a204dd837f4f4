#!/bin/bash
# Proves: after irqsim fires known counts on known CPUs, kstat reports
# exactly those counts, per CPU and in total, through both the do request
# (`irq show N`) and the dump (`irq show` of a range), with the metadata
# /proc/interrupts shows (chip, action name).  watch irq percpu (mpstat
# -I CPU's table) puts 1000 interrupts fired on CPU 1 in IRQ b's column on
# CPU 1 alone, and its Average table, from the first sample to the last,
# holds them all: rate x seconds is 1000; with -t each line starts with
# the time, the Average table's with "Average:".
source tests/lib.sh
require_cmd jq

irqsim_load irqs=64
t_cleanup irqsim_unload

a=$(irqsim_irq 3)
b=$(irqsim_irq 40)
irqsim_fire 3 0 5
irqsim_fire 3 1 7
irqsim_fire 40 1 1000

j=$("$KSTAT" -j irq show "$a" percpu)
assert_eq 12 "$(jq '.[0].count' <<<"$j")" "total of IRQ $a"
assert_eq "[5,7]" "$(jq -c '.[0].percpu[0:2]' <<<"$j")" "per-CPU counts of IRQ $a"
assert_eq '"dummy"' "$(jq '.[0].chip' <<<"$j")" "chip of IRQ $a"
assert_eq '["kstat-sim-3"]' "$(jq -c '.[0].actions' <<<"$j")" "actions of IRQ $a"

j=$("$KSTAT" -j irq show "$a-$b" percpu)
assert_eq $((b - a + 1)) "$(jq length <<<"$j")" "IRQs in the range $a-$b"
assert_eq "[0,1000]" "$(jq -c ".[] | select(.irq == $b) | .percpu[0:2]" <<<"$j")" \
	"per-CPU counts of IRQ $b in a dump"
assert_eq 0 "$(jq "[.[] | select(.irq != $a and .irq != $b) | .count] | add" <<<"$j")" \
	"untouched synthetic IRQs"

# watch irq percpu: fire after the first interval, so that every one lands
# between the average's first sample and its last.
out=$TMPDIR/watch-percpu.json
"$KSTAT" -j watch irq percpu interval 500ms count 4 >"$out" &
wpid=$!
t_cleanup t_kill $wpid
printed() { [[ -s $out ]]; }
wait_until 30 printed
irqsim_fire 40 1 1000
wait $wpid || t_fail "kstat -j watch irq percpu exited $?"
t_log "watch irq percpu, the average: $(tail -n 1 "$out" | jq -c --argjson b "$b" \
	'{interval_ns, irq: [.irq[] | select(.irq == $b)]}')"
assert_eq 5 "$(wc -l <"$out")" "watch irq percpu count 4: four intervals and the average"
assert_eq '["irq","percpu_rate","rate"]' "$(head -n 1 "$out" | jq -c '.irq[0] | keys')" \
	"watch irq percpu: an IRQ's keys"
assert_eq true "$(tail -n 1 "$out" | jq '.average')" "the last line is the average"
assert_eq '[true,true]' "$(tail -n 1 "$out" | jq -c --argjson b "$b" '. as $o |
	.irq[] | select(.irq == $b) | .percpu_rate as $r |
	[$r[0] == 0, ($r[1] * $o.interval_ns / 1e9 - 1000 | fabs) < 1]')" \
	"average of IRQ $b: 0 on CPU 0, 1000 over the run on CPU 1"
assert_eq true "$(jq -s --argjson b "$b" '[.[:4][] | .interval_ns as $ns |
	.irq[] | select(.irq == $b) | .percpu_rate[1] * $ns / 1e9] | add - 1000 | fabs < 1' "$out")" \
	"the intervals of IRQ $b add up to 1000"

# Text with -t: HH:MM:SS CPU N/s ..., a row per online CPU, then Average:.
ncpu=$(nproc)
txt=$("$KSTAT" -t watch irq percpu interval 200ms count 2)
assert_match "^[0-9]{2}:[0-9]{2}:[0-9]{2} +CPU( +[0-9]+/s)* +$b/s( |\$)" "$(head -n 1 <<<"$txt")" \
	"kstat -t watch irq percpu: the header"
assert_eq $((2 * (ncpu + 1))) "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} ' <<<"$txt")" \
	"two tables of a header and $ncpu CPU rows"
assert_eq $((ncpu + 1)) "$(grep -c '^Average: ' <<<"$txt")" "the Average table: a header and $ncpu rows"
assert_match '^Average: +1( +[0-9]+\.[0-9]{2})+$' "$(grep '^Average: ' <<<"$txt" | sed -n 3p)" \
	"an Average row: CPU 1 and rates"
