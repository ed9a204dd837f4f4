#!/bin/bash
# Proves: a subscriber of its own that overruns (`kstat monitor interval
# 20ms sections irq rcvbuf 4096 delay 300ms count 60`: a 4 KiB socket
# buffer, a 300 ms pause after each read, a sample every 20 ms) reports
# its losses ("overrun") and gets its 60 samples in seconds: every sample
# is whole, nothing needs repairing (protocol 5: no resync).  Between two
# samples it prints the seq advances by exactly 1 + the samples reported
# lost, and the producer counts the messages it could not deliver
# (delivery_failures grew by at least those).  A second monitor of the
# same config, reading all along with a large buffer, loses nothing: one
# reader's overrun costs only that reader.
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat

fails0=$(stat_of delivery_failures)
"$KSTAT" -j monitor interval 20ms sections irq >"$TMPDIR/good" 2>"$TMPDIR/good.err" &
good=$!
t_cleanup t_kill $good
out=$TMPDIR/overrun
timeout -s INT "$(t_scaled 40)" "$KSTAT" -j monitor interval 20ms sections irq \
	rcvbuf 4096 delay 300ms count 60 >"$out" 2>"$out.err" || t_fail "monitor failed: $(cat "$out.err")"
fails=$(($(stat_of delivery_failures) - fails0))
t_term $good 5
t_log "$(jq -c "$T_SAMPLE" "$out" | wc -l) samples, losses: $(jq -s -c '[.[] | select(.lost) | [.lost, .reason]]' "$out")"
assert_eq 60 "$(jq -c "$T_SAMPLE" "$out" | wc -l)" "samples within 40 s, overruns and all"
jq -s -e 'any(.[]; .reason == "overrun")' "$out" >/dev/null || t_fail "no overrun reported"
jq -s -e 'reduce (.[] | select(.from_get | not)) as $e ({ok: true, prev: null, lost: 0};
	if $e.lost != null then .lost += $e.lost
	elif $e.seq != null then
		(if .prev != null and $e.seq != .prev + 1 + .lost then .ok = false else . end)
		| .prev = $e.seq | .lost = 0
	else . end) | .ok' "$out" >/dev/null ||
	t_fail "seq advanced by other than 1 + the samples reported lost"
lost=$(jq -s '[.[] | select(.lost) | .lost] | add // 0' "$out")
t_log "lost $lost, delivery_failures +$fails"
((fails >= lost)) || t_fail "the producer counted $fails delivery failures for $lost samples lost"

# The reader that kept up: consecutive seq, no loss line.
assert_eq 0 "$(jq -s '[.[] | select(.lost)] | length' "$TMPDIR/good")" "losses of the monitor that kept up"
jq -s -e '[.[] | '"$T_PUSHED"' | .seq] as $s | ($s | length) > 10 and
	all(range(1; $s | length); $s[.] == $s[. - 1] + 1)' "$TMPDIR/good" >/dev/null ||
	t_fail "the monitor that kept up has gaps: $(jq -c "$T_PUSHED | .seq" "$TMPDIR/good" | tr '\n' ' ' | head -c 300)"
