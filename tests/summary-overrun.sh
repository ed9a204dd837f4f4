#!/bin/bash
# Proves: a slow subscriber with a tiny receive buffer sees its losses,
# never a silently wrong count: lost events appear, every sample delivered
# after a loss starts from a keyframe, seq never jumps without a loss
# report, and the counts it applies still equal `kstat irq show` after the
# resync.  And the loss is counted exactly: with one message per batch and
# one sample per batch, between two samples delivered the seq advances by
# exactly 1 + the samples reported lost in between.  Each overrun makes
# libkstat SUBSCRIBE again, and the snapshot gives back the latest sample
# even when its multicast was dropped: so the samples reported lost are
# at most the producer's delivery_failures (messages some listener
# missed, which libkstat's NETLINK_BROADCAST_ERROR makes the kernel
# report; it is the only listener), and every failure is a loss or a
# sample that came back in a snapshot, one per repair at most (a repair
# follows each loss event).  The kernel's Drops for the socket
# (/proc/net/netlink, one per skb netlink_overrun() could not queue) are
# the failed summaries, plus the odd nlctrl notification or SUBSCRIBE
# answer (a snapshot, an error) the same socket receives: at most 2, and
# one per repair.
# timeout: 300
source tests/lib.sh
require_cmd jq python3
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10

# samples_after T: samples the slow monitor printed, taken after T (ns).
samples_after() {
	jq -s --argjson t "$1" '[.[] | select(.seq and .timestamp_ns > $t)] | length' \
		"$TMPDIR/slow" 2>/dev/null || echo 0
}

irqsim_load irqs=64
t_cleanup irqsim_unload
irq=$(irqsim_irq 5)
irqsim_fire 5 0 11

# One part per batch and one sample per batch: then a dropped message is
# exactly one lost sample.  The monitor joins at a slow pace: a multicast
# that came between its join and its SUBSCRIBE's snapshot would be a drop
# that loses no sample (the snapshot holds it).
"$KSTAT" config set interval 1000 batch 1 keyframe 5 sections all percpu off
fails0=$("$KSTAT" -j stats | jq .delivery_failures)

# 4 KiB socket buffer, 300 ms asleep after every read: it must overflow.
"$KSTAT" -j monitor rcvbuf 4096 delay 300 >"$TMPDIR/slow" 2>"$TMPDIR/slow.err" &
mon=$!
stop_mon() { kill "$mon" 2>/dev/null || true; }
t_cleanup stop_mon
first_sample() { grep -q '"seq"' "$TMPDIR/slow"; }
wait_until 10 first_sample
"$KSTAT" config set interval 20
sleep 6

# Slow the producer down and make every sample a keyframe: the queue
# drains, and the next sample delivered reveals any gap left.
"$KSTAT" config set interval 1000 keyframe 1
t=$(boottime_ns)
two_after() { (($(samples_after "$t") >= 2)); }
wait_until 30 two_after

read -r drops socks <<<"$(python3 tests/helpers/nlsock.py "$mon" |
	awk '$5 != "00000000" { d += $6; n++ } END { print d + 0, n + 0 }')"
assert_eq 1 "$socks" "group sockets of the monitor"
fails=$(($("$KSTAT" -j stats | jq .delivery_failures) - fails0))
keybytes=$("$KSTAT" -j stats | jq .keyframe_bytes)
((keybytes < 16000)) || t_fail "a keyframe of $keybytes bytes needs several parts"
kill -INT "$mon"
wait "$mon"

lost=$(jq -s '[.[] | select(.lost) | .lost] | add // 0' "$TMPDIR/slow")
reasons=$(jq -s -c '[.[] | select(.lost) | .reason] | group_by(.) |
	map({(.[0]): length}) | add // {}' "$TMPDIR/slow")
t_log "slow subscriber: $(grep -c '"seq"' "$TMPDIR/slow") samples, $lost lost (events by reason: $reasons)"
t_log "socket Drops: $drops messages; producer delivery_failures: +$fails"
((lost > 0)) || t_fail "a 4 KiB buffer read every 300 ms at 20 ms samples reported no loss"
events=$(jq -s '[.[] | select(.lost)] | length' "$TMPDIR/slow")
((lost <= fails && fails - lost <= events)) ||
	t_fail "samples lost $lost vs delivery_failures $fails: not within the $events repairs"
# Exact: between two samples, seq advances by 1 + what was reported lost.
jq -s -e 'reduce .[] as $e ({ok: true, prev: null, lost: 0};
	if $e.lost != null then .lost += $e.lost
	elif $e.seq != null then
		(if .prev != null and $e.seq != .prev + 1 + .lost then .ok = false else . end)
		| .prev = $e.seq | .lost = 0
	else . end) | .ok' "$TMPDIR/slow" >/dev/null ||
	t_fail "seq advanced by other than 1 + the samples reported lost"
# The socket also carries nlctrl's notifications (libkstat watches the
# family come and go) and SUBSCRIBE's answers: Drops may count those
# too, never fewer than the summaries that failed.
((drops >= fails && drops - fails <= 2 + events)) ||
	t_fail "socket Drops $drops vs $fails failed summaries: more than 2 + $events apart"
# After each loss, the next sample must be a keyframe.
jq -s -e '[range(1; length) as $i | select(.[$i - 1].lost) |
	.[$i] | select(.seq) | .keyframe] | all' "$TMPDIR/slow" >/dev/null ||
	t_fail "a sample after a loss was not a keyframe"
# Between samples without loss in between, seq is consecutive.
jq -s -e '[range(1; length) as $i | select(.[$i].seq and .[$i - 1].seq) |
	.[$i].seq == .[$i - 1].seq + 1] | all' "$TMPDIR/slow" >/dev/null ||
	t_fail "seq jumped without a lost event"
last=$(jq -s --argjson q "$irq" '[.[] | select(.irq) | .irq[] | select(.irq == $q) | .count] | last' "$TMPDIR/slow")
assert_eq "$("$KSTAT" -j irq show "$irq" | jq '.[0].count')" "$last" "count of IRQ $irq after resync"
