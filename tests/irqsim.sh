#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest test of the test helper module kstat_irqsim.ko itself: other tests
# trust its counts, so this one proves that
#   - firing IRQ <index> <count> times on <cpu> adds exactly <count> to that
#     CPU's column of that IRQ's /proc/interrupts row, and nothing elsewhere
#     (every other synthetic IRQ stays at 0);
#   - each row names the chip (dummy), the flow handler (kstat-sim) and the
#     action kstat-sim-<index>;
#   - the debugfs irqs file lists every index, also past one page (4096);
#   - the fire file rejects a bad index, an offline CPU, a bad count and
#     garbage, without firing anything;
#   - suffix=STR is appended to every action's name, and one longer than
#     16 bytes fails the load;
#   - irqs=4096 makes 4096 rows, and unloading leaves no kstat-sim row.
#
# Needs CPUs 0 and 1 online (SMP=2).

source tests/lib.sh

declare -a IRQ		# IRQ[index] = IRQ number
declare -A COUNT SUM ROW	# COUNT[irq:cpu], SUM[irq], ROW[irq]
NSIM=0

# read_irqs and snapshot parse a copy: bash's read seeks back after each
# line, and every seek of a seq_file regenerates it from the start, so
# reading the irqs file or /proc/interrupts in place takes quadratic time
# (over a minute for 4096 IRQs under TCG).

# read_irqs N: fill IRQ from the irqs file, which must list indexes 0..N-1.
read_irqs() {
	local idx irq n=0
	IRQ=()
	cat "$IRQSIM_DIR/irqs" > "$TMPDIR/irqs"
	while read -r idx irq; do
		[[ $idx == "$n" ]] ||
			t_fail "irqs file: line $((n + 1)) has index '$idx'"
		IRQ[idx]=$irq
		n=$((n + 1))
	done < "$TMPDIR/irqs"
	assert_eq "$1" "$n" "lines in the irqs file"
}

# snapshot: parse /proc/interrupts once (one awk per assertion is slow under
# TCG).  For each kstat-sim row: COUNT[irq:cpu] per online CPU, SUM[irq] over
# them, ROW[irq] = what follows the counts; NSIM = the number of such rows.
snapshot() {
	local -a cpus f
	local i irq
	COUNT=() SUM=() ROW=() NSIM=0
	cat /proc/interrupts > "$TMPDIR/interrupts"
	{
		read -r -a cpus
		while read -r -a f; do
			[[ ${f[*]} =~ \ kstat-sim-[0-9]+$ ]] || continue
			irq=${f[0]%:}
			SUM[$irq]=0
			for i in "${!cpus[@]}"; do
				COUNT[$irq:${cpus[i]#CPU}]=${f[i + 1]}
				SUM[$irq]=$((SUM[$irq] + f[i + 1]))
			done
			ROW[$irq]=${f[*]:${#cpus[@]} + 1}
			NSIM=$((NSIM + 1))
		done
	} < "$TMPDIR/interrupts"
}

# fire_raw STRING: write STRING as one write() to the fire file; fails if
# the write fails.
fire_raw() {
	(printf '%s\n' "$1" > "$IRQSIM_DIR/fire") 2> /dev/null
}

read -r header < /proc/interrupts
[[ " $header " == *" CPU0 "*" CPU1 "* ]] || t_skip "needs CPUs 0 and 1 online"

# --- 64 IRQs: exact per-CPU counts -----------------------------------------
irqsim_load irqs=64
t_cleanup irqsim_unload
read_irqs 64
assert_eq "${IRQ[0]}" "$(irqsim_irq 0)" "irqsim_irq 0"

irqsim_fire 0 0 5
irqsim_fire 0 1 7
irqsim_fire 63 1 1000
irqsim_fire 5 0 3
irqsim_fire 5 0 4	# counts add up
snapshot

assert_eq 64 "$NSIM" "kstat-sim rows with irqs=64"
assert_eq 5 "${COUNT[${IRQ[0]}:0]}" "index 0 on CPU0"
assert_eq 7 "${COUNT[${IRQ[0]}:1]}" "index 0 on CPU1"
assert_eq 12 "${SUM[${IRQ[0]}]}" "index 0 on all CPUs"
assert_eq 7 "${COUNT[${IRQ[5]}:0]}" "index 5 on CPU0"
assert_eq 7 "${SUM[${IRQ[5]}]}" "index 5 on all CPUs"
assert_eq 0 "${COUNT[${IRQ[63]}:0]}" "index 63 on CPU0"
assert_eq 1000 "${COUNT[${IRQ[63]}:1]}" "index 63 on CPU1"
assert_eq 1000 "${SUM[${IRQ[63]}]}" "index 63 on all CPUs"
for i in "${!IRQ[@]}"; do
	[[ " 0 5 63 " == *" $i "* ]] || assert_eq 0 "${SUM[${IRQ[i]}]}" "untouched index $i"
	assert_match "^dummy .*kstat-sim kstat-sim-$i\$" "${ROW[${IRQ[i]}]}" \
		"names on the row of index $i"
done

# --- bad fire commands ------------------------------------------------------
assert_fail fire_raw "64 0 1"		# index out of range
assert_fail fire_raw "0 4096 1"		# CPU not online
assert_fail fire_raw "0 0 0"		# count too small
assert_fail fire_raw "0 0 1000001"	# count too large
assert_fail fire_raw "0 0"		# missing field
assert_fail fire_raw "0 0 1 1"		# extra field
assert_fail fire_raw "-1 0 1"		# negative
assert_fail fire_raw "0 0 0x10"		# not decimal
assert_fail fire_raw "banana"		# garbage
snapshot
assert_eq 12 "${SUM[${IRQ[0]}]}" "index 0 after the rejected writes"

irqsim_unload
snapshot
assert_eq 0 "$NSIM" "kstat-sim rows after unload"

# --- suffix -----------------------------------------------------------------
irqsim_load irqs=2 $'suffix=-"q\\'
assert_match ' kstat-sim-1-"q\\$' "$(cat /proc/interrupts)" "row of index 1 with a suffix"
irqsim_unload
assert_fail insmod "$IRQSIM_KO" suffix=12345678901234567
if irqsim_loaded; then t_fail "irqsim loaded with a 17-byte suffix"; fi

# --- 4096 IRQs --------------------------------------------------------------
irqsim_load irqs=4096
read_irqs 4096
irqsim_fire 4095 1 3
snapshot
assert_eq 4096 "$NSIM" "kstat-sim rows with irqs=4096"
assert_eq 3 "${COUNT[${IRQ[4095]}:1]}" "index 4095 on CPU1"
assert_eq 3 "${SUM[${IRQ[4095]}]}" "index 4095 on all CPUs"
assert_eq 0 "${SUM[${IRQ[4094]}]}" "index 4094"

irqsim_unload
snapshot
assert_eq 0 "$NSIM" "kstat-sim rows after the last unload"
