#!/bin/bash
# Proves: a user with uid 65534 and no capability gets `kstat watch
# interval 0.25s` and `kstat top -b -d 0.25s` frames at 250 ms (the median
# of their interval_ns within 10 %, each 125 to 500 ms) while the admin's
# default stream samples every 1000 ms: each subscribes with its own
# interval, at the kernel's floor for unprivileged readers (250 ms by
# default).  Below the floor (`watch interval 0.1s`, `top -b -d 0.1s`,
# `monitor interval 100ms`) the kernel refuses: exit 1, one `kstat: ...`
# line with the kernel's extended ACK about the interval and what to do.
# Root shows and sets the limits (`kstat config set min-interval 500ms
# max-subscriptions 16`, text and JSON), the floor moves with them, and a
# user cannot set them.
# timeout: 180
# leave-out: userspace-only
source tests/lib.sh
require_cmd setpriv jq
require_kstat
t_cleanup config_reset

nobody() {
	setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all -- "$@"
}
"$KSTAT" config set interval 1000 sections all

# frames FILE WHAT: FILE's frames are 250 ms long: their median within
# 10 %, each at least half an interval and under two (a busy host may
# make one tick late, and the producer does not make it up: the mean of
# a few frames is no measure; the admin's 1000 ms would be four times).
frames() {
	local n median
	n=$(jq -s 'length' "$1")
	median=$(jq -s '[.[].interval_ns] | sort | .[length / 2 | floor] / 1e6' "$1")
	t_log "$2: $n frames, interval_ns $(jq -s -c '[.[].interval_ns / 1e6 | floor]' "$1") ms"
	((n >= 8)) || t_fail "$2: $n frames"
	jq -e -n --argjson m "$median" '$m >= 225 and $m <= 275' >/dev/null ||
		t_fail "$2: frames $median ms long (the median), not 250 +- 10 %"
	jq -s -e 'all(.[]; .interval_ns >= 125000000 and .interval_ns < 500000000)' "$1" >/dev/null ||
		t_fail "$2: a frame outside 125..500 ms"
}

assert_ok nobody timeout "$(t_scaled 60)" "$KSTAT" -j watch cpu interval 0.25s count 9
echo "$T_OUT" >"$TMPDIR/watch"
frames "$TMPDIR/watch" "watch interval 0.25s as uid 65534"

assert_ok nobody timeout "$(t_scaled 60)" "$KSTAT" -j top -b -d 0.25s -n 9
echo "$T_OUT" >"$TMPDIR/top"
frames "$TMPDIR/top" "top -b -d 0.25s as uid 65534"

# refused: below the floor
for cmd in "watch cpu interval 0.1s count 1" "top -b -d 0.1s -n 1" \
	   "monitor interval 100ms count 1"; do
	# shellcheck disable=SC2086  # the words of the command
	assert_exit 1 nobody timeout "$(t_scaled 30)" "$KSTAT" $cmd
	t_log "$cmd: $T_ERR"
	assert_eq 1 "$(wc -l <<<"$T_ERR")" "$cmd: one line on stderr"
	assert_match '^kstat: cannot subscribe: .*interval.*: ask for a longer interval' \
		"$T_ERR" "$cmd: the kernel's text and what to do"
done
# root is held to the 10 ms minimum only
assert_ok timeout "$(t_scaled 30)" "$KSTAT" -j monitor interval 100ms count 2

# The limits: root shows and sets them (text and JSON), the floor moves
# with min-interval, and a user cannot change them.
limits=$("$KSTAT" -j config show | jq -c .limits)
t_log "limits: $limits"
assert_eq '{"min_interval_ms":250,"max_subscriptions":64}' "$limits" "default limits"
assert_ok "$KSTAT" config set min-interval 500ms max-subscriptions 16
assert_eq '{"min_interval_ms":500,"max_subscriptions":16}' \
	"$("$KSTAT" -j config show | jq -c .limits)" "limits after config set"
assert_ok "$KSTAT" config show
assert_match 'min_interval_ms 500' "$T_OUT" "the floor in config show's text"
assert_match 'max_subscriptions 16' "$T_OUT" "the count in config show's text"
assert_exit 1 nobody timeout "$(t_scaled 30)" "$KSTAT" watch cpu interval 0.25s count 1
assert_match 'ask for a longer interval' "$T_ERR" "250 ms below a 500 ms floor"
assert_exit 1 nobody "$KSTAT" config set min-interval 10ms
assert_match 'CAP_NET_ADMIN' "$T_ERR" "a user setting the floor"
