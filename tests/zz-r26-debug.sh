#!/bin/bash
source tests/lib.sh
"$KSTAT" config set interval 200 batch 1
timeout -s INT 30 "$KSTAT" -j monitor >"$TMPDIR/mon" &
mon=$!
monitor_wait 60 "$TMPDIR/mon" 3
a=$(boottime_ns)
sleep 3
b=$(boottime_ns)
kill -INT $mon; wait $mon || true
t_log "$(monitor_spacing "$TMPDIR/mon" "$a" "$b")"
t_log "$(monitor_times "$TMPDIR/mon" "$a" "$b")"
head -c 600 "$TMPDIR/mon" >&2
