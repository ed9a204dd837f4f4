#!/bin/bash
# Proves: many streams of readers' own, at intervals off each other's grid,
# tick side by side without harm (issue "Safety first", point 1: the
# kernel wrote past the array of one tick's streams when more became due
# while it was allocated, then oopsed in kst_tick).  With root's monitor
# on the default stream, 24 raw readers (tests/helpers/streams.py watch)
# each SUBSCRIBE to a stream of its own, 250, 251, ... 273 ms of the IRQ
# section: 12 unprivileged (three users, four streams each, the
# per-user limit) and 12 of root's, for 12 s.  Every stream sends its
# samples, none missing, each within half an interval of the interval
# after the one before (a stream starting off the shared grid moves onto
# it by up to a quarter of an interval a tick; one host stall allowed,
# as summary-storm.sh does), and the kernel log stays clean (the harness
# scans it).  The old module oopsed within seconds
# (`BUG: kernel NULL pointer dereference`, `RIP: kst_tick+0x123`): with
# the issue's twelve CLI monitors over 4096 IRQs on 4 CPUs, and with 24
# on 2.
# timeout: 240
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py

irqsim_load irqs=256
t_cleanup irqsim_unload
"$KSTAT" -j monitor >"$TMPDIR/default" 2>/dev/null &
t_cleanup t_kill $!
monitor_wait 30 "$TMPDIR/default" 1

secs=12
from=$(boottime_ns)
for g in 0 1 2 3; do	# three users of four streams, then root's twelve
	specs=()
	n=$((g < 3 ? 4 : 12))
	for ((k = 0; k < n; k++)); do specs+=("interval=$((250 + g * 4 + k)),sections=2"); done
	u=$((g < 3 ? 65534 - g : 0))
	as_user $u python3 "$S" watch $secs "${specs[@]}" >"$TMPDIR/w$g" 2>&1 &
done
wait $(jobs -p | tail -n 4) || true
to=$(boottime_ns)

# each reader: its spec, errno, samples, seqs missing, gaps off by over
# half an interval, the interval
jq -s -r '.[] | .spec as $s | (.spec | capture("interval=(?<i>[0-9]+)").i | tonumber) as $i |
	(.samples | unique_by(.[0]) | .[1:]) as $x |
	[range(1; $x | length) | ($x[.][1] - $x[. - 1][1]) / 1e6] as $d |
	"\($s) \(.err) \($x | length) \([range(1; $x | length) | $x[.][0] - $x[. - 1][0] - 1] | add // 0) \($d | map(select(. < $i / 2 or . > $i * 1.5)) | length) \($i)"' \
	"$TMPDIR"/w0 "$TMPDIR"/w1 "$TMPDIR"/w2 "$TMPDIR"/w3 >"$TMPDIR/streams" ||
	t_fail "a reader failed: $(head -c 300 "$TMPDIR"/w*)"
assert_eq 24 "$(wc -l <"$TMPDIR/streams")" "readers that reported"
while read -r spec err n gaps off ms; do
	t_log "$spec: errno $err, $n samples, $gaps missing, $off gaps off by over half an interval"
	((err == 0)) || t_fail "$spec: SUBSCRIBE errno $err"
	((n >= secs * 1000 / ms - 3)) || t_fail "$spec: $n samples in $secs s"
	((gaps == 0)) || t_fail "$spec: $gaps samples missing"
	((off <= 2)) || t_fail "$spec: $off gaps off the interval by over half of it (a stall makes two)"
done <"$TMPDIR/streams"
read -r n _ _ gaps < <(monitor_spacing "$TMPDIR/default" "$from" "$to")
t_log "default stream: $n samples, $gaps missing"
((n >= secs - 2 && gaps == 0)) || t_fail "default stream: $n samples, $gaps missing"
