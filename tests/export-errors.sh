#!/bin/bash
# Proves: kstat export's error paths in the guest: no mode and a bad
# --listen exit 2 with a usage message; a port in use, a
# textfile in a missing or unwritable directory exit 1 with one "kstat: ..."
# line, also without the module (which alone is no error); SIGINT exits 0; an IPv6 literal ([::1]:PORT)
# serves, run as nobody (subscribing needs no privilege).
# timeout: 90
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq curl setpriv

PORT=19590
listening() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

assert_exit 2 "$KSTAT" export prometheus
assert_match '^kstat: give --listen ADDR:PORT, --textfile PATH or both' "$T_ERR" "no mode"
# (tests/unit/test_export_usage covers the usage errors in depth, on the host)
assert_exit 2 "$KSTAT" export prometheus --listen 127.0.0.1:0
assert_match '^kstat: bad --listen "127.0.0.1:0"' "$T_ERR" "port 0"

# A port in use: the second exporter says so and exits 1.
"$KSTAT" export prometheus --listen "127.0.0.1:$PORT" 2>/dev/null &
pid=$!
t_cleanup t_kill $pid
wait_until 10 listening 127.0.0.1 "$PORT"
assert_exit 1 "$KSTAT" export prometheus --listen "127.0.0.1:$PORT"
assert_match "^kstat: cannot listen on 127\.0\.0\.1:$PORT: Address already in use \(" "$T_ERR" "port in use"
assert_eq 1 "$(wc -l <<<"$T_ERR")" "lines of the port-in-use error"
kill -INT "$pid"
wait_until 2 t_exited "$pid"
rc=0
wait "$pid" || rc=$?
assert_eq 0 "$rc" "exit status after SIGINT"

# IPv6 literal, and no privilege needed: run it as nobody.
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if [[ -e /proc/net/if_inet6 ]] && grep -q '^0\{31\}1 ' /proc/net/if_inet6; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$KSTAT" export prometheus --listen "[::1]:$PORT" 2>"$TMPDIR/v6.err" &
	pid=$!
	t_cleanup t_kill $pid
	wait_until 10 listening ::1 "$PORT"
	up6() { grep -qx 'kstat_exporter_up 1' <<<"$(curl -sS -g "http://[::1]:$PORT/metrics")"; }
	wait_until 20 up6
	t_term "$pid" 2
	assert_eq 0 "$T_RC" "exit status of the IPv6 exporter after SIGTERM"
	assert_eq "kstat: export: serving http://[::1]:$PORT/metrics (--listen [::1]:$PORT)" \
		"$(cat "$TMPDIR/v6.err")" "IPv6 exporter stderr (its log: the address)"
else
	t_fail "the guest's loopback has no ::1"
fi

# Textfiles that cannot be written: a missing directory, and (as nobody)
# a directory owned by root.
assert_exit 1 "$KSTAT" export prometheus --textfile /nonexistent/kstat.prom
assert_match '^kstat: cannot write the textfile /nonexistent/kstat.prom: No such file or directory' \
	"$T_ERR" "textfile in a missing directory"
ro=$TMPDIR/export-ro
mkdir -p "$ro"
chmod 0755 "$ro"
assert_exit 1 nobody "$KSTAT" export prometheus --textfile "$ro/kstat.prom"
assert_match "^kstat: cannot write the textfile $ro/kstat.prom: Permission denied" \
	"$T_ERR" "textfile in an unwritable directory"
assert_eq "" "$(ls "$ro")" "files left in the unwritable directory"

# No module is no error (tests/export-daemon.sh), but a textfile that
# cannot be written still is, with the same message.
kstat_unload
t_cleanup kstat_load
assert_exit 1 "$KSTAT" export prometheus --textfile /nonexistent/x.prom --listen "127.0.0.1:$PORT"
assert_match '^kstat: cannot write the textfile /nonexistent/x.prom: No such file or directory' \
	"$T_ERR" "textfile in a missing directory, no module"
