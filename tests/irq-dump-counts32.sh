#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that a totals IRQ dump (IRQ_GET without attributes) carries its
# counts in 32 bits, exactly, and in one dumpit call (issue 26's cost
# goal), with 4096 synthetic IRQs fired affine, one preset to 2^32 - 1
# and one wrapped past 2^32:
#   - the whole dump comes in one read of a raw client whose earlier
#     read let the kernel make 32 KiB dump skbs (with 64-bit counts the
#     4116 IRQs took 33 KB: two dumpit calls, and a second lookup of
#     every IRQ for the consistency check);
#   - every chunk carries KSTAT_A_IRQS_COUNTS32, none KSTAT_A_IRQS_COUNTS
#     (a dump's counts are the kernel's 32-bit totals);
#   - each synthetic IRQ's count, decoded from the chunks by hand
#     (nlraw dump-counts) and through libkstat (irqdump 0), is the sum of
#     its /proc/interrupts columns modulo 2^32: 2^32 - 1 whole, the
#     wrapped one as /proc shows it;
#   - a summary keyframe still sends 64-bit counts for a chunk where a
#     running total passed 2^32, and libkstat reads it whole.
# timeout: 300
source tests/lib.sh
require_cmd jq
require_kstat
require_cpus 2
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10

n=4096
irqsim_load irqs=$n
t_cleanup irqsim_unload
cpus=$(getconf _NPROCESSORS_ONLN)
# Index i fires (i % 7) + 1 times on CPU i % cpus; 5 and 6 are preset.
for ((i = 0; i < n; i++)); do
	if ((i != 5 && i != 6)); then echo "$i $((i % cpus)) $((i % 7 + 1))"; fi
done >"$IRQSIM_DIR/fire"
irqsim_preset 5 0 $((2 ** 32 - 1))
irqsim_preset 6 1 $((2 ** 32 - 3))
irqsim_fire 6 0 10	# CPU0 10 + CPU1 2^32 - 3: the total wraps to 7
big=$(irqsim_irq 5)
wrap=$(irqsim_irq 6)

# /proc/interrupts' kstat-sim rows: "irq sum-of-columns mod 2^32".
awk -v n="$cpus" '/kstat-sim/ { sub(":", "", $1); s = 0;
	for (c = 2; c <= n + 1; c++) s += $c; printf "%s %.0f\n", $1, s % 4294967296 }' \
	/proc/interrupts | sort -n >"$TMPDIR/proc"
assert_eq "$n" "$(wc -l <"$TMPDIR/proc")" "kstat-sim rows in /proc/interrupts"
assert_eq "$big $((2 ** 32 - 1))" "$(grep "^$big " "$TMPDIR/proc")" "IRQ $big in /proc"
assert_eq "$wrap 7" "$(grep "^$wrap " "$TMPDIR/proc")" "IRQ $wrap in /proc (wrapped)"

# same FILE WHAT: FILE's "irq count" lines hold /proc's for every kstat-sim IRQ.
same() {
	local d
	d=$(join -j 1 -o 1.1,1.2,2.2 <(sort "$TMPDIR/proc") <(sort "$1") |
		awk '$2 != $3' | head -n 5)
	[[ -z $d ]] || t_fail "$2: counts differ from /proc/interrupts (irq proc kstat): $d"
	assert_eq "$n" "$(join -j 1 <(sort "$TMPDIR/proc") <(sort "$1") | wc -l)" \
		"$2: kstat-sim IRQs"
}

# ---- the raw client: the dump's shape, its counts decoded by hand ----
tests/tools/nlraw dump-counts >"$TMPDIR/raw" 2>"$TMPDIR/shape" ||
	t_fail "nlraw dump-counts failed: $(cat "$TMPDIR/shape")"
shape=$(cat "$TMPDIR/shape")
t_log "totals dump: $shape"
read -r _ reads _ chunks _ c32 _ c64 _ irqs _ <<<"$shape"
assert_eq 1 "$reads" "reads (dumpit calls) of a totals dump of $irqs IRQs"
assert_eq "$chunks" "$c32" "chunks with 32-bit counts"
assert_eq 0 "$c64" "chunks with 64-bit counts"
descs=(/sys/kernel/irq/*)
assert_eq "${#descs[@]}" "$irqs" "IRQs in the dump (descriptors)"
same "$TMPDIR/raw" "raw dump"

# ---- libkstat ----
assert_exit 0 tests/tools/irqdump 0
printf '%s\n' "$T_OUT" >"$TMPDIR/lib"
same "$TMPDIR/lib" "libkstat dump"

# ---- a keyframe past 2^32: 64-bit counts, read whole ----
"$KSTAT" config set interval 200 batch 1 keyframe 1
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 1
irqsim_fire 5 1 9	# 2^32 - 1 + 9: the running total passes 2^32
t=$(boottime_ns)
monitor_wait 30 "$TMPDIR/mon" 2 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
got=$(jq -c --argjson q "$big" 'select(.seq != null and .keyframe) | .irq[]? |
	select(.irq == $q) | .count' "$TMPDIR/mon" | tail -n 1)
assert_eq $((2 ** 32 + 8)) "$got" "IRQ $big in the last keyframe: 2^32 - 1 + 9"
