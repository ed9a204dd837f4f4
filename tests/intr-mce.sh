#!/bin/bash
# Proves: the machine-check and error rows of /proc/interrupts (x86's
# MCE, MCP, ERR, MIS) are never silently missing from kstat (issue
# "Safety first", point 5).  The kernel exports none of their counters to
# modules, so kstat.ko as a module names them in every IRQ dump:
# `kstat stat` and `kstat interrupts` say so on stderr, the exporter
# serves kstat_arch_interrupts_unread{type=...} 1 for each, and kstat's
# intr is /proc/stat's less exactly those rows.  The machine-check poll
# interval is set to 1 s (check_interval) so that MCP moves under QEMU as
# polls do on hardware (every 300 s per CPU by default): from 1 to 7 per
# CPU in 6 s here.  Built into the kernel (CONFIG_KSTAT=y), kstat reads
# the rows instead; then its MCP row and intr must bracket /proc's.
# timeout: 120
source tests/lib.sh
require_kstat
[[ -e /sys/devices/system/machinecheck/machinecheck0/check_interval ]] ||
	t_skip "no machine-check polling here (/sys/devices/system/machinecheck)"

restore() { for c in /sys/devices/system/machinecheck/machinecheck*/check_interval; do echo "$1" >"$c"; done; }
old=$(cat /sys/devices/system/machinecheck/machinecheck0/check_interval)
t_cleanup restore "$old"
restore 1
mcp() { awk '$1 == "MCP:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }
mcp_above() { (($(mcp) > $1)); }
m0=$(mcp)
wait_until 30 mcp_above "$m0"
t_log "MCP on /proc/interrupts: $m0 -> $(mcp) with check_interval 1"

proc_intr() { awk '$1 == "intr" { print $2; exit }' /proc/stat; }
# /proc's MCE, MCP and ERR, summed: what /proc/stat's intr counts of them.
in_intr() {
	awk 'NR == 1 { ncpu = NF; next }
		$1 == "ERR:" { s += $2 }
		$1 ~ /^(MCE|MCP):$/ { for (i = 2; i <= ncpu + 1; i++) s += $i }
		END { printf "%.0f\n", s }' /proc/interrupts
}

p1=$(proc_intr) e1=$(in_intr)
assert_ok "$KSTAT" stat
p2=$(proc_intr) e2=$(in_intr)
k=$(awk '$1 == "intr" { print $2; exit }' <<<"$T_OUT")
t_log "intr: /proc/stat $p1 .. $p2, its MCE+MCP+ERR $e1 .. $e2, kstat $k"

if [[ $T_ERR == *"cannot read the"* ]]; then
	# a module: the rows named, intr short by exactly them
	assert_match '^kstat: note: this kstat.ko cannot read the MCE MCP ERR MIS rows of /proc/interrupts' \
		"$T_ERR" "kstat stat's note"
	((p1 - e2 <= k && k <= p2 - e1)) ||
		t_fail "kstat's intr $k is not /proc/stat's less MCE, MCP and ERR ($p1 - $e2 .. $p2 - $e1)"
	assert_ok "$KSTAT" interrupts
	assert_match 'cannot read the MCE MCP ERR MIS rows' "$T_ERR" "kstat interrupts' note"
	assert_no_match '^ *MCP:' "$T_OUT" "kstat interrupts prints no MCP row it cannot read"
	dir=$TMPDIR/mce.prom.d
	mkdir -p "$dir"
	t_cleanup rm -rf "$dir"
	"$KSTAT" export prometheus --textfile "$dir/k.prom" 2>/dev/null &
	t_cleanup t_kill $!
	wait_until 30 grep -q '^kstat_intr_total ' "$dir/k.prom"
	for row in MCE MCP ERR MIS; do
		assert_match "^kstat_arch_interrupts_unread\\{type=\"$row\"\\} 1$" "$(cat "$dir/k.prom")" \
			"the exporter's unread $row"
	done
else
	# built in: the rows read, intr whole
	((p1 <= k && k <= p2)) || t_fail "kstat's intr $k is not within /proc/stat's $p1 .. $p2"
	a=$(mcp)
	kmcp=$("$KSTAT" interrupts | awk '$1 == "MCP:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }')
	b=$(mcp)
	t_log "MCP: /proc $a .. $b, kstat $kmcp"
	((a <= kmcp && kmcp <= b && kmcp > m0)) || t_fail "kstat's MCP $kmcp is not /proc's ($a .. $b)"
fi
