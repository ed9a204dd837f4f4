#!/bin/bash
# Proves: readers see CPUs go offline and come back (libkstat.h: a
# sample's generation "changes with the IRQ set or the online CPUs";
# docs/protocol.md: per-CPU rows are the online CPUs').  With CPU 1 taken
# offline: `kstat cpu show` has no row of CPU 1 (and CPU 0's), and a
# subscription's sample carries another generation than before; with CPU 1
# back, its row is back and the generation changes again.  The IRQ set
# stays the same meanwhile (no synthetic IRQ comes or goes), so the CPUs
# are what changed it.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
require_cpus 2
online=/sys/devices/system/cpu/cpu1/online
[[ -w $online ]] || t_skip "CPU 1 cannot be taken offline here (no $online)"

cpu_rows() { "$KSTAT" -j cpu show | jq -c '[.[].cpu | select(. != null)]'; }
generation() {
	"$KSTAT" -j monitor interval 250ms sections irq,cpu percpu on count 2 |
		jq -s "[.[] | $T_PUSHED][0].generation"
}
put_back() { echo 1 >"$online"; }
t_cleanup put_back

g0=$(generation)
rows0=$(cpu_rows)
assert_match '^\[0,1(,[0-9]+)*\]$' "$rows0" "cpu show's rows with CPU 1 online"
echo 0 >"$online"
rows1=$(cpu_rows)
g1=$(generation)
echo 1 >"$online"
wait_until 10 grep -qx 1 "$online"
rows2=$(cpu_rows)
g2=$(generation)
t_log "rows $rows0 -> $rows1 -> $rows2; generation $g0 -> $g1 -> $g2"
assert_match '^\[0(,([2-9]|[1-9][0-9]+))*\]$' "$rows1" "cpu show's rows with CPU 1 offline"
assert_eq "$rows0" "$rows2" "cpu show's rows with CPU 1 back"
assert_ne "$g0" "$g1" "the generation once CPU 1 went offline"
assert_ne "$g1" "$g2" "the generation once CPU 1 came back"
