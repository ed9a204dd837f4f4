#!/bin/bash
# Proves: a slow listener of the default stream with a tiny receive buffer
# sees its losses, exactly, and never a wrong count.  A 4 KiB buffer,
# 300 ms asleep after every read, samples every 20 ms, one sample per
# message (batch 1, a sample of this guest fits one part): the monitor
# reports overruns ("lost" lines), and between two samples it prints the
# seq advances by exactly 1 + the samples reported lost in between; the
# samples it reports lost are the producer's delivery_failures over that
# time (it is the only listener: every message that failed was its), and
# the kernel's drops for its socket (/proc/net/netlink) are those too,
# plus at most the odd nlctrl notification the same socket gets.  Its
# last sample's count of a synthetic IRQ is `kstat irq show`'s: every
# sample is whole, nothing needs repairing (protocol 5).
# timeout: 300
source tests/lib.sh
require_cmd jq python3
t_cleanup config_reset

irqsim_load irqs=64
t_cleanup irqsim_unload
irq=$(irqsim_irq 5)
irqsim_fire 5 0 11

"$KSTAT" config set interval 1000 batch 1 sections all percpu off
fails0=$(stat_of delivery_failures)

# 4 KiB socket buffer, 300 ms asleep after every read: it must overflow.
"$KSTAT" -j monitor rcvbuf 4096 delay 300ms >"$TMPDIR/slow" 2>"$TMPDIR/slow.err" &
mon=$!
t_cleanup t_kill $mon
first_pushed() { [[ -n $(jq -c "$T_PUSHED" "$TMPDIR/slow" 2>/dev/null) ]]; }
wait_until 10 first_pushed
"$KSTAT" config set interval 20
sleep 6
# Slow the producer down: the queue drains, and the next sample delivered
# shows any gap left.
"$KSTAT" config set interval 1000
t=$(boottime_ns)
monitor_wait 30 "$TMPDIR/slow" 2 "$t"

read -r drops socks <<<"$(python3 tests/helpers/nlsock.py "$mon" |
	awk '$5 != "00000000" { d += $6; n++ } END { print d + 0, n + 0 }')"
assert_eq 1 "$socks" "group sockets of the monitor"
fails=$(($(stat_of delivery_failures) - fails0))
kill -INT "$mon"
wait "$mon" || true
cat "$TMPDIR/slow.err" >&2

lost=$(jq -s '[.[] | select(.lost) | .lost] | add // 0' "$TMPDIR/slow")
reasons=$(jq -s -c '[.[] | select(.lost) | .reason] | group_by(.) | map({(.[0]): length}) | add // {}' "$TMPDIR/slow")
t_log "slow listener: $(jq -c "$T_PUSHED" "$TMPDIR/slow" | wc -l) samples, $lost lost (events by reason: $reasons)"
t_log "socket drops: $drops messages; producer delivery_failures: +$fails"
((lost > 0)) || t_fail "a 4 KiB buffer read every 300 ms at 20 ms samples reported no loss"
jq -s -e 'map(select(.lost)) | all(.reason == "overrun" or .reason == "gap")' "$TMPDIR/slow" >/dev/null ||
	t_fail "a loss of another reason than overrun or gap: $reasons"
assert_eq "$fails" "$lost" "samples reported lost vs the producer's delivery_failures"
# Exact: between two samples, seq advances by 1 + what was reported lost.
jq -s -e 'reduce (.[] | select(.from_get | not)) as $e ({ok: true, prev: null, lost: 0};
	if $e.lost != null then .lost += $e.lost
	elif $e.seq != null then
		(if .prev != null and $e.seq != .prev + 1 + .lost then .ok = false else . end)
		| .prev = $e.seq | .lost = 0
	else . end) | .ok' "$TMPDIR/slow" >/dev/null ||
	t_fail "seq advanced by other than 1 + the samples reported lost: $(jq -c 'if .seq != null then .seq else . end' "$TMPDIR/slow" | tr '\n' ' ' | head -c 400)"
# The socket also carries nlctrl's notifications (libkstat watches the
# family come and go): drops may count those too, never fewer.
((drops >= fails && drops - fails <= 2)) ||
	t_fail "socket drops $drops vs $fails failed samples: more than 2 apart"
last=$(jq -s --argjson q "$irq" '[.[] | select(.irq) | .irq[] | select(.irq == $q) | .count] | last' "$TMPDIR/slow")
assert_eq "$("$KSTAT" -j irq show "$irq" | jq '.[0].count')" "$last" "count of IRQ $irq in the last sample"
