#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that IRQs' per-CPU counts travel sparse and right (issue 26,
# docs/protocol.md "A per-CPU record"), with every synthetic IRQ firing on
# one CPU as most IRQs do on real machines (every 4th not at all):
#   - what libkstat makes of them, in a GET (tests/tools/irqdump), in
#     `kstat irq show percpu` and in a subscription's sample (`kstat
#     monitor ... percpu on`), is /proc/interrupts' per-CPU counts, 0 for
#     every CPU /proc does not show, and they sum to the IRQ's count;
#   - a per-CPU GET dump of those 256 IRQs costs at most 12 bytes an IRQ
#     (a header and one (cpu, count) pair) + 64 over the totals dump of
#     the same range, where dense records cost 4 bytes a CPU id: at 8
#     CPUs (make check's second boot) 36 bytes an IRQ.
# timeout: 300
# also: SMP=8
source tests/lib.sh

require_cmd jq
require_cpus 2
n=256
irqsim_load irqs=$n
t_cleanup irqsim_unload
cpus=$(getconf _NPROCESSORS_ONLN)
possible=$(possible_cpus)
t_log "$cpus online CPUs, $possible possible"

# Index i fires (i % 7) + 1 times on CPU i % cpus; every 4th stays at 0.
for ((i = 0; i < n; i++)); do
	if ((i % 4)); then echo "$i $((i % cpus)) $((i % 7 + 1))"; fi
done >"$IRQSIM_DIR/fire"
read -r first last < <(awk 'NR == 1 { f = $2 } { l = $2 } END { print f, l }' \
	"$IRQSIM_DIR/irqs")
sim_proc_rows "$cpus" >"$TMPDIR/proc"
assert_eq "$n" "$(wc -l <"$TMPDIR/proc")" "kstat-sim rows in /proc/interrupts"
check_percpu() {	# FILE WHAT
	percpu_match "$TMPDIR/proc" "$1" "$cpus" "$possible" "$2"
}
json_rows() {	# the "irq count c0 c1 ..." lines of JSON IRQs on stdin
	jq -r --argjson f "$first" --argjson l "$last" 'select(.irq >= $f and .irq <= $l) |
		"\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"'
}

# ---- GETs ----
assert_exit 0 tests/tools/irqdump 1 "$first" "$last"
printf '%s\n' "$T_OUT" >"$TMPDIR/get"
check_percpu "$TMPDIR/get" "per-CPU GET (libkstat)"
assert_exit 0 "$KSTAT" -j irq show "$first-$last" percpu
jq -c '.[]' <<<"$T_OUT" | json_rows >"$TMPDIR/cli"
check_percpu "$TMPDIR/cli" "kstat irq show percpu"

tests/tools/nlraw record-dump irq 0 "$TMPDIR/totals.nl" "irqs=$first-$last"
tests/tools/nlraw record-dump irq 1 "$TMPDIR/percpu.nl" "irqs=$first-$last"
totals=$(stat -c %s "$TMPDIR/totals.nl")
percpu=$(stat -c %s "$TMPDIR/percpu.nl")
t_log "dump bytes of $n IRQs: totals $totals, percpu $percpu ($possible possible CPUs)"
((percpu - totals <= 12 * n + 64)) ||
	t_fail "per-CPU counts of $n one-CPU IRQs took $((percpu - totals)) bytes, over 12 each + 64"

# ---- a sample ----
assert_ok timeout "$(t_scaled 60)" "$KSTAT" -j monitor interval 250ms sections irq percpu on count 2
jq -c "$T_PUSHED"' | .irq[]' <<<"$T_OUT" | json_rows >"$TMPDIR/sample"
check_percpu "$TMPDIR/sample" "a subscription's per-CPU sample"
