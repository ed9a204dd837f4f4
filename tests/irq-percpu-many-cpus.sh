#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that samples with per-CPU IRQ counts keep arriving on a machine
# with many possible CPUs (issue 26).  A dense per-CPU record is 4 bytes a
# CPU id (16 KiB at 4096), so at that size one IRQ's record once no
# longer fit a sample's part and every such sample was dropped
# (alloc_failures grew, nothing arrived).  Pairs make an IRQ that fires on
# one CPU three words: a subscription's samples with per-CPU counts
# arrive, alloc_failures stays, and every IRQ's per-CPU counts (as
# libkstat and the CLI give them: one per possible CPU id) are
# /proc/interrupts' where /proc has columns, 0 elsewhere, and sum to the
# count.
#
# Needs the guest booted with that many possible CPUs: a full make check
# gives it a boot of its own (the "# also:" line below); by hand,
#   KSTAT_APPEND=possible_cpus=4096 SMP=8 make check T=irq-percpu-many-cpus
# (SMP=8 for its 4 GiB: 4096 CPUs' per-CPU areas take about 1 GiB).  In
# any other boot it skips, saying so.
# also: SMP=8 KSTAT_APPEND=possible_cpus=4096
# timeout: 300
source tests/lib.sh

require_cmd jq
possible=$(possible_cpus)
((possible > 3975)) ||
	t_skip "needs more than 3975 possible CPUs, the guest has $possible (KSTAT_APPEND=possible_cpus=4096 SMP=8)"
cpus=$(getconf _NPROCESSORS_ONLN)
t_log "$cpus online CPUs, $possible possible"

n=64
irqsim_load irqs=$n
t_cleanup irqsim_unload
for ((i = 0; i < n; i++)); do echo "$i $((i % cpus)) $((i + 1))"; done \
	>"$IRQSIM_DIR/fire"
read -r first last < <(awk 'NR == 1 { f = $2 } { l = $2 } END { print f, l }' \
	"$IRQSIM_DIR/irqs")
awk -v n="$cpus" '/kstat-sim/ { sub(":", "", $1); line = $1;
	for (c = 2; c <= n + 1; c++) line = line " " $c; print line }' \
	/proc/interrupts | sort -n >"$TMPDIR/proc"

failed=$(stat_of alloc_failures)

timeout "$(t_scaled 60)" "$KSTAT" -j monitor interval 250ms sections irq percpu on count 4 >"$TMPDIR/m" ||
	t_fail "no 4 samples with per-CPU counts within 60 s ($(wc -l <"$TMPDIR/m") arrived; alloc_failures $(stat_of alloc_failures))"
assert_eq "$failed" "$(stat_of alloc_failures)" "alloc_failures"
t_log "$(stat_of bytes) bytes sent in $(stat_of messages) messages so far"

jq -c "$T_PUSHED" "$TMPDIR/m" | tail -n 1 |
	jq -r --argjson f "$first" --argjson l "$last" \
	'.irq[] | select(.irq >= $f and .irq <= $l) |
	 "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' \
	>"$TMPDIR/sample"
percpu_match "$TMPDIR/proc" "$TMPDIR/sample" "$cpus" "$possible" "the last sample's per-CPU counts"
