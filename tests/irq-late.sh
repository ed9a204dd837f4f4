#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that counts stay right for IRQs numbered past the nr_irqs
# kstat.ko saw at its first reading.  The kernel grows nr_irqs as IRQs
# are allocated (x86 sizes it at boot for 8 IRQs a CPU and the IO-APICs'
# pins), and kstat's table of 64-bit counts by descriptor identity grows
# with it (docs/protocol.md, "Counts: 64-bit, by identity").  Here:
#   - a reading of every IRQ sizes the table (a fresh module); then
#     synthetic IRQs are allocated until nr_irqs grows past it;
#   - each fires on one CPU: a GET with per-CPU counts (libkstat,
#     irqdump) and a sample of a subscription with per-CPU counts are
#     /proc/interrupts' counts, and each IRQ's per-CPU counts sum to its
#     count;
#   - each fires again, one of them past 2^32 on CPU 0 (preset to 2^32 -
#     1, then 2 more): the next GET says exactly what /proc says, plus
#     2^32 for that one.
# Run in make check-debug too: the table grows (and is copied) while the
# producer reads it.
# timeout: 300
source tests/lib.sh

require_cmd jq
require_cpus 2
cpus=$(getconf _NPROCESSORS_ONLN)
possible=$(possible_cpus)

kstat_load
assert_exit 0 tests/tools/irqdump 1
before=$(tests/tools/irqdump nr)
descs=$(ls /sys/kernel/irq | wc -l)
# Free numbers below nr_irqs are taken first: 64 past them.
n=$((before - descs + 64))
((n <= 8192)) || t_skip "nr_irqs is $before: $n synthetic IRQs would be past irqsim's 8192"
# A subscription reading every tick while the IRQs come (its thousands
# of IRQs a sample are not kept: only the readings matter here).
"$KSTAT" -j monitor interval 250ms sections irq >/dev/null 2>"$TMPDIR/mon.err" &
t_cleanup t_kill $!
irqsim_load irqs=$n
t_cleanup irqsim_unload
after=$(tests/tools/irqdump nr)
read -r first last < <(awk 'NR == 1 { f = $2 } { l = $2 } END { print f, l }' \
	"$IRQSIM_DIR/irqs")
t_log "nr_irqs $before -> $after; $n synthetic IRQs $first-$last; $cpus CPUs online, $possible possible"
((after > before && last >= before)) ||
	t_fail "nr_irqs did not grow past $before (now $after, last IRQ $last)"

check_dump() {	# WHAT
	sim_proc_rows "$cpus" >"$TMPDIR/proc"
	assert_exit 0 tests/tools/irqdump 1 "$first" "$last"
	printf '%s\n' "$T_OUT" >"$TMPDIR/dump"
	percpu_match "$TMPDIR/proc" "$TMPDIR/dump" "$cpus" "$possible" "$1"
}

for ((i = 0; i < n; i++)); do echo "$i $((i % cpus)) $((i % 5 + 1))"; done \
	>"$IRQSIM_DIR/fire"
check_dump "per-CPU GET"
assert_ok timeout "$(t_scaled 60)" "$KSTAT" -j monitor interval 250ms sections irq percpu on count 2
jq -c "$T_PUSHED" <<<"$T_OUT" | jq -r --argjson f "$first" --argjson l "$last" \
	'.irq[] | select(.irq >= $f and .irq <= $l) |
	 "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' >"$TMPDIR/sample"
percpu_match "$TMPDIR/proc" "$TMPDIR/sample" "$cpus" "$possible" "per-CPU sample"

# Past 2^32 for the last one: its 64-bit count goes on, /proc's wraps.
irqsim_preset $((n - 1)) 0 $((2 ** 32 - 1))
assert_exit 0 tests/tools/irqdump 0 "$last" "$last"
t_log "IRQ $last at 2^32 - 1 on CPU 0: $T_OUT"
for ((i = 0; i < n; i++)); do echo "$i $(((i + 1) % cpus)) 2"; done \
	>"$IRQSIM_DIR/fire"
irqsim_fire $((n - 1)) 0 2	# CPU 0 wraps: 2^32 - 1 + 2
sim_proc_rows "$cpus" | awk -v l="$last" '{ s = 0; for (c = 2; c <= NF; c++) s += $c
	if ($1 == l) s += 4294967296; printf "%s %.0f\n", $1, s }' >"$TMPDIR/want"
assert_exit 0 tests/tools/irqdump 0 "$first" "$last"
printf '%s\n' "$T_OUT" >"$TMPDIR/got"
d=$(diff "$TMPDIR/want" "$TMPDIR/got" | head -n 6) || true
[[ -z $d ]] || t_fail "totals after the second firing differ from /proc (+2^32 for IRQ $last): $d"
