#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that summaries with per-CPU IRQ counts keep arriving on a machine
# with many possible CPUs (issue 26).  A dense per-CPU array is 4 bytes a
# CPU id, so from about 3,975 possible CPUs one IRQ's array no longer fit
# a 16 KiB summary part and every such sample was dropped
# (alloc_failures grew, nothing arrived).  Sparse records make an IRQ that
# fires on one CPU one word: samples arrive, alloc_failures stays, and
# every IRQ's array is as long as the possible CPU ids, with
# /proc/interrupts' counts where /proc has columns and 0 elsewhere.
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

"$KSTAT" config set interval 250 keyframe 2 batch 1 percpu on
t_cleanup config_reset
failed=$(jq -r .alloc_failures <<<"$("$KSTAT" -j stats)")

timeout "$(t_scaled 60)" "$KSTAT" -j monitor count 4 >"$TMPDIR/m" ||
	t_fail "no 4 samples with per-CPU counts within 60 s ($(wc -l <"$TMPDIR/m") arrived; alloc_failures $(jq -r .alloc_failures <<<"$("$KSTAT" -j stats)"))"
stats=$("$KSTAT" -j stats)
assert_eq "$failed" "$(jq -r .alloc_failures <<<"$stats")" "alloc_failures"
t_log "keyframe $(jq -r .keyframe_bytes <<<"$stats") bytes, delta $(jq -r .delta_bytes <<<"$stats")"

grep '"keyframe":true' "$TMPDIR/m" | tail -n 1 |
	jq -r --argjson f "$first" --argjson l "$last" \
	'.irq[] | select(.irq >= $f and .irq <= $l) |
	 "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' \
	>"$TMPDIR/sample"
awk -v n="$cpus" -v p="$possible" '
	NR == FNR { want[$1] = $0; next }
	{	seen++
		if (NF != p + 2) { print "IRQ " $1 ": " NF - 2 " per-CPU counts, not " p; bad = 1; next }
		line = $1
		for (c = 3; c < 3 + n; c++) line = line " " $c
		for (c = 3 + n; c <= NF; c++) if ($c != 0) { print "IRQ " $1 " CPU " c - 3 ": " $c; bad = 1 }
		if (line != want[$1]) { print "IRQ " $1 ": " line ", /proc: " want[$1]; bad = 1 }
	}
	END { if (seen != length(want)) { print seen " of " length(want) " IRQs"; bad = 1 }; exit bad }
' "$TMPDIR/proc" "$TMPDIR/sample" || t_fail "a keyframe's per-CPU counts differ from /proc (above)"
