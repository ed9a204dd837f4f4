#!/bin/bash
# Proves: after irqsim fires known counts on known CPUs, kstat reports
# exactly those counts, per CPU and in total, through both the do request
# (`irq show N`) and the dump (`irq show` of a range), with the metadata
# /proc/interrupts shows (chip, action name).
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
