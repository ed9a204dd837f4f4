#!/bin/bash
# Proves: nothing runs while nobody listens.  After the last listener of
# the default stream leaves, and after the last subscription of its own
# closes, the producer reports not running and STATS' ticks and samples do
# not move in 3 s; with one listener, or one subscription, they do (so
# this test can fail).
# Its kernel paths (the producer stopping with its last reader and
# starting with the first) run whenever any monitor test's monitor ends
# and starts; what it proves is a count.  So CI's debug stage leaves it
# out.
# leave-out: kernel-paths-covered
source tests/lib.sh
require_cmd jq
t_cleanup config_reset
"$KSTAT" config set interval 200

# idle WHAT: the producer stops, and ticks and samples stay for 3 s.
idle() {
	local a b
	stopped() { [[ $(stat_of running) == false ]]; }
	wait_until 5 stopped	# it notices at its next tick
	a=$("$KSTAT" -j stats | jq -c '[.ticks, .samples]')
	sleep 3
	b=$("$KSTAT" -j stats | jq -c '[.ticks, .samples]')
	assert_eq "$a" "$b" "[ticks, samples] over 3 s with nobody listening, $1"
	t_log "$1: running false, [ticks, samples] $b for 3 s"
}
# busy CMD...: CMD runs 2 s; ticks and samples grew meanwhile.
busy() {
	local a b
	a=$("$KSTAT" -j stats | jq -c '[.ticks, .samples]')
	timeout -s INT "$(t_scaled 2)" "$@" >/dev/null || true
	b=$("$KSTAT" -j stats | jq -c '[.ticks, .samples]')
	jq -e -n --argjson a "$a" --argjson b "$b" '$b[0] > $a[0] and $b[1] > $a[1]' >/dev/null ||
		t_fail "[ticks, samples] $a -> $b while $* ran"
}

busy "$KSTAT" -j monitor
idle "after the default stream's listener left"
busy "$KSTAT" -j monitor interval 250ms sections cpu
idle "after a subscription of its own closed"
