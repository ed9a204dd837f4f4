#!/bin/bash
# Proves: the limits on subscriptions hold for unprivileged readers only,
# each refusal with its errno and the manual's extack, literal (issue
# "Safety first", point 6), naming the limit that CONFIG_GET shows.  uid
# 65534 without capabilities: interval 100 ms is below the 250 ms floor
# (EINVAL), 250 ms is not; root may ask 100 ms; a SUBSCRIBE without an
# interval (the default stream's) is never held to the floor.  After
# CONFIG_SET of the limits (floor 300 ms, 2 subscriptions per user), shown
# by CONFIG_GET: uid 65534's third subscription is EUSERS while uid 65533
# still gets one of its own, and root is held to no count.
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py
as() { as_user "$@"; }
restore() { python3 "$S" limits min_interval_ms=250 max_subscriptions=64 >/dev/null; }
t_cleanup restore
FLOOR="interval below the limits' min-interval-ms"
MAX="too many subscriptions for this user (limits max-subscriptions)"

expect() {	# WHAT ERRNO TEXT LINE: LINE is "ERRNO EXTACK"
	local err=${4%% *} msg=${4#* }
	assert_eq "$2" "$err" "$1 errno (extack: $msg)"
	[[ -z $3 ]] || assert_eq "$3" "$msg" "$1 extack"
}

assert_eq '{"min_interval_ms": 250, "max_subscriptions": 64}' "$(python3 "$S" limits)" "default limits"
expect "unprivileged 100 ms" 22 "$FLOOR" "$(as 65534 python3 "$S" subscribe interval=100,sections=1)"
expect "unprivileged 250 ms" 0 "" "$(as 65534 python3 "$S" subscribe interval=250,sections=1)"
t_cleanup config_reset
"$KSTAT" config set interval 100	# the default stream's, below the floor
expect "unprivileged, no interval (the default stream's 100 ms)" 0 "" "$(as 65534 python3 "$S" subscribe sections=1)"
"$KSTAT" config set interval 1000
expect "root 100 ms" 0 "" "$(python3 "$S" subscribe interval=100,sections=1)"

assert_eq '{"min_interval_ms": 300, "max_subscriptions": 2}' \
	"$(python3 "$S" limits min_interval_ms=300 max_subscriptions=2)" "limits after CONFIG_SET"
expect "unprivileged 250 ms, floor 300" 22 "$FLOOR" \
	"$(as 65534 python3 "$S" subscribe interval=250,sections=1)"

# Where the unprivileged holders can say they are ready.
rdir=$(mktemp -d /tmp/sub-limits.XXXXXX)
chmod 777 "$rdir"
t_cleanup rm -rf "$rdir"
hold() {	# NAME UID SPEC...: hold sockets in the background
	local name=$1 u=$2
	shift 2
	as "$u" python3 "$S" hold "$rdir/$name" "$@" >"$TMPDIR/$name" &
	wait_until 20 test -e "$rdir/$name"
}
stop_all() { kill $(jobs -p) 2>/dev/null || true; }
t_cleanup stop_all

hold a 65534 interval=300,sections=1 interval=400,sections=2 interval=500,sections=4
expect "uid 65534's first" 0 "" "$(sed -n 1p "$TMPDIR/a")"
expect "uid 65534's second" 0 "" "$(sed -n 2p "$TMPDIR/a")"
expect "uid 65534's third" 87 "$MAX" "$(sed -n 3p "$TMPDIR/a")"
# Counted per user: uid 65534 holding its 2 locks nobody else out.
hold b 65533 interval=800,sections=1
expect "uid 65533's beside uid 65534's two" 0 "" "$(sed -n 1p "$TMPDIR/b")"
# Root: no count.
hold r 0 interval=600,sections=1 interval=700,sections=1 interval=100,sections=2
for i in 1 2 3; do expect "root's subscription $i" 0 "" "$(sed -n ${i}p "$TMPDIR/r")"; done
assert_eq 6 "$(python3 "$S" stats | jq .subscriptions)" "subscriptions (2 of uid 65534, 1 of uid 65533, 3 of root)"
