#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that an IRQ's per-CPU counts are right in the form of pairs
# (docs/protocol.md, "A per-CPU record"): an IRQ fired on two CPUs of four
# or more, where two (cpu, count) pairs are smaller than the dense array,
# beside an IRQ fired on one CPU (one pair) and one fired on every CPU
# (dense), in a GET of one IRQ and in a GET of a range with metadata; the
# per-CPU counts sum to the count, and the kernel log stays clean (the
# runner's scan).  (The old module once sized a pairs record as one word
# and wrote four more past it.)  Meaningful from 4 CPUs: make check's
# 8-CPU boot; at 2 CPUs two pairs are never smaller than the array, and
# the test skips.
# also: SMP=8
source tests/lib.sh
require_cmd jq

cpus=$(nproc)
((cpus >= 4)) || t_skip "needs 4 CPUs for a pairs record, has $cpus"
last=$((cpus - 1))

irqsim_load irqs=8
t_cleanup irqsim_unload
two=$(irqsim_irq 1)
one=$(irqsim_irq 2)
all=$(irqsim_irq 3)
irqsim_fire 1 0 5
irqsim_fire 1 "$last" 7
irqsim_fire 2 1 9
for ((c = 0; c < cpus; c++)); do irqsim_fire 3 "$c" $((c + 1)); done

# check_irq JSON IRQ COUNT 'CPU:N ...' WHAT: the IRQ's count, its per-CPU
# counts (those named, 0 elsewhere) and that they sum to the count.
check_irq() {
	local j=$1 irq=$2 count=$3 want=$4 what=$5 row cpu n
	row=$(jq -c --argjson irq "$irq" '.[] | select(.irq == $irq)' <<<"$j")
	[[ -n $row ]] || t_fail "$what: IRQ $irq missing"
	assert_eq "$count" "$(jq .count <<<"$row")" "$what: count of IRQ $irq"
	assert_eq "$cpus" "$(jq '.percpu | length' <<<"$row")" \
		"$what: per-CPU counts of IRQ $irq"
	assert_eq "$count" "$(jq '.percpu | add' <<<"$row")" \
		"$what: per-CPU counts of IRQ $irq sum to its count"
	for cpu in $want; do
		n=${cpu#*:}
		cpu=${cpu%:*}
		assert_eq "$n" "$(jq ".percpu[$cpu]" <<<"$row")" \
			"$what: IRQ $irq on CPU $cpu"
	done
}

spread=""
for ((c = 0; c < cpus; c++)); do spread+=" $c:$((c + 1))"; done
sum_all=$((cpus * (cpus + 1) / 2))

for irq in "$two" "$one" "$all"; do
	j=$("$KSTAT" -j irq show "$irq" percpu)
	case $irq in
	"$two") check_irq "$j" "$irq" 12 "0:5 $last:7 1:0" "one IRQ" ;;
	"$one") check_irq "$j" "$irq" 9 "1:9 0:0" "one IRQ" ;;
	*) check_irq "$j" "$irq" "$sum_all" "$spread" "one IRQ" ;;
	esac
done

lo=$(printf '%s\n' "$two" "$one" "$all" | sort -n | head -1)
hi=$(printf '%s\n' "$two" "$one" "$all" | sort -n | tail -1)
j=$("$KSTAT" -j irq show "$lo-$hi" percpu)
check_irq "$j" "$two" 12 "0:5 $last:7 1:0" "a range"
check_irq "$j" "$one" 9 "1:9 0:0" "a range"
check_irq "$j" "$all" "$sum_all" "$spread" "a range"
