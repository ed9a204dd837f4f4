#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/parse-cost.sh - the instructions libkstat spends per IRQ to read
# protocol 5 messages, through its public API (bench/parse-cost.c: a fake
# kernel answers libkstat's socket calls on the host): a totals GET dump
# and a per-CPU one through kstat_get(), a whole sample of every section
# with and without per-CPU counts through a subscription's dispatch.
# valgrind's callgrind counts the instructions, so the figures repeat;
# two run lengths are subtracted, which leaves the steady cost of one
# reading without the program's start-up and one-time allocations.
#
# The messages: tests/fixtures' recorded ones where they are protocol 5
# (irq-dump-totals.nl, irq-dump-percpu.nl, summary.nl, summary-percpu.nl:
# "_rec", at the scale tests/fixtures/record.sh records), and always ones
# parse-cost builds the kernel's way: 4096 IRQs on 2 CPUs (protocol 4's
# fixtures' scale) and the seed's (2804 IRQs, 96 CPUs, "_seed").  Prints "value NAME V unit UNIT" lines like
# kstat-bench, and "# source NAME FILE" for each.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
FIXDIR=${FIXDIR:-../tests/fixtures}
N1=${N1:-5}
N2=${N2:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v valgrind >/dev/null || { echo "# no valgrind: parse cost not measured"; exit 0; }

# instructions MODE FILE ITER [DUMP]: total Ir of one run
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
		./parse-cost "$1" "$2" "$3" ${4:+"$4"} >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; return 1; }
	sed -n 's/^totals: *//p;s/^summary: *//p' "$tmp/cg" | head -n 1
}

# recorded NAME MODE [DUMP]: tests/fixtures/NAME if it is protocol 5
recorded() {
	local rec=$FIXDIR/$1
	[[ -f $rec ]] && ./parse-cost "$2" "$rec" 1 ${3:+"$3"} >/dev/null 2>&1
}

# built KIND IRQS CPUS: messages built the kernel's way
built() {
	./parse-cost gen "$1" "$2" "$3" "$tmp/$1-$2-$3.nl" >/dev/null
	echo "$tmp/$1-$2-$3.nl"
}

# measure NAME MODE FILE [DUMP]: instructions per reading and per IRQ
measure() {
	local i1 i2 irqs
	i1=$(instructions "$2" "$3" "$N1" ${4:+"$4"})
	i2=$(instructions "$2" "$3" "$N2" ${4:+"$4"})
	read -r _ irqs _ <"$tmp/out"
	echo "# source $1 ${3#"$tmp/"}$([[ $3 == "$tmp"/* ]] && echo " (built by parse-cost gen)")"
	awk -v i1="$i1" -v i2="$i2" -v n="$((N2 - N1))" -v irqs="$irqs" -v name="$1" 'BEGIN {
		per = (i2 - i1) / n
		printf "value parse_%s_instr %.0f unit instructions/reading\n", name, per
		printf "value parse_%s_irqs %d unit IRQs/reading\n", name, irqs
		printf "value parse_%s_instr_per_irq %.1f unit instructions/IRQ\n", name, irqs ? per / irqs : 0
	}'
}

# Recorded by tests/fixtures/record.sh, when they are protocol 5's.
dt=$FIXDIR/irq-dump-totals.nl dp=$FIXDIR/irq-dump-percpu.nl
if recorded irq-dump-totals.nl dump; then measure dump_totals_rec dump "$dt"; fi
if recorded irq-dump-percpu.nl dump; then measure dump_percpu_rec dump "$dp"; fi
if recorded irq-dump-totals.nl dump && recorded summary.nl sample "$dt"; then
	measure sample_totals_rec sample "$FIXDIR/summary.nl" "$dt"
fi
if recorded irq-dump-percpu.nl dump && recorded summary-percpu.nl sample "$dp"; then
	measure sample_percpu_rec sample "$FIXDIR/summary-percpu.nl" "$dp"
fi

# Built: 4096 IRQs on 2 CPUs (protocol 4's fixtures' scale), and the seed's.
for scale in "4096 2" "2804 96"; do
	read -r irqs cpus <<<"$scale"
	tag=$([[ $irqs == 4096 ]] && echo "" || echo "_seed")
	dt=$(built dump-totals "$irqs" "$cpus")
	dp=$(built dump-percpu "$irqs" "$cpus")
	measure "dump_totals$tag" dump "$dt"
	measure "dump_percpu$tag" dump "$dp"
	measure "sample_totals$tag" sample "$(built sample-totals "$irqs" "$cpus")" "$dt"
	measure "sample_percpu$tag" sample "$(built sample-percpu "$irqs" "$cpus")" "$dp"
done
