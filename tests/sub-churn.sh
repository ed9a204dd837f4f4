#!/bin/bash
# Proves: an unprivileged user who churns SUBSCRIBE cannot make the kernel
# collect, nor stall anyone's samples (issue "Safety first", point 3,
# re-expressed for protocol 5, where no SUBSCRIBE reads counters).  With
# 256 synthetic IRQs, root's monitor on the default stream (1000 ms) and
# uid 65533's subscription of its own at 250 ms (softirq) run while uid
# 65534, on one
# socket, SUBSCRIBEs as fast as it can, alternating two configurations
# (260 and 270 ms, irq), then cycling through eight.  The kernel's ticks
# (STATS) meanwhile are those of the finest interval anyone asked for,
# 250 ms, plus a few at the edges, whatever the churner's rate: the
# churner's own subscription (re-set by each SUBSCRIBE) rides on them.
# Both readers' samples keep to their schedule: none missing, and at most
# one gap (a host stall, as summary-storm.sh allows) longer than the
# interval + 25 %.
# Its kstat.ko paths (SUBSCRIBE replacing a subscription in place) are
# also sub-cycles.sh's; what it adds is the bound and the timing, so CI's
# debug stage leaves it out.
# leave-out: kernel-paths-covered
# timeout: 240
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py
as() { as_user "$@"; }

irqsim_load irqs=256
t_cleanup irqsim_unload
t_cleanup config_reset
"$KSTAT" config set interval 1000

"$KSTAT" -j monitor >"$TMPDIR/default" 2>"$TMPDIR/default.err" &
t_cleanup t_kill $!
as 65533 "$KSTAT" -j monitor interval 250ms sections softirq >"$TMPDIR/own" 2>"$TMPDIR/own.err" &
t_cleanup t_kill $!
monitor_wait 30 "$TMPDIR/default" 3
monitor_wait 30 "$TMPDIR/own" 3

secs=6
from=$(boottime_ns)
two=$(as 65534 python3 "$S" churn $secs interval=260,sections=2 interval=270,sections=2)
eight=$(as 65534 python3 "$S" churn $secs $(for ms in 260 270 280 290 300 310 320 330; do
	echo "interval=$ms,sections=2"; done))
to=$(boottime_ns)
t_log "two configurations: $two"
t_log "eight configurations: $eight"

# The producer ticks every 250 ms: secs * 4, + 2 for the edges.
bound=$((secs * 4 + 2))
for run in "$two" "$eight"; do
	n=$(jq .subscribes <<<"$run") ticks=$(jq .ticks <<<"$run")
	((n > 100)) || t_fail "the churner made only $n SUBSCRIBEs: not a churn ($run)"
	((ticks <= bound)) ||
		t_fail "$ticks ticks in ${secs} s for $n SUBSCRIBEs: more than the 250 ms reader's $bound"
	assert_eq "[0]" "$(jq -c '.errnos | keys | map(tonumber)' <<<"$run")" \
		"the churner's errnos (one subscription, replaced in place)"
done

# spacing FILE INTERVAL_MS: none missing and at most one gap longer than
# the interval + 25 %.
spacing() {
	local n long max gaps
	read -r n long max < <(monitor_long_gaps "$1" "$from" "$to" "$2" 25)
	read -r _ _ _ gaps < <(monitor_spacing "$1" "$from" "$to")
	t_log "$(basename "$1"): $n samples, $long gaps over ${2} ms + 25 % (longest $max ms), $gaps missing"
	((n >= 3 && gaps == 0 && long <= 1)) ||
		t_fail "$(basename "$1") off its ${2} ms interval during the churn: $long gaps over it + 25 % (longest $max ms), $gaps missing: $(monitor_times "$1" "$from" "$to")"
}
spacing "$TMPDIR/default" 1000
spacing "$TMPDIR/own" 250
