#!/bin/bash
# Proves: two `kstat monitor`s at once, each with a stream of its own
# (interval 200ms sections irq; interval 1000ms sections cpu), each get
# their own cadence within 10 % (the mean spacing of their samples'
# kernel timestamps) and only their sections (JSON lines: the irq one
# never has "cpu" or "softirq", the cpu one never "irq" or "softirq";
# their first sample says its config and every line its stream id); an
# admin's `kstat config set interval 500 sections softirq` meanwhile
# changes neither; `kstat -j stats` lists both streams (interval,
# sections, one member each, samples and bytes counted) while they run,
# and neither once they exited.  With the old CLI `monitor interval` was
# a usage error; with the old module every reader shared the admin's
# interval and sections.
# timeout: 180
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup config_reset

"$KSTAT" config set interval 1000 sections all

"$KSTAT" -j monitor interval 200ms sections irq count 50 >"$TMPDIR/fast" 2>"$TMPDIR/fast.err" &
fast=$!
t_cleanup t_kill $fast
"$KSTAT" -j monitor interval 1000ms sections cpu count 9 >"$TMPDIR/slow" 2>"$TMPDIR/slow.err" &
slow=$!
t_cleanup t_kill $slow
# running PID FILE N: FILE holds N samples; a monitor that ended fails
running() {
	(($(monitor_count "$2") >= $3)) && return 0
	t_exited "$1" && t_fail "a monitor ended early: $(cat "$2.err")"
	return 1
}
wait_until 60 running $fast "$TMPDIR/fast" 3
wait_until 60 running $slow "$TMPDIR/slow" 2

# streams: the two of ours while they run (STATS_GET)
"$KSTAT" -j stats >"$TMPDIR/stats"
t_log "streams: $(jq -c '[.streams[] | [.id, .interval_ms, .sections, .members]]' "$TMPDIR/stats")"
jq -e '.streams[0].id == 0' "$TMPDIR/stats" >/dev/null || t_fail "the default stream is not listed first"
for want in '200 "irq"' '1000 "cpu"'; do
	read -r ms sec <<<"$want"
	jq -e --argjson ms "$ms" --argjson sec "$sec" '[.streams[] |
		select(.id != 0 and .interval_ms == $ms and .sections == [$sec] and
		       .members >= 1 and .samples >= 1 and .bytes > 0)] | length == 1' \
		"$TMPDIR/stats" >/dev/null ||
		t_fail "kstat stats lists no stream of ${ms} ms with $sec and a member: $(jq -c .streams "$TMPDIR/stats")"
done

# an admin changes the default stream meanwhile: ours keep theirs
"$KSTAT" config set interval 500 sections softirq

wait $fast || t_fail "monitor interval 200ms failed: $(cat "$TMPDIR/fast.err")"
wait $slow || t_fail "monitor interval 1000ms failed: $(cat "$TMPDIR/slow.err")"

# check FILE MS SECTION OTHER...: the samples of FILE are MS apart on
# average (+-10 %), carry SECTION and none of OTHER, and say their stream
check() {
	local f=$1 ms=$2 sec=$3 mean k
	shift 3
	mean=$(jq -s '[.[] | select(.seq)] | .[1:] |
		(.[-1].timestamp_ns - .[0].timestamp_ns) / (.[-1].seq - .[0].seq) / 1e6' "$f")
	t_log "$ms ms, $sec: $(jq -s length "$f") samples, mean spacing $mean ms"
	jq -e --argjson m "$mean" --argjson w "$ms" -n '$m >= $w * 0.9 and $m <= $w * 1.1' >/dev/null ||
		t_fail "interval $ms: samples $mean ms apart on average"
	jq -s -e --arg s "$sec" '[.[] | select(.seq)][0] | has($s)' "$f" >/dev/null ||
		t_fail "interval $ms: the first sample has no \"$sec\""
	for k; do
		jq -s -e --arg k "$k" 'all(.[]; has($k) | not)' "$f" >/dev/null ||
			t_fail "interval $ms: a sample with \"$k\", which the stream does not carry"
	done
	jq -s -e --argjson w "$ms" --arg s "$sec" '[.[] | select(.seq)] as $x |
		($x[0].config.interval_ms == $w and $x[0].config.sections == [$s]) and
		all($x[]; .stream == $x[0].stream and .stream > 0)' "$f" >/dev/null ||
		t_fail "interval $ms: the first sample's config or the stream ids: $(head -c 300 "$f")"
}
check "$TMPDIR/fast" 200 irq cpu softirq
check "$TMPDIR/slow" 1000 cpu irq softirq

# gone with their readers
no_own_streams() {
	"$KSTAT" -j stats >"$TMPDIR/stats" &&
		jq -e '[.streams[] | select(.id != 0)] | length == 0' "$TMPDIR/stats" >/dev/null
}
wait_until 10 no_own_streams
assert_ok "$KSTAT" stats
assert_match '^stream 0 interval_ms 500 ' "$T_OUT" "the default stream's line in text"
