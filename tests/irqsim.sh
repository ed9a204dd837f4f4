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
#   - irqs=4096 makes 4096 rows, and unloading leaves no kstat-sim row;
#   - preset sets one CPU's column of an IRQ (past 2^31 too) and its total
#     in /proc/stat's intr line follows, wrapping at 2^32 when fired past
#     it; preset_softirq and preset_arch SPU set one CPU's column of
#     /proc/softirqs and /proc/interrupts; bad presets are rejected;
#   - realloc gives new descriptors with counts 0, the same names, as many
#     rows (the same numbers are logged, not required).
#
# Needs CPUs 0 and 1 online (SMP=2).
#
# It runs no kstat.ko code: CI's debug stage leaves it out (make check
# proves the helper on the same 6.1 code; rt and 6.12 on theirs).
# leave-out: no-kstat-code

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

# --- presets ------------------------------------------------------------------
# stat_irq IRQ: IRQ's total in /proc/stat's intr line (kstat_irqs_usr()).
stat_irq() {
	awk -v f="$(($1 + 3))" '$1 == "intr" { print $f }' /proc/stat
}
# softirq_col NAME CPU: NAME's column for CPU in /proc/softirqs.
softirq_col() {
	awk -v n="$1:" -v c="$(($2 + 2))" '$1 == n { print $c }' /proc/softirqs
}
# arch_col NAME CPU: the arch row NAME's column for CPU in /proc/interrupts.
arch_col() {
	awk -v n="$1:" -v c="$(($2 + 2))" '$1 == n { print $c }' /proc/interrupts
}
preset_raw() {
	(printf '%s\n' "$2" > "$IRQSIM_DIR/$1") 2> /dev/null
}

irqsim_preset 2 0 4294967290
snapshot
assert_eq 4294967290 "${COUNT[${IRQ[2]}:0]}" "index 2 on CPU0 after preset"
assert_eq 4294967290 "$(stat_irq "${IRQ[2]}")" "total of index 2 after preset"
irqsim_fire 2 0 10
irqsim_preset 2 1 7
snapshot
assert_eq 4 "${COUNT[${IRQ[2]}:0]}" "index 2 on CPU0, fired past 2^32"
assert_eq 7 "${COUNT[${IRQ[2]}:1]}" "index 2 on CPU1 after preset"
assert_eq 11 "$(stat_irq "${IRQ[2]}")" "total of index 2 (mod 2^32)"
assert_eq 0 "${SUM[${IRQ[3]}]}" "index 3 untouched by the presets"

v0=$(softirq_col IRQ_POLL 1)
irqsim_preset_softirq 5 1 4294967295
assert_eq 4294967295 "$(softirq_col IRQ_POLL 1)" "IRQ_POLL on CPU1 after preset_softirq"
irqsim_preset_softirq 5 1 "$v0"
assert_eq "$v0" "$(softirq_col IRQ_POLL 1)" "IRQ_POLL on CPU1 restored"
if [[ -e $IRQSIM_DIR/preset_arch ]]; then
	v0=$(arch_col SPU 0)
	irqsim_preset_arch SPU 0 4000000000
	assert_eq 4000000000 "$(arch_col SPU 0)" "SPU on CPU0 after preset_arch"
	irqsim_preset_arch SPU 0 "$v0"
	assert_eq "$v0" "$(arch_col SPU 0)" "SPU on CPU0 restored"
	assert_fail preset_raw preset_arch "LOC 0 1"	# not offered
	assert_fail preset_raw preset_arch "SPU 0"	# missing field
else
	t_log "no preset_arch (not x86)"
fi
assert_fail preset_raw preset "64 0 1"		# index out of range
assert_fail preset_raw preset "0 4096 1"	# CPU not online
assert_fail preset_raw preset "0 0 4294967296"	# value too large
assert_fail preset_raw preset "0 0"		# missing field
assert_fail preset_raw preset "banana"		# garbage
assert_fail preset_raw preset_softirq "10 0 1"	# no such vector

# --- realloc ----------------------------------------------------------------
old_irqs="${IRQ[*]}"
irqsim_realloc
read_irqs 64
snapshot
if [[ ${IRQ[*]} == "$old_irqs" ]]; then
	t_log "realloc: the same IRQ numbers ${IRQ[0]}..${IRQ[63]} came back"
else
	t_log "realloc: IRQ numbers changed: ${old_irqs// /,} -> ${IRQ[*]// /,}"
fi
assert_eq 64 "$NSIM" "kstat-sim rows after realloc"
for i in 0 2 5 63; do
	assert_eq 0 "${SUM[${IRQ[i]}]}" "index $i after realloc"
	assert_match "^dummy .*kstat-sim kstat-sim-$i\$" "${ROW[${IRQ[i]}]}" \
		"names on the row of index $i after realloc"
done
irqsim_fire 5 1 3
snapshot
assert_eq 3 "${COUNT[${IRQ[5]}:1]}" "index 5 on CPU1, fired after realloc"

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
