#!/bin/bash
# Proves: a member of a stream of its own whose socket overruns (4 KiB
# receive buffer, not read for 3 s at 100 ms) is resynced alone: it sees
# ENOBUFS, and the first message after the samples it lost is a snapshot
# of its stream (KSTAT_A_SNAPSHOT, a keyframe); every gap in its seq
# numbers comes with a snapshot.  A second member of the same stream,
# reading all along, loses nothing and gets no snapshot but its first;
# STATS_GET counts the resyncs.
# timeout: 120
source tests/lib.sh
require_kstat
require_cmd jq python3
S=tests/helpers/streams.py
spec=interval=100,sections=5

python3 "$S" watch "$(t_scaled 14)" "$spec" >"$TMPDIR/good" &
good=$!
python3 "$S" overrun "$spec" 3 >"$TMPDIR/slow"
python3 "$S" stats >"$TMPDIR/stats"	# the good member is still in
wait "$good"

r=$(cat "$TMPDIR/slow")
assert_eq 0 "$(jq .err <<<"$r")" "SUBSCRIBE errno"
t_log "slow member: $(jq '.samples | length' <<<"$r") samples, enobufs $(jq .enobufs <<<"$r"), seq $(jq -c '[.samples[] | [.[0], (if .[3] then "S" else "" end)] | join("")]' <<<"$r")"
(($(jq .enobufs <<<"$r") > 0)) || t_fail "a 4 KiB buffer unread for 3 s at 100 ms saw no ENOBUFS"
jq -e '[.samples as $s | range(1; $s | length) | select($s[.][0] != $s[. - 1][0] + 1)] | length > 0' \
	<<<"$r" >/dev/null || t_fail "no sample lost"
jq -e '.samples as $s | all(range(1; $s | length);
	$s[.][0] == $s[. - 1][0] + 1 or ($s[.][3] and $s[.][2]))' <<<"$r" >/dev/null ||
	t_fail "a gap in seq not at a snapshot keyframe"
jq -e '[.samples[] | select(.[3])] | length >= 2' <<<"$r" >/dev/null ||
	t_fail "no resync snapshot after the SUBSCRIBE's"

g=$(cat "$TMPDIR/good")
jq -e '.samples as $s | all(range(1; $s | length); $s[.][0] == $s[. - 1][0] + 1)' \
	<<<"$g" >/dev/null || t_fail "the other member lost samples"
assert_eq 1 "$(jq '[.samples[] | select(.[3])] | length' <<<"$g")" "snapshots the other member got"
t_log "stats: $(tr '\n' ' ' <"$TMPDIR/stats")"
(($(jq -s '[.[] | select(.id != 0)][0].resyncs' "$TMPDIR/stats") >= 1)) ||
	t_fail "STATS_GET counts no resync"
