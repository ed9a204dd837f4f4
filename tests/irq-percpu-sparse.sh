#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that IRQs' per-CPU counts travel sparse (issue 26), with every
# synthetic IRQ firing on one CPU as most IRQs do on real machines:
#   - an IRQ dump with per-CPU counts (KSTAT_F_PERCPU alone) is within 2x
#     the bytes of a totals dump, where dense arrays took 4 bytes per CPU
#     per IRQ;
#   - with metadata too (a nest per IRQ), an IRQ's per-CPU counts cost at
#     most 24 bytes (a one-CPU IRQ's record with its length is 16), where
#     the dense array cost 4 + 4 bytes per CPU (this fails the old module
#     from 6 CPUs on: make check's 8-CPU boot);
#   - a summary keyframe with per-CPU counts is within 2x a totals-only
#     keyframe (kstat stats' keyframe_bytes, the same guest, one run);
#   - what libkstat makes of both (tests/tools/irqdump for the dump,
#     kstat irq show percpu for nests, kstat monitor for a keyframe) is
#     /proc/interrupts' per-CPU counts,
#     0 for every CPU /proc does not show, and the counts sum to the
#     IRQ's count.
# Meaningful from 2 CPUs; at 8 (make check's second boot) and with
# KSTAT_APPEND=possible_cpus=N, dense arrays cost far more.
# timeout: 300
# also: SMP=8
source tests/lib.sh

require_cmd jq
require_cpus 2
n=256
irqsim_load irqs=$n
t_cleanup irqsim_unload
"$KSTAT" config set interval 200 keyframe 1 batch 1 percpu off
t_cleanup config_reset

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

# ---- dumps ----
assert_exit 0 tests/tools/irqdump 1 "$first" "$last"
printf '%s\n' "$T_OUT" >"$TMPDIR/dump"
check_percpu "$TMPDIR/dump" "percpu dump"

tests/tools/nlraw record-dump irq 0 "$TMPDIR/totals.nl"
tests/tools/nlraw record-dump irq 1 "$TMPDIR/percpu.nl"
totals=$(stat -c %s "$TMPDIR/totals.nl")
percpu=$(stat -c %s "$TMPDIR/percpu.nl")
t_log "dump bytes: totals $totals, percpu $percpu ($possible possible CPUs)"
((percpu <= 2 * totals)) ||
	t_fail "percpu dump $percpu bytes > 2x the totals dump's $totals"

# ---- nests (with metadata) ----
assert_exit 0 "$KSTAT" -j irq show "$first-$last" percpu
jq -r '.[] | "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' \
	<<<"$T_OUT" >"$TMPDIR/nests"
check_percpu "$TMPDIR/nests" "percpu nests"
tests/tools/nlraw record-dump irq 2 "$TMPDIR/meta.nl"
tests/tools/nlraw record-dump irq 3 "$TMPDIR/meta-percpu.nl"
meta=$(stat -c %s "$TMPDIR/meta.nl")
metapc=$(stat -c %s "$TMPDIR/meta-percpu.nl")
nirqs=$(tests/tools/irqdump 0 | wc -l)
t_log "nest dump bytes: meta $meta, meta+percpu $metapc, $nirqs IRQs"
((metapc - meta <= 24 * nirqs)) ||
	t_fail "per-CPU counts in nests took $((metapc - meta)) bytes for $nirqs IRQs, over 24 each"

# ---- summary keyframes ----
keyframe_bytes() {
	"$KSTAT" -j monitor count 3 >"$TMPDIR/m" ||
		t_fail "kstat monitor failed"
	jq -r .keyframe_bytes <<<"$("$KSTAT" -j stats)"
}
ktot=$(keyframe_bytes)
"$KSTAT" config set percpu on
kpcpu=$(keyframe_bytes)
t_log "keyframe bytes: totals $ktot, percpu $kpcpu"
((kpcpu <= 2 * ktot)) ||
	t_fail "percpu keyframe $kpcpu bytes > 2x the totals keyframe's $ktot"

tail -n 1 "$TMPDIR/m" | jq -r --argjson f "$first" --argjson l "$last" \
	'.irq[] | select(.irq >= $f and .irq <= $l) |
	 "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' \
	>"$TMPDIR/sample"
check_percpu "$TMPDIR/sample" "percpu keyframe"
