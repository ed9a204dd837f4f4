#!/bin/bash
# Proves: `kstat export prometheus --textfile PATH --interval 300ms` reads
# a subscription of its own while the admin's default stream samples every
# 1000 ms: the file says kstat_exporter_interval_seconds 0.300, `kstat -j
# stats` counts one subscription, and kstat_exporter_samples_total grows
# at that cadence (at least 2 samples a second over 3 s or more, where the
# default stream gives 1), with the IRQ metrics there.  An admin's `config
# set sections cpu` then takes no family from it (issue 38: the exporter
# whose unit followed the default stream lost every IRQ and softirq
# family, with up still 1).
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup config_reset
"$KSTAT" config set interval 1000 sections all

file=$TMPDIR/export-own.prom
rm -f "$file"
"$KSTAT" export prometheus --textfile "$file" --interval 300ms 2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
up() { grep -qx 'kstat_exporter_up 1' "$file" 2>/dev/null; }
wait_until 60 up

metric() { awk -v m="$1" '$1 == m { print $2 }' "$file"; }
assert_eq 0.300 "$(metric kstat_exporter_interval_seconds)" "the exporter's interval"
assert_eq 1 "$(stat_of subscriptions)" "subscriptions (the exporter's)"

"$KSTAT" config set sections cpu	# the default stream's only
start=${EPOCHREALTIME/./}
n0=$(metric kstat_exporter_samples_total)
sleep 3
n1=$(metric kstat_exporter_samples_total)
ms=$(( (${EPOCHREALTIME/./} - start) / 1000 ))
t_log "$((n1 - n0)) samples in $ms ms"
(( (n1 - n0) * 1000 >= 2 * ms )) ||
	t_fail "$((n1 - n0)) samples in $ms ms: not the 300 ms subscription's cadence"
for family in kstat_interrupts_total kstat_softirqs_total kstat_cpu_seconds_total; do
	grep -q "^$family{" "$file" || t_fail "$family went with the admin's sections cpu"
done
t_term $pid 10
assert_eq 0 "$T_RC" "exit status after SIGTERM"
