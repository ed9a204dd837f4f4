#!/bin/bash
# Proves: readers choose their own stream (issue 27).  Two raw readers at
# once, one SUBSCRIBEd with interval 200 ms and sections irq, the other
# with 1000 ms and cpu, each get their own stream: every message carries
# its stream's id, the first is a snapshot (a keyframe), the mean spacing
# of samples is their own interval within 10 %, and no sample carries
# items of a section they did not ask for.  An admin's CONFIG_SET of the
# default stream (interval 100, sections softirq) while they read changes
# neither.  STATS_GET lists the default stream first and both streams
# with one member each; UNSUBSCRIBE with no stream of one's own is
# ENOENT with an extack; when the readers close, their streams are gone.
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd jq python3
t_cleanup config_reset
S=tests/helpers/streams.py

secs=$(t_scaled 8)
python3 "$S" watch "$secs" interval=200,sections=2 interval=1000,sections=1 \
	>"$TMPDIR/out" &
w=$!
three() {
	python3 "$S" stats >"$TMPDIR/stats"
	(($(jq -s length "$TMPDIR/stats") == 3))
}
wait_until 10 three
t_log "streams while reading: $(tr '\n' ' ' <"$TMPDIR/stats")"
"$KSTAT" config set interval 100 sections softirq
wait "$w"

check() {	# LINE INTERVAL SECTIONS
	local r=$1 iv=$2 sec=$3
	assert_eq 0 "$(jq .err <<<"$r")" "SUBSCRIBE errno ($iv ms): $(jq -r .extack <<<"$r")"
	local n mean streams
	n=$(jq '.samples | length' <<<"$r")
	streams=$(jq -c .streams <<<"$r")
	mean=$(jq '.samples as $s | if ($s | length) > 1 then
		(($s[-1][1] - $s[0][1]) / (($s | length) - 1) / 1e6 | floor) else 0 end' <<<"$r")
	t_log "$iv ms, sections $sec: $n samples, mean spacing $mean ms, streams $streams"
	((n >= 3)) || t_fail "$iv ms: only $n samples"
	[[ $(jq '.streams | length' <<<"$r") == 1 && $(jq '.streams[0]' <<<"$r") != 0 ]] ||
		t_fail "$iv ms: messages name streams $streams, not one of its own"
	jq -e '.samples[0][3] and .samples[0][2]' <<<"$r" >/dev/null ||
		t_fail "$iv ms: the first message is not a snapshot keyframe"
	((mean * 100 >= iv * 90 && mean * 100 <= iv * 110)) ||
		t_fail "$iv ms: mean spacing $mean ms, not within 10 %"
	jq -e --argjson s "$sec" 'all(.samples[]; .[4] == 0 or .[4] == $s)' \
		<<<"$r" >/dev/null ||
		t_fail "$iv ms: sections other than $sec: $(jq -c '[.samples[][4]] | unique' <<<"$r")"
	jq -e --argjson s "$sec" '[.samples[] | select(.[2])] | length > 0 and
		all(.[]; .[4] == $s)' <<<"$r" >/dev/null ||
		t_fail "$iv ms: a keyframe without section $sec"
}
check "$(sed -n 1p "$TMPDIR/out")" 200 2
check "$(sed -n 2p "$TMPDIR/out")" 1000 1
id1=$(sed -n 1p "$TMPDIR/out" | jq '.streams[0]')
id2=$(sed -n 2p "$TMPDIR/out" | jq '.streams[0]')
[[ $id1 != "$id2" ]] || t_fail "both readers in stream $id1"

# STATS: the default first, then both, one member each.
assert_eq 0 "$(head -n 1 "$TMPDIR/stats" | jq .id)" "first stream in STATS_GET"
for id in "$id1" "$id2"; do
	assert_eq 1 "$(jq -s --argjson i "$id" '[.[] | select(.id == $i)][0].members' "$TMPDIR/stats")" \
		"members of stream $id"
done
jq -s -e --argjson i "$id1" '[.[] | select(.id == $i)][0] | .interval == 200 and .sections == 2' \
	"$TMPDIR/stats" >/dev/null || t_fail "stream $id1's config in STATS_GET"

read -r err msg <<<"$(python3 "$S" unsubscribe)"
assert_eq 2 "$err" "UNSUBSCRIBE without a stream (ENOENT)"
assert_match "no stream of its own" "$msg" "UNSUBSCRIBE's extack"
read -r err msg <<<"$(python3 "$S" unsubscribe interval=500,sections=4)"
assert_eq 0 "$err" "UNSUBSCRIBE of a member"

gone() { [[ $(python3 "$S" stats | jq -s 'length') == 1 ]]; }
wait_until 10 gone || t_fail "streams left after the readers closed: $(python3 "$S" stats | tr '\n' ' ')"
t_log "after close: $(python3 "$S" stats | tr '\n' ' ')"
