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
# readers' samples stayed within 25 % of their interval apart (from
# their second sample: the first is SUBSCRIBE's snapshot).
# timeout: 240
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py
NOCAPS=(--inh-caps=-all --bounding-set=-all --clear-groups)
as() {
	local u=$1
	shift
	setpriv --reuid "$u" --regid "$u" "${NOCAPS[@]}" -- "$@"
}

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

# spacing FILE INTERVAL_MS: every gap from the second sample on within 25 %.
spacing() {
	local gaps
	gaps=$(jq -s -c --argjson a "$from" --argjson b "$to" '
		[.[] | select(.seq != null)] | unique_by(.seq) | .[1:] |
		map(select(.timestamp_ns >= $a and .timestamp_ns <= $b)) |
		[range(1; length) as $i | (.[$i].timestamp_ns - .[$i - 1].timestamp_ns) / 1e6 | floor]' "$1")
	t_log "$1: gaps $gaps ms"
	jq -e --argjson i "$2" 'length >= 3 and all(. >= $i * 0.75 and . <= $i * 1.25)' \
		<<<"$gaps" >/dev/null ||
		t_fail "$(basename "$1") stream: samples not ${2} ms (+-25 %) apart during the churn: $gaps"
}
spacing "$TMPDIR/default" 1000
spacing "$TMPDIR/own" 250
