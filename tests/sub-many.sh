#!/bin/bash
# Proves: many subscriptions at intervals off each other's grid are all
# served, side by side, without harm (issue "Safety first", point 1,
# re-expressed: the old module wrote past the array of one tick's streams
# and oopsed in kst_tick).  With root's monitor on the default stream, 24
# raw readers (tests/helpers/streams.py watch) each SUBSCRIBE with a config
# of their own, 250, 251, ... 273 ms of the IRQ section, 12 unprivileged
# (three users, four each) and 12 of root's, for 12 s.  The producer ticks
# every 250 ms (the finest); a reader is due at the tick nearest its own
# schedule (docs/protocol.md), so every reader gets its samples, with
# consecutive seq numbers, each gap within a tick of its interval (at most
# two off by more: one host stall), their mean gap the interval +- 10 %;
# the default stream too, and the kernel log stays clean (the harness
# scans it).
# timeout: 240
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py

irqsim_load irqs=256
t_cleanup irqsim_unload
"$KSTAT" -j monitor >"$TMPDIR/default" 2>/dev/null &
t_cleanup t_kill $!
monitor_wait 30 "$TMPDIR/default" 2

secs=12
tick=250
from=$(boottime_ns)
for g in 0 1 2 3; do	# three users of four, then root's twelve
	specs=()
	n=$((g < 3 ? 4 : 12))
	for ((k = 0; k < n; k++)); do specs+=("interval=$((250 + g * 4 + k)),sections=2"); done
	u=$((g < 3 ? 65534 - g : 0))
	as_user $u python3 "$S" watch $secs "${specs[@]}" >"$TMPDIR/w$g" 2>&1 &
done
wait $(jobs -p | tail -n 4) || true
to=$(boottime_ns)

# each reader: its spec, errno, samples, seqs missing, gaps off their
# interval by more than a tick (+ 25 % of one for the host), the interval
jq -s -r --argjson t "$tick" '.[] | .spec as $s | (.spec | capture("interval=(?<i>[0-9]+)").i | tonumber) as $i |
	(.samples | unique_by(.[0])) as $x |
	[range(1; $x | length) | ($x[.][1] - $x[. - 1][1]) / 1e6] as $d |
	"\($s) \(.err) \($x | length) \([range(1; $x | length) | $x[.][0] - $x[. - 1][0] - 1] | add // 0) \($d | map(select(. < $i - $t * 1.25 or . > $i + $t * 1.25)) | length) \(if ($d | length) > 0 then ($d | add / length | floor) else 0 end) \($i)"' \
	"$TMPDIR"/w0 "$TMPDIR"/w1 "$TMPDIR"/w2 "$TMPDIR"/w3 >"$TMPDIR/readers" ||
	t_fail "a reader failed: $(head -c 300 "$TMPDIR"/w*)"
assert_eq 24 "$(wc -l <"$TMPDIR/readers")" "readers that reported"
while read -r spec err n gaps off mean ms; do
	t_log "$spec: errno $err, $n samples, mean gap $mean ms, $gaps missing, $off gaps off by over a tick"
	((err == 0)) || t_fail "$spec: SUBSCRIBE errno $err"
	((n >= secs * 1000 / ms / 2)) || t_fail "$spec: $n samples in $secs s"
	((mean * 100 >= ms * 90 && mean * 100 <= ms * 110)) || t_fail "$spec: mean gap $mean ms"
	((gaps == 0)) || t_fail "$spec: $gaps samples missing"
	((off <= 2)) || t_fail "$spec: $off gaps off the interval by over a tick (a stall makes two)"
done <"$TMPDIR/readers"
read -r n _ _ gaps < <(monitor_spacing "$TMPDIR/default" "$from" "$to")
t_log "default stream: $n samples, $gaps missing"
((n >= secs - 2 && gaps == 0)) || t_fail "default stream: $n samples, $gaps missing"
