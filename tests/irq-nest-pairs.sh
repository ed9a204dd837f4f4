#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that an IRQ nest's per-CPU counts (a do request, a dump with
# metadata) are right in the form of pairs: an IRQ fired on two CPUs of
# four or more, where two (cpu, count) pairs are smaller than the array.
# The kernel once sized that record as one word and wrote the four more
# past it, into the reply's tail ("kstat: malformed reply from the
# kernel" from 4 CPUs on, and at 8 a nest that no longer parses).  It
# also checks an IRQ fired on one CPU (a one-word record) and one fired
# on every CPU (the array) beside it, and that the kernel log stays
# clean (the runner's scan).  Meaningful from 4 CPUs: make check's
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
	"$two") check_irq "$j" "$irq" 12 "0:5 $last:7 1:0" "do request" ;;
	"$one") check_irq "$j" "$irq" 9 "1:9 0:0" "do request" ;;
	*) check_irq "$j" "$irq" "$sum_all" "$spread" "do request" ;;
	esac
done

lo=$(printf '%s\n' "$two" "$one" "$all" | sort -n | head -1)
hi=$(printf '%s\n' "$two" "$one" "$all" | sort -n | tail -1)
j=$("$KSTAT" -j irq show "$lo-$hi" percpu)
check_irq "$j" "$two" 12 "0:5 $last:7 1:0" "dump with metadata"
check_irq "$j" "$one" 9 "1:9 0:0" "dump with metadata"
check_irq "$j" "$all" "$sum_all" "$spread" "dump with metadata"
