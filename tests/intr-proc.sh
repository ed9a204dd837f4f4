#!/bin/bash
# Proves: kstat's "intr" total (the dump's and a summary's) is /proc/stat's
# on this kernel, hypervisor rows included.  kstat_irqsim fast-forwards
# the Hyper-V rows HYP, HRE and HVS (nothing else counts them in a QEMU
# guest) by a million each: 6.5 and later add them to /proc/stat's
# "intr", 6.1 does not, and kstat must follow (on 6.12 it left them out).
# Both are read between two reads of /proc: kstat's total lies between
# them, less the rows kstat cannot read (ERR, MIS, MCE, MCP).
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat

irqsim_load irqs=1
t_cleanup irqsim_unload
[[ -e $IRQSIM_DIR/preset_arch ]] || t_skip "kstat_irqsim has no preset_arch (not x86)"

proc_intr() { awk '$1 == "intr" { print $2; exit }' /proc/stat; }
# The /proc/interrupts rows kstat leaves out, summed.
unread() {
	awk 'NR == 1 { ncpu = NF; next }
		$1 ~ /^(ERR|MIS):$/ { s += $2 }
		$1 ~ /^(MCE|MCP):$/ { for (i = 2; i <= ncpu + 1; i++) s += $i }
		END { printf "%.0f\n", s }' /proc/interrupts
}
# CPU 0's count of arch row NAME (kstat shows these rows once non-zero).
cpu0_count() {
	"$KSTAT" interrupts | awk -v n="$1:" '$1 == n { v = $2 } END { print v + 0 }'
}

rows=()
restore_row() { irqsim_preset_arch "$1" 0 "$2"; }
# kstat.ko's 64-bit totals live as long as the module: the rows put back
# (below) would count as nearly 2^32 more events, so reload it after.
t_cleanup kstat_load
for row in HYP HRE HVS; do
	v=$(cpu0_count "$row")
	# kstat_irqsim offers the rows this kernel has
	echo "$row 0 $((v + 1000000))" 2>/dev/null >"$IRQSIM_DIR/preset_arch" || continue
	rows+=("$row")
	t_cleanup restore_row "$row" "$v"
done
((${#rows[@]})) || t_skip "this kernel has none of the HYP, HRE, HVS rows"
t_log "fast-forwarded ${rows[*]} by 1000000 each on CPU 0 ($(uname -r))"

# bracket WHAT P1 E1 K P2 E2: P1 - E2 <= K <= P2 - E1.
bracket() {
	t_log "$1: /proc/stat $2 .. $5, unread $3 .. $6, kstat $4"
	(($2 - $6 <= $4 && $4 <= $5 - $3)) ||
		t_fail "$1: kstat's intr $4 is not /proc/stat's ($2 .. $5, less $3 .. $6 unread): off by $(($4 - $2 + $3))"
}

p1=$(proc_intr) e1=$(unread)
k=$("$KSTAT" stat | awk '$1 == "intr" { print $2; exit }')
p2=$(proc_intr) e2=$(unread)
bracket "dump" "$p1" "$e1" "$k" "$p2" "$e2"

p1=$(proc_intr) e1=$(unread)
timeout -s INT "$(t_scaled 20)" "$KSTAT" -j monitor interval 250ms sections irq count 2 >"$TMPDIR/mon"
p2=$(proc_intr) e2=$(unread)
k=$(jq -r "$T_PUSHED | .intr" "$TMPDIR/mon" | head -n 1)
[[ -n $k ]] || t_fail "no summary sample"
bracket "summary" "$p1" "$e1" "$k" "$p2" "$e2"
