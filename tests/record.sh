#!/bin/bash
# Proves: `kstat record FILE` writes the recording format of
# docs/record-format.md: a header (version 1, uname, nr_cpus = possible
# CPUs, the interval, sections and percpu it asked for, command), an
# identity line (the labels of `kstat -j irq show`, no counts) before the
# first sample, samples with exactly the keys of `kstat -j monitor`'s,
# per-CPU arrays of nr_cpus entries, and an end line (samples, lost,
# status, signal); a new identity line when the IRQ set changes
# (kstat_irqsim loaded, its IRQs reallocated), when an IRQ's action came
# without a new generation (within 10 s), and after the module was
# reloaded (family lines, a "reload" loss), each sample's IRQs named by
# the identity before it, no identity repeated without a change; with
# `-- COMMAND` the first sample precedes the command's start and kstat
# exits with its status (3) or 128 + its signal, the end line saying
# which, SIGTERM to kstat ending the command too (SIGKILL 5 s later if
# it ignores SIGTERM); a killed recorder
# leaves whole lines and no end line; a write error (/dev/full) and a
# command that cannot run exit 1 with a message and keep no file of
# record's making; a refused subscription (below the floor, unprivileged)
# exits 1 and leaves no file; `record -` writes to stdout; and record
# runs clean under valgrind memcheck (0 errors, 0 definite leaks); an
# existing FILE is refused unchanged, append adds a segment, duration
# ends a recording, and percpu alone is percpu on.
# Its kernel paths (own subscriptions, GETs with descriptions, irqsim's
# IRQs coming, rmmod and insmod under a subscriber) are sub-cli.sh's,
# irq-shapes.sh's and summary-reload.sh's; what it proves is the CLI's.
# leave-out: userspace-only
# timeout: 300
source tests/lib.sh
require_cmd jq valgrind
require_kstat
t_cleanup config_reset
t_cleanup irqsim_unload
R=$TMPDIR/rec

# kinds FILE: one word per line: H(eader) I(dentity) S(ample) L(ost) F(amily) E(nd)
kinds() {
	jq -r 'if has("kstat_record") then "H" elif has("irqs") then "I"
	       elif has("seq") then "S" elif has("lost") then "L"
	       elif has("event") then "F" elif has("end") then "E" else "?" end' "$1"
}
# named FILE: every sample's IRQs are among the identity line's before it
named() {
	jq -s -r 'reduce .[] as $l ({ids: null, bad: []};
		if $l | has("irqs") then .ids = [$l.irqs[].irq]
		elif $l | has("seq") and has("irq") then
			(.ids // []) as $ids |
			.bad += [$l.irq[].irq | select(. as $q | $ids | index($q) | not)]
		else . end) | .bad | unique | map(tostring) | join(" ")' "$1"
}
samples_in() { { jq -c 'select(has("seq"))' "$1" 2>/dev/null || true; } | wc -l; }
has_samples() { (($(samples_in "$1") >= $2)); }

# ---- a plain recording ---------------------------------------------------
assert_ok "$KSTAT" record "$R.1" interval 100ms sections all percpu on count 5
assert_eq "" "$T_OUT$T_ERR" "record prints nothing"
assert_eq "HISSSSSE" "$(kinds "$R.1" | tr -d '\n')" "line kinds"
assert_eq "0a" "$(tail -c1 "$R.1" | od -An -tx1 | tr -d ' ')" "the last line ends with a newline"
head -1 "$R.1" >"$TMPDIR/hdr"
t_log "header: $(cat "$TMPDIR/hdr")"
assert_eq 1 "$(jq .kstat_record "$TMPDIR/hdr")" "version"
assert_eq "$(uname -n) $(uname -r) $(uname -m)" "$(jq -r '"\(.host) \(.kernel) \(.machine)"' "$TMPDIR/hdr")" "uname"
assert_eq "$(possible_cpus)" "$(jq .nr_cpus "$TMPDIR/hdr")" "nr_cpus"
assert_eq '100 ["cpu","irq","softirq"] true null' \
	"$(jq -r '[.interval_ms, .sections, .percpu, .command] | map(tojson) | join(" ")' "$TMPDIR/hdr")" \
	"interval, sections, percpu, command"
off=$(jq .realtime_offset_ns "$TMPDIR/hdr")
now_rt=$(date +%s%N)
now_bt=$(boottime_ns)
((off > now_rt - now_bt - 5000000000 && off <= now_rt - now_bt + 5000000000)) ||
	t_fail "realtime_offset_ns $off, not CLOCK_REALTIME - CLOCK_BOOTTIME ($((now_rt - now_bt)))"
# the identity: irq show's labels, no counts; the arch rows' descriptions
sed -n 2p "$R.1" >"$TMPDIR/id"
assert_eq "actions chip hwirq irq type" \
	"$(jq -r '[.irqs[] | keys | join(" ")] | unique | join(",")' "$TMPDIR/id")" "identity keys"
"$KSTAT" -j irq show >"$TMPDIR/show"
assert_eq "$(jq -c '[.[] | {irq, chip, hwirq, type, actions}]' "$TMPDIR/show")" \
	"$(jq -c .irqs "$TMPDIR/id")" "identity = irq show's labels"
assert_eq "$(jq '[.[] | select(.seq != null)][0].generation' -s "$R.1")" \
	"$(jq .generation "$TMPDIR/id")" "identity generation = the first sample's"
jq -e '.arch | length > 0 and all(has("name") and has("desc"))' "$TMPDIR/id" >/dev/null ||
	t_fail "identity arch rows: $(jq -c .arch "$TMPDIR/id")"
# samples: kstat -j monitor's keys; per-CPU arrays of nr_cpus entries
"$KSTAT" -j monitor interval 100ms sections all percpu on count 2 >"$TMPDIR/mon"
assert_eq "$(jq -c 'select(.seq != null) | keys' "$TMPDIR/mon" | sort -u)" \
	"$(jq -c 'select(.seq != null) | keys' "$R.1" | sort -u)" "sample keys = monitor's"
assert_eq "[$(possible_cpus)]" \
	"$(jq -c -s '[.[] | select(.seq != null) | (.irq[], .softirq[]) | .percpu | length] | unique' "$R.1")" \
	"per-CPU array lengths"
assert_eq '{"samples":5,"lost":0,"status":null,"signal":null}' \
	"$(tail -1 "$R.1" | jq -c '.end | del(.timestamp_ns)')" "end line"
t_log "plain recording: $(wc -c <"$R.1") bytes, $(wc -l <"$R.1") lines"

# ---- the IRQ set changes: identity lines -----------------------------------
"$KSTAT" record "$R.2" interval 100ms sections irq 2>"$TMPDIR/rec2.err" &
rec=$!
t_cleanup t_kill $rec
wait_until 30 has_samples "$R.2" 2
irqsim_load irqs=4
sim=$(irqsim_irq 0)
# (jq 1.6's -e judges the last line only: slurp, and any())
sim_named() { jq -s -e --argjson q "$sim" 'any(.[] | select(has("seq")) | .irq[]; .irq == $q)' "$R.2" >/dev/null 2>&1; }
wait_until 30 sim_named
# Its action came after its descriptor (request_irq), with no new
# generation: the labels are read again within 10 s of samples.
sim_labelled() {
	jq -s -e --argjson q "$sim" 'any(.[] | select(has("irqs")) | .irqs[];
		.irq == $q and .actions == ["kstat-sim-0"])' "$R.2" >/dev/null 2>&1
}
wait_until 60 sim_labelled
n=$(samples_in "$R.2")
irqsim_realloc
wait_until 30 has_samples "$R.2" $((n + 3))
t_term $rec 10
assert_eq 0 "$T_RC" "record's exit status after SIGTERM ($(cat "$TMPDIR/rec2.err"))"
assert_eq "" "$(named "$R.2")" "sample IRQs missing from the identity before them"
ids=$(kinds "$R.2" | grep -c I)
((ids >= 2)) || t_fail "$ids identity lines after irqsim's IRQs came"
assert_eq "" "$(jq -c 'select(has("irqs")) | del(.timestamp_ns)' "$R.2" | uniq -d)" \
	"an identity line repeated without a change"
kinds "$R.2" | tail -1 | grep -qx E || t_fail "no end line after SIGTERM"
t_log "IRQ set changes: $ids identity lines, $(samples_in "$R.2") samples"

# ---- -- COMMAND ---------------------------------------------------------
nlraw=$KSTAT_ROOT/tests/tools/nlraw
assert_exit 3 "$KSTAT" record "$R.3" interval 100ms -- sh -c "$nlraw boottime >$TMPDIR/start; sleep 1; exit 3"
assert_eq '["sh","-c","'"$nlraw"' boottime >'"$TMPDIR"'/start; sleep 1; exit 3"]' \
	"$(head -1 "$R.3" | jq -c .command)" "header command"
first=$(jq -s '[.[] | select(.seq != null)][0].timestamp_ns' "$R.3")
((first < $(cat "$TMPDIR/start"))) || t_fail "the first sample ($first) is not before the command ($(cat "$TMPDIR/start"))"
assert_eq '3 null' "$(tail -1 "$R.3" | jq -r '"\(.end.status) \(.end.signal)"')" "end: exit 3"
assert_exit 143 "$KSTAT" record "$R.4" -- sh -c 'kill -TERM $$'
assert_eq 'null 15' "$(tail -1 "$R.4" | jq -r '"\(.end.status) \(.end.signal)"')" "end: SIGTERM"
# SIGTERM to kstat: it ends the command and says so
"$KSTAT" record "$R.5" interval 100ms -- sleep 1000 2>"$TMPDIR/rec5.err" &
rec=$!
t_cleanup t_kill $rec
wait_until 30 has_samples "$R.5" 2
sleeper=$(pgrep -P $rec -x sleep) || t_fail "no sleep under record"
t_term $rec 15
assert_eq 143 "$T_RC" "record's exit status (the command's: SIGTERM)"
t_exited "$sleeper" || t_fail "the command outlived record"
assert_eq 'null 15' "$(tail -1 "$R.5" | jq -r '"\(.end.status) \(.end.signal)"')" "end: the command stopped"
# one that ignores SIGTERM gets SIGKILL 5 s later (its loop's sleeps end alone)
"$KSTAT" record "$R.9" interval 100ms -- sh -c 'trap "" TERM; while :; do sleep 0.2; done' \
	2>"$TMPDIR/rec9.err" &
rec=$!
t_cleanup t_kill $rec
wait_until 30 has_samples "$R.9" 2
t_term $rec 30
assert_eq 137 "$T_RC" "record's exit status (the command's: SIGKILL)"
assert_match 'did not end 5 s after SIGTERM: sending SIGKILL' "$(cat "$TMPDIR/rec9.err")" "message"
assert_eq 'null 9' "$(tail -1 "$R.9" | jq -r '"\(.end.status) \(.end.signal)"')" "end: SIGKILL"
# a command that cannot run: exit 1, no file
assert_exit 1 "$KSTAT" record "$R.6" -- /nonexistent/command
assert_match 'cannot run "/nonexistent/command"' "$T_ERR" "message"
[[ -e $R.6 ]] && t_fail "a recording of a command that never ran was kept"

# ---- kill -9: whole lines, no end ------------------------------------------
"$KSTAT" record "$R.7" interval 100ms sections cpu &
rec=$!
t_cleanup t_kill $rec
wait_until 30 has_samples "$R.7" 3
kill -KILL $rec
wait $rec 2>/dev/null || true
jq -c . "$R.7" >/dev/null || t_fail "a killed recording has a broken line"
assert_eq "0a" "$(tail -c1 "$R.7" | od -An -tx1 | tr -d ' ')" "killed: the last line is whole"
kinds "$R.7" | grep -q E && t_fail "a killed recording has an end line"

# ---- errors ---------------------------------------------------------------
assert_exit 1 "$KSTAT" record /dev/full count 3
assert_match 'kstat: cannot write "/dev/full": No space left on device' "$T_ERR" "/dev/full"
[[ -c /dev/full ]] || t_fail "record removed /dev/full"
"$KSTAT" config set min-interval 250ms >/dev/null
d=$(mktemp -d /tmp/kstat-record.XXXXXX)	# $TMPDIR is not the user's to enter
t_cleanup rm -rf "$d"
chmod 777 "$d"
assert_exit 1 as_user 65534 "$KSTAT" record "$d/low" interval 20ms count 2
assert_match 'interval' "$T_ERR" "the kernel's refusal"
[[ -e $d/low ]] && t_fail "a refused recording left its file"

# ---- the module goes and comes back -----------------------------------------
"$KSTAT" record "$R.8" interval 100ms sections irq 2>"$TMPDIR/rec8.err" &
rec=$!
t_cleanup t_kill $rec
wait_until 30 has_samples "$R.8" 2
kstat_unload_busy
kstat_load
n=$(samples_in "$R.8")
wait_until 30 has_samples "$R.8" $((n + 2))
t_term $rec 10
assert_eq 0 "$T_RC" "record across a reload ($(cat "$TMPDIR/rec8.err"))"
seq=$(kinds "$R.8" | tr -d '\n')
t_log "across a reload: $seq"
assert_match '^HIS+F' "$seq" "before the unload"
# after the module is back: the reload loss, then an identity before any sample
assert_match 'F(L|F)*IS+E$' "$(echo "$seq" | sed 's/^HIS*//')" "after the reload"
jq -s -e 'any(.[]; .reason == "reload")' "$R.8" >/dev/null ||
	t_fail "no reload loss"
assert_eq "" "$(named "$R.8")" "sample IRQs missing from the identity before them"

# ---- an existing file, append, duration, bare percpu ----------------------
# An existing FILE is refused and left as it was; append adds a segment
# (a second header), which the reader takes as such; duration ends the
# recording on its own; "percpu" alone is "percpu on".
cp "$R.1" "$TMPDIR/before"
assert_exit 1 "$KSTAT" record "$R.1" count 2
assert_match '"?'"$R.1"'"? exists: add "append"' "$T_ERR" "existing file refused"
cmp -s "$R.1" "$TMPDIR/before" || t_fail "a refused record changed $R.1"
assert_ok "$KSTAT" record "$R.1" append interval 100ms sections cpu percpu count 2
assert_eq "HISSSSSEHISSE" "$(kinds "$R.1" | tr -d '\n')" "two segments"
assert_eq "true" "$(jq -s -c '[.[] | select(has("kstat_record"))][1].percpu' "$R.1")" \
	"bare percpu is percpu on"
assert_match '2 segments' "$("$KSTAT" report "$R.1" 2>&1 | tr -s ' ')" "report sees two segments"
t0=$(boottime_ns)
assert_ok "$KSTAT" record "$R.d" interval 100ms sections cpu duration 1500ms
t1=$(boottime_ns)
n=$(samples_in "$R.d")
# 1.5 s at 100 ms: the GET and about 15 samples (TCG may drop a few ticks)
((n >= 8 && n <= 18)) || t_fail "duration 1500ms at 100ms: $n samples"
(((t1 - t0) >= 1500000000 && (t1 - t0) < 10000000000)) ||
	t_fail "duration 1500ms took $(((t1 - t0) / 1000000)) ms"
assert_eq "E" "$(kinds "$R.d" | tail -1)" "a duration ends with an end line"
assert_exit 2 "$KSTAT" record "$R.e" duration soon
assert_match 'bad duration "soon"' "$T_ERR" "bad duration"

# ---- memcheck: the lines, the 10 s identity check, stdout, a command -------
# One batch in one valgrind start (~20 s under TCG): 110 samples at 100 ms
# read the identity again once (unchanged: compared, not written).
cat >"$TMPDIR/vg.batch" <<EOT
record $R.v1 interval 100ms sections all percpu on count 110
record - sections cpu count 2
record $R.v2 interval 100ms count 2 -- true
EOT
_t_capture valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
	--errors-for-leak-kinds=definite --log-file="$TMPDIR/vg.log" "$KSTAT" -b "$TMPDIR/vg.batch"
# (valgrind 3.19 knows no pidfd_open: its "--PID-- WARNING: unhandled
# syscall 434" is no error of ours, and record watches the command
# without a pidfd then; errors and leaks are "==PID==" lines)
if ((T_RC != 0)) || grep -q '^==[0-9]*==' "$TMPDIR/vg.log"; then
	head -n 40 "$TMPDIR/vg.log" >&2
	t_fail "valgrind kstat record: exit $T_RC; $(grep -m 1 '==[0-9]*== [A-Z]' "$TMPDIR/vg.log" || echo "$T_ERR")"
fi
printf '%s\n' "$T_OUT" >"$TMPDIR/stdout.rec"	# the guest has no /dev/stdin
assert_eq "HISSE" "$(kinds "$TMPDIR/stdout.rec" | tr -d '\n')" "record - (stdout)"
assert_eq 1 "$(kinds "$R.v1" | grep -c I)" "identity lines of 110 samples of one IRQ set"
assert_eq 110 "$(tail -1 "$R.v1" | jq .end.samples)" "samples under valgrind"
assert_eq '0 null' "$(tail -1 "$R.v2" | jq -r '"\(.end.status) \(.end.signal)"')" "end: true"
t_log "memcheck clean: $(kinds "$R.v1" | tr -d '\n' | cut -c1-20)..."

