#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/parse-cost.sh - metric 7: instructions libkstat spends to parse and
# apply a recorded 4096-IRQ keyframe, and a delta, per IRQ they carry; and
# to parse recorded IRQ_GET and CPU_GET dump replies, per object.
# valgrind's callgrind counts instructions, so the figure is repeatable.
# Prints "value NAME V unit UNIT" lines like kstat-bench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
FIX=../tests/fixtures/summary.nl
FIXDIR=../tests/fixtures
# Two run lengths: the difference is the steady-state cost, without the
# one-time growth of the state arrays and the program's own start-up.
N1=${N1:-5}
N2=${N2:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instructions MODE ITER [FIXTURE]: total Ir of one run
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.$2" \
		./parse-cost "${3:-$FIX}" "$1" "$2" >"$tmp/out" 2>/dev/null
	sed -n 's/^totals: *//p;s/^summary: *//p' "$tmp/cg.$1.$2" | head -n 1
}

# dump NAME MODE FIXTURE: instructions per object of a recorded dump
dump() {
	local d1 d2 objs
	d1=$(instructions "$2" "$N1" "$FIXDIR/$3")
	d2=$(instructions "$2" "$N2" "$FIXDIR/$3")
	read -r _ objs <"$tmp/out"
	awk -v d1="$d1" -v d2="$d2" -v n="$((N2 - N1))" -v o="$objs" \
	    -v name="$1" 'BEGIN {
		printf "value parse_%s_instr_per_obj %.1f unit instructions/object\n", name, (d2 - d1) / n / o
		printf "value parse_%s_objs %d unit objects/dump\n", name, o
	}'
}

k1=$(instructions key "$N1")
k2=$(instructions key "$N2")
kd2=$(instructions keydelta "$N2")
read -r _ kirqs _ dirqs _ <"$tmp/out"

awk -v k1="$k1" -v k2="$k2" -v kd2="$kd2" -v n="$((N2 - N1))" -v n2="$N2" \
    -v ki="$kirqs" -v di="$dirqs" 'BEGIN {
	kf = (k2 - k1) / n; d = (kd2 - k2) / n2
	printf "value parse_keyframe_instr_per_irq %.1f unit instructions/IRQ\n", kf / ki
	printf "value parse_keyframe_instr %.0f unit instructions/sample\n", kf
	printf "value parse_delta_instr %.0f unit instructions/sample\n", d
	printf "value parse_delta_irqs %d unit IRQs/sample\n", di
	printf "value parse_delta_instr_per_irq %.1f unit instructions/IRQ\n", d / (di ? di : 1)
}'
dump irq_dump_totals irqdump irq-dump-totals.nl
dump irq_dump_all irqdump irq-dump-all.nl
dump irq_dump_percpu irqdump irq-dump-percpu.nl
dump cpu_dump cpudump cpu-dump.nl
