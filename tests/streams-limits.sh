#!/bin/bash
# Proves: the limits on streams of a reader's own hold, for unprivileged
# readers only, each refusal with its errno and an extack naming the
# limit (CONFIG_GET shows its value: an extack must be a literal, issue
# "Safety first", point 6).  uid 65534 without capabilities: interval 100 ms
# is below the 250 ms floor (EINVAL), 250 ms is not; root may ask 100 ms.
# After CONFIG_SET of the limits (floor 300 ms, 2 streams, 3 members per
# user, 5 per netns), shown by CONFIG_GET: a user's third stream is EBUSY
# while another user still makes one of its own, a
# fourth member of one user EUSERS, a sixth member in the netns (a second
# user) EUSERS; root is held to none of the counts.
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py
as() { as_user "$@"; }
restore() { python3 "$S" limits min_interval_ms=250 max_streams=4 max_members_user=64 max_members_net=256 >/dev/null; }
t_cleanup restore

expect() {	# WHAT ERRNO REGEX LINE
	local err=${4%% *} msg=${4#* }
	assert_eq "$2" "$err" "$1 errno (extack: $msg)"
	[[ -z $3 ]] || assert_match "$3" "$msg" "$1 extack"
}

assert_eq '{"min_interval_ms": 250, "max_streams": 4, "max_members_user": 64, "max_members_net": 256}' \
	"$(python3 "$S" limits)" "default limits"
expect "unprivileged 100 ms" 22 "below the floor for unprivileged readers.*min-interval-ms" "$(as 65534 python3 "$S" subscribe interval=100,sections=1)"
expect "unprivileged 250 ms" 0 "" "$(as 65534 python3 "$S" subscribe interval=250,sections=1)"
expect "root 100 ms" 0 "" "$(python3 "$S" subscribe interval=100,sections=1)"

assert_eq '{"min_interval_ms": 300, "max_streams": 2, "max_members_user": 3, "max_members_net": 5}' \
	"$(python3 "$S" limits min_interval_ms=300 max_streams=2 max_members_user=3 max_members_net=5)" \
	"limits after CONFIG_SET"
expect "unprivileged 250 ms, floor 300" 22 "below the floor.*min-interval-ms" \
	"$(as 65534 python3 "$S" subscribe interval=250,sections=1)"

# Where the unprivileged holders can say they are ready.
rdir=$(mktemp -d /tmp/streams-limits.XXXXXX)
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

# Streams: two of 300 and 400 ms, then a third is refused.
hold a 65534 interval=300,sections=1 interval=400,sections=1 interval=500,sections=1
expect "first stream" 0 "" "$(sed -n 1p "$TMPDIR/a")"
expect "second stream" 0 "" "$(sed -n 2p "$TMPDIR/a")"
expect "third stream" 16 "this user has as many streams as it may.*max-streams" "$(sed -n 3p "$TMPDIR/a")"
# Members per user: uid 65534 has 2; one more joins, the fourth is refused.
hold b 65534 interval=300,sections=1 interval=300,sections=1
expect "third member of uid 65534" 0 "" "$(sed -n 1p "$TMPDIR/b")"
expect "fourth member of uid 65534" 87 "this user has as many stream members as it may.*max-members-user" "$(sed -n 2p "$TMPDIR/b")"
# Streams are counted per user: uid 65534 holding its 2 locks nobody out.
hold d 65533 interval=800,sections=1
expect "uid 65533's own stream beside uid 65534's two" 0 "" "$(sed -n 1p "$TMPDIR/d")"
# Members per netns: 3 of uid 65534, 1 of uid 65533, then its third is the sixth.
hold c 65533 interval=300,sections=1 interval=300,sections=1
expect "uid 65533's second" 0 "" "$(sed -n 1p "$TMPDIR/c")"
expect "sixth member in the netns" 87 "this netns has as many stream members as it may.*max-members-net" "$(sed -n 2p "$TMPDIR/c")"
# Root: none of the counts.
hold r 0 interval=600,sections=1 interval=700,sections=1 interval=100,sections=2
for i in 1 2 3; do expect "root's stream $i" 0 "" "$(sed -n ${i}p "$TMPDIR/r")"; done
python3 "$S" stats >"$TMPDIR/stats"
t_log "streams: $(jq -c '[.id, .interval, .members]' "$TMPDIR/stats" | tr '\n' ' ')"
assert_eq 7 "$(jq -s length "$TMPDIR/stats")" "streams (the default, 2 of uid 65534, 1 of uid 65533, 3 of root)"
