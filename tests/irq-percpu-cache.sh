#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that per-CPU dumps stay exact with kstat's record cache
# (kernel/irqrec.c): a dump takes an IRQ's one-CPU record from the cache,
# without reading that CPU's count, only while the IRQ has the same
# descriptor and the same total as when a read verified the record.
#   - 64 synthetic IRQs, IRQ i fired on CPU i mod 2: the first per-CPU
#     dump verifies and caches every record, the second takes them from
#     the cache; both are /proc/interrupts' counts;
#   - realloc frees every descriptor and allocates new ones, at the same
#     numbers; each is fired as often as before, on the other CPU.  Same
#     number, same total: a cache keyed on those, or on an address a new
#     descriptor could reuse (the cache pins the old ones, so none can),
#     would show the old CPU.  Two dumps are /proc's;
#   - each IRQ fired once more on CPU 0: the totals change, the records
#     are read again (two CPUs for half of them);
#   - the synthetic IRQs go and a dump visits their numbers, which lets
#     go of the old descriptors' pins.  On the debug kernel kmemleak
#     checks at unload that nothing pinned was lost, and KASAN that no
#     freed descriptor was read.
# What the cache saves is measured by make bench (kstat-bench percpu),
# not here.
# timeout: 240
source tests/lib.sh

require_cpus 2
cpus=$(getconf _NPROCESSORS_ONLN)
possible=$(possible_cpus)
n=64

irqsim_load irqs=$n
t_cleanup irqsim_unload
sim_irqs() { awk '{ print $2 }' "$IRQSIM_DIR/irqs" | tr '\n' ' '; }
read -r first last < <(awk 'NR == 1 { f = $2 } { l = $2 } END { print f, l }' \
	"$IRQSIM_DIR/irqs")

check_dump() {	# WHAT
	sim_proc_rows "$cpus" >"$TMPDIR/proc"
	assert_exit 0 tests/tools/irqdump 1 "$first" "$last"
	printf '%s\n' "$T_OUT" >"$TMPDIR/dump"
	percpu_match "$TMPDIR/proc" "$TMPDIR/dump" "$cpus" "$possible" "$1"
}

fire_all() {	# CPU_OFFSET [COUNT]: IRQ i on CPU (i + offset) mod 2
	local i
	for ((i = 0; i < n; i++)); do
		echo "$i $(((i + $1) % 2)) ${2:-$((i % 5 + 1))}"
	done >"$IRQSIM_DIR/fire"
}

fire_all 0
check_dump "first per-CPU dump (verifies, fills the cache)"
check_dump "second per-CPU dump (from the cache)"
assert_match "^$first " "$(head -n1 "$TMPDIR/dump")" "the dump starts at IRQ $first"

old=$(sim_irqs)
irqsim_realloc
[[ $(sim_irqs) == "$old" ]] ||
	t_skip "realloc gave other IRQ numbers ($old -> $(sim_irqs)): the case needs the same ones"
fire_all 1
check_dump "after realloc, the same totals on the other CPU"
check_dump "after realloc, again (from the cache)"

fire_all 0 1
check_dump "each IRQ fired once more on CPU 0"

irqsim_unload
assert_exit 0 tests/tools/irqdump 1 "$first" "$last"
assert_eq "" "$(awk -v f="$first" -v l="$last" '$1 >= f && $1 <= l' <<<"$T_OUT")" \
	"no synthetic IRQ in a dump after irqsim went"
