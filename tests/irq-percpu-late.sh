#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that per-CPU IRQ counts stay right for IRQs numbered past the
# nr_irqs kstat.ko saw at its first per-CPU read.  The kernel grows
# nr_irqs as IRQs are allocated (x86 sizes it at boot for 8 IRQs a CPU
# and the IO-APICs' pins), and kstat's per-CPU read hints, one per IRQ
# number, grow with it (8ef650a's table was sized once, at load, so every
# later IRQ took a read of every possible CPU).  Here:
#   - a per-CPU dump first sizes the hints; then synthetic IRQs are
#     allocated until nr_irqs grows past that size;
#   - each fires on one CPU: two per-CPU dumps in a row (the first
#     learns each IRQ's CPU, the second reads that CPU and the total)
#     are /proc/interrupts' counts;
#   - each fires on the next CPU too, so every hint is stale: the dump
#     and a per-CPU summary sample are /proc's again.
# What the hints save is measured by make bench (kstat-bench percpu),
# not here.  Run in make check-debug too: the table is replaced under
# RCU while the producer and dumps read it.
# timeout: 300
source tests/lib.sh

require_cmd jq
require_cpus 2
cpus=$(getconf _NPROCESSORS_ONLN)
possible=$(possible_cpus)

assert_exit 0 tests/tools/irqdump 1
before=$(tests/tools/irqdump nr)
descs=$(ls /sys/kernel/irq | wc -l)
# Free numbers below nr_irqs are taken first: 64 past them.
n=$((before - descs + 64))
((n <= 8192)) || t_skip "nr_irqs is $before: $n synthetic IRQs would be past irqsim's 8192"
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
check_dump "first per-CPU dump"
check_dump "second per-CPU dump (hinted)"

for ((i = 0; i < n; i++)); do echo "$i $(((i + 1) % cpus)) 1"; done \
	>"$IRQSIM_DIR/fire"
check_dump "per-CPU dump after each IRQ fired on another CPU"

assert_exit 0 "$KSTAT" -j monitor interval 250 sections irq percpu on count 1
jq -r --argjson f "$first" --argjson l "$last" \
	'.irq[] | select(.irq >= $f and .irq <= $l) |
	 "\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' \
	<<<"$T_OUT" >"$TMPDIR/sample"
percpu_match "$TMPDIR/proc" "$TMPDIR/sample" "$cpus" "$possible" \
	"per-CPU summary sample"
