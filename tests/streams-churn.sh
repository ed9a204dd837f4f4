#!/bin/bash
# Proves: an unprivileged user who churns streams cannot make the kernel
# collect without bound, nor stall anyone's samples (issue "Safety
# first", point 3).  With 4096 synthetic IRQs, root's monitor on the
# default stream (1000 ms) and uid 65533's own 250 ms stream run while
# uid 65534, on one socket, SUBSCRIBEs as fast as it can, first
# alternating two configurations, then cycling through eight.  Each new
# stream costs a collection: the kernel took at most max-streams (4) of
# them per floor (250 ms) for the churner, beside the readers' own
# ticks (STATS_GET ticks), whatever the churner's rate; the eight were
# refused with EBUSY beyond the 4 streams the user may hold.  Both
# readers' samples kept to their grid: none missing, and at most one (a
# host stall, as summary-storm.sh allows) more than 25 % of the interval
# after its slot (from the second sample: the first is SUBSCRIBE's
# snapshot).
# Its kstat.ko paths (the linger, the per-user count) are also those of
# streams-cycles.sh (members moving between streams and leaving) and
# streams-limits.sh; what it adds is the bound and timing, so CI's debug
# stage leaves it out.
# leave-out: kernel-paths-covered
# timeout: 240
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py
as() { as_user "$@"; }

irqsim_load irqs=4096
t_cleanup irqsim_unload
t_cleanup "$KSTAT" config set interval 1000
"$KSTAT" config set interval 1000

"$KSTAT" -j monitor >"$TMPDIR/default" 2>"$TMPDIR/default.err" &
t_cleanup t_kill $!
as 65533 "$KSTAT" -j monitor interval 250ms sections irq >"$TMPDIR/own" 2>"$TMPDIR/own.err" &
t_cleanup t_kill $!
monitor_wait 30 "$TMPDIR/default" 2
monitor_wait 30 "$TMPDIR/own" 2

secs=6
from=$(boottime_ns)
two=$(as 65534 python3 "$S" churn $secs interval=260,sections=2 interval=270,sections=2)
eight=$(as 65534 python3 "$S" churn $secs $(for ms in 260 270 280 290 300 310 320 330; do
	echo "interval=$ms,sections=2"; done))
to=$(boottime_ns)
t_log "two configurations: $two"
t_log "eight configurations: $eight"

# The readers tick at most secs / 0.25 + secs / 1 (+ 2 for the edges)
# times in each run; the churner's new streams at most 4 per 250 ms.
readers=$((secs * 4 + secs + 2))
churner=$((4 * (secs * 4 + 1)))
for run in "$two" "$eight"; do
	n=$(jq .subscribes <<<"$run") ticks=$(jq .ticks <<<"$run")
	((n > 100)) || t_fail "the churner made only $n SUBSCRIBEs: not a churn ($run)"
	((ticks <= readers + churner)) ||
		t_fail "$ticks collections in ${secs} s for $n SUBSCRIBEs: more than the readers' $readers and the churner's bound $churner"
done
assert_eq "[0,16]" "$(jq -c '.errnos | keys | map(tonumber) | sort' <<<"$eight")" \
	"the eight configurations' errnos (0, and EBUSY past 4 streams)"
assert_eq "[0]" "$(jq -c '.errnos | keys | map(tonumber)' <<<"$two")" \
	"the two configurations' errnos"

# spacing FILE INTERVAL_MS: from the second sample on, none missing and
# at most one more than 25 % of the interval after its grid slot.
spacing() {
	local second n late max gaps
	second=$(jq -s '[.[] | select(.seq != null)] | unique_by(.seq) | .[1].timestamp_ns' "$1")
	((second > from)) || second=$from
	read -r n late max < <(monitor_late "$1" "$second" "$to" "$2" 25)
	read -r _ _ _ gaps < <(monitor_spacing "$1" "$second" "$to")
	t_log "$(basename "$1"): $n samples, $late late by over 25 % (latest by $max ms), $gaps missing"
	((n >= 3 && gaps == 0 && late <= 1)) ||
		t_fail "$(basename "$1") stream off its ${2} ms grid during the churn: $late samples late by over 25 % (latest $max ms), $gaps missing: $(monitor_times "$1" "$second" "$to")"
}
spacing "$TMPDIR/default" 1000
spacing "$TMPDIR/own" 250
