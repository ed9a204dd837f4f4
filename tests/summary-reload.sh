#!/bin/bash
# Proves: subscribers survive the module going and coming back, in the
# same process: after rmmod, `kstat -j monitor` prints
# {"event":"family","present":false}, `kstat watch` "family kstat gone"
# and the exporter serves kstat_exporter_up 0; after insmod, the monitor
# prints the "present":true line, a loss with reason "reload" and fresh
# samples (seq restarted), watch "family kstat back" and new rates, and
# the exporter up 1 with kstat_exporter_samples_total growing.
# Its kernel paths (rmmod with subscribers, insmod, SUBSCRIBE) are
# summary-lifecycle.sh's and every monitor's; what it proves is the
# userspace side.  So CI's debug stage leaves it out (61 s there).
# leave-out: kernel-paths-covered
# timeout: 180
source tests/lib.sh
require_cmd jq curl

PORT=19587
URL=http://127.0.0.1:$PORT/metrics
t_cleanup config_reset
kstat_load_interval 100

# The monitor's events in order: "F true|false", "S seq", "L reason".
events() {
	jq -r 'if .event == "family" then "F \(.present)"
	       elif .seq != null then "S \(.seq)"
	       elif .lost != null then "L \(.reason)" else empty end' \
		"$TMPDIR/mon.json" 2>/dev/null || true
}
# How many samples the monitor printed after its last family line $1.
samples_after() {
	events | awk -v f="F $1" '$0 == f { n = 0; seen = 1; next } /^S / { n++ }
				   END { print seen ? n : -1 }'
}
metric() {
	curl -sS --max-time 10 "$URL" | awk -v m="$1" '$1 == m { print $2 }'
}
# Lines of watch's output after its last line matching $1 that head a table.
tables_after() {
	awk -v re="$1" '$0 ~ re { n = 0; seen = 1; next } /^CPU / { n++ }
			END { print seen ? n : -1 }' "$TMPDIR/watch.out"
}
alive() {
	local p
	for p in "$@"; do t_exited "$p" && t_fail "a subscriber exited: $(cat "$TMPDIR"/*.err)"; done
	return 0
}

"$KSTAT" -j monitor >"$TMPDIR/mon.json" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
"$KSTAT" watch interval 0.2s >"$TMPDIR/watch.out" 2>"$TMPDIR/watch.err" &
watch=$!
t_cleanup t_kill $watch
"$KSTAT" export prometheus --listen "127.0.0.1:$PORT" 2>"$TMPDIR/export.err" &
exp=$!
t_cleanup t_kill $exp

up_is() { [[ $(metric kstat_exporter_up 2>/dev/null) == "$1" ]]; }
monitor_has() { (($(events | grep -c '^S ') >= 2)); }
watch_has() { grep -q '^CPU ' "$TMPDIR/watch.out"; }
wait_until 30 monitor_has
wait_until 30 watch_has
wait_until 30 up_is 1
t_log "monitor, watch and exporter have samples"

kstat_unload_busy
gone_line() { events | grep -qx 'F false'; }
wait_until 10 gone_line
wait_until 10 grep -q '^family kstat gone$' "$TMPDIR/watch.out"
wait_until 10 up_is 0
before=$(metric kstat_exporter_samples_total)
alive $mon $watch $exp
t_log "gone: monitor and watch said so, exporter up 0 after $before samples"
sleep 0.5
assert_eq 0 "$(samples_after false)" "monitor samples while the module is gone"

kstat_load_interval 100
fresh() { (($(samples_after true) >= 3)); }
wait_until 30 fresh
# After the back line: a reload loss, then the new module's samples, whose
# seq restarted (the first of them is far below the last before).
ev=$(events)
t_log "monitor events around the reload: $(grep -A3 '^F ' <<<"$ev" | tr '\n' ' ')"
assert_match '^L reload$' "$(sed -n '/^F true$/,$p' <<<"$ev")" "reload loss after the back line"
last_old=$(sed -n '/^F false$/q; /^S /p' <<<"$ev" | tail -n 1 | cut -d' ' -f2)
first_new=$(sed -n '/^F true$/,$p' <<<"$ev" | grep -m 1 '^S ' | cut -d' ' -f2)
((first_new < last_old)) ||
	t_fail "seq after the reload ($first_new) did not restart below $last_old"

wait_until 10 grep -q '^family kstat back$' "$TMPDIR/watch.out"
watch_resumed() { (($(tables_after '^family kstat back$') >= 2)); }
wait_until 30 watch_resumed
wait_until 30 up_is 1
grown() { (($(metric kstat_exporter_samples_total) > before + 2)); }
wait_until 30 grown
alive $mon $watch $exp
t_log "back: monitor from seq $first_new, watch rates, exporter up 1 and $(metric kstat_exporter_samples_total) samples"

for p in $mon $watch $exp; do
	t_term "$p" 5
	assert_eq 0 "$T_RC" "exit status after SIGTERM"
done
assert_eq "" "$(cat "$TMPDIR/mon.err")" "monitor stderr"
# The exporter's log: its address, the module gone, then back (lines
# about samples late or lost under TCG are not judged here).
err=$(grep -Ev '^kstat: export: (lost |no sample for |samples come again)' "$TMPDIR/export.err" || true)
assert_eq "kstat: export: serving http://127.0.0.1:$PORT/metrics (--listen 127.0.0.1:$PORT)
kstat: export: the kstat module is gone: kstat_exporter_up 0 until it is loaded again" \
	"$(head -2 <<<"$err")" "exporter stderr: address, module gone"
assert_match '^kstat: export: the kstat module is loaded: subscribed, every [0-9]+\.[0-9]{3} s$' \
	"$(sed -n '3,$p' <<<"$err")" "exporter stderr: module back"
assert_eq 3 "$(wc -l <<<"$err")" "exporter log lines"
