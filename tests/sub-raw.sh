#!/bin/bash
# Proves: readers choose, on the wire (issue 27, protocol 5).  Two raw
# readers at once (tests/helpers/streams.py watch), one SUBSCRIBEd with
# interval 200 ms and sections irq, the other with 1000 ms and cpu: each
# gets samples of its own, unicast: seq from 0 and consecutive, the mean
# spacing its own interval within 10 %, and no sample carrying a section
# it did not ask for.  An admin's CONFIG_SET of the default stream
# (interval 100, sections softirq) while they read changes neither.
# STATS_GET counts both subscriptions while they read, and none when they
# have closed.
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
two() { [[ $(python3 "$S" stats | jq .subscriptions) == 2 ]]; }
wait_until 10 two
"$KSTAT" config set interval 100 sections softirq
wait "$w"

check() {	# LINE INTERVAL SECTIONS
	local r=$1 iv=$2 sec=$3 n mean
	assert_eq 0 "$(jq .err <<<"$r")" "SUBSCRIBE errno ($iv ms): $(jq -r .extack <<<"$r")"
	n=$(jq '.samples | length' <<<"$r")
	mean=$(jq '.samples as $s | if ($s | length) > 1 then
		(($s[-1][1] - $s[0][1]) / (($s | length) - 1) / 1e6 | floor) else 0 end' <<<"$r")
	t_log "$iv ms, sections $sec: $n samples, mean spacing $mean ms, seq $(jq -c '[.samples[][0]] | .[0:3]' <<<"$r")..."
	((n >= 3)) || t_fail "$iv ms: only $n samples"
	jq -e '[.samples[][0]] as $s | $s[0] == 0 and all(range(1; $s | length); $s[.] == $s[. - 1] + 1)' \
		<<<"$r" >/dev/null || t_fail "$iv ms: seq not 0, 1, 2...: $(jq -c '[.samples[][0]]' <<<"$r")"
	((mean * 100 >= iv * 90 && mean * 100 <= iv * 110)) ||
		t_fail "$iv ms: mean spacing $mean ms, not within 10 %"
	jq -e --argjson s "$sec" 'all(.samples[]; .[2] == $s)' <<<"$r" >/dev/null ||
		t_fail "$iv ms: sections other than $sec: $(jq -c '[.samples[][2]] | unique' <<<"$r")"
}
check "$(sed -n 1p "$TMPDIR/out")" 200 2
check "$(sed -n 2p "$TMPDIR/out")" 1000 1

gone() { [[ $(python3 "$S" stats | jq .subscriptions) == 0 ]]; }
wait_until 10 gone
