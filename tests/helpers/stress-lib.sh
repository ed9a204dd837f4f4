# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/helpers/stress-lib.sh - the concurrent load shared by tests/stress.sh
# (short, in make check) and tests/long/*.sh (make stress).  Not a test:
# source it after tests/lib.sh.
#
#   subscribers  N `kstat monitor` processes, each piped through
#                monitor-check.awk (sample count, losses, unnoticed seq
#                jumps), and their sockets' Drops
#   GET loops    N loops over a mix of kstat do/dump requests and nlraw
#                dumps (a 4 KiB reader and a 1 MiB one)
#   config       a configuration change every 10 ms (config-changer.py
#                into one `kstat -b -`)
#   unload       rmmod/insmod cycles under that load, each with N fresh
#                subscriber sockets (subscribers.py, one process) and a
#                slow dump in flight at rmmod time (stress_cycles)
#
# The figures go to the test log (t_log) and to $STRESS_DIR/figures.

STRESS_DIR=$TMPDIR/stress
NLRAW=$KSTAT_ROOT/tests/tools/nlraw
HELPERS=$KSTAT_ROOT/tests/helpers

# The GET mix; loop i starts at entry i.  Paths have no blanks.
STRESS_MIX=(
	"$KSTAT -j cpu show"
	"$KSTAT irq show"
	"$KSTAT softirq show"
	"$KSTAT stat"
	"$KSTAT interrupts"
	"$NLRAW dump-irqs 4096"
	"$KSTAT -j irq show percpu"
	"$KSTAT softirq show percpu"
	"$KSTAT cpu show total"
	"$NLRAW dump-irqs 1048576"
	"$KSTAT -j stats"
	"$KSTAT -j config show"
)

STRESS_BG=()		# GET loops and the config changer
SUB_PIDS=()		# kstat monitor processes
SUB_AWK=()		# their checkers

stress_init() {
	[[ -x $NLRAW ]] || t_fail "$NLRAW is not built (make tools)"
	mkdir -p "$STRESS_DIR"
	rm -f "$STRESS_DIR/stop"
	: >"$STRESS_DIR/figures"
	t_cleanup stress_kill
	t_cleanup config_reset
}

# A figure for the report: in the log and in $STRESS_DIR/figures.
figure() {
	t_log "$*"
	echo "$*" >>"$STRESS_DIR/figures"
}

# Cleanup, also after a failure: nothing of ours keeps running.
stress_kill() {
	touch "$STRESS_DIR/stop"
	kill "${SUB_PIDS[@]}" "${STRESS_BG[@]}" 2>/dev/null
	wait "${SUB_PIDS[@]}" "${SUB_AWK[@]}" "${STRESS_BG[@]}" 2>/dev/null
	return 0
}

_stopped() { [[ -e $STRESS_DIR/stop ]]; }

# With STRESS_NICE set (the unload cycles), the GET loops and the config
# changer run at nice 19: they take every idle CPU cycle, and the
# cycles' own steps still run at once (2 TCG CPUs, a process start costs
# seconds when 9 busy loops compete with it on equal terms).
_renice_load() {
	[[ -z ${STRESS_NICE:-} ]] || renice -n 19 -p "$BASHPID" >/dev/null
}

# ---- subscribers ----------------------------------------------------------

# stress_subs_start N: N `kstat monitor`, each checked as it streams.
stress_subs_start() {
	local i fifo
	local -a fifos=()
	SUB_PIDS=() SUB_AWK=()
	rm -f "$STRESS_DIR"/sub.*
	for ((i = 0; i < $1; i++)); do
		fifos+=("$STRESS_DIR/sub.$i.fifo")
	done
	mkfifo "${fifos[@]}"
	for ((i = 0; i < $1; i++)); do
		fifo=${fifos[i]}
		awk -v others="$STRESS_DIR/sub.$i.other" -f "$HELPERS/monitor-check.awk" \
			<"$fifo" >"$STRESS_DIR/sub.$i.sum" &
		SUB_AWK+=($!)
		"$KSTAT" monitor >"$fifo" 2>&1 &
		SUB_PIDS+=($!)
	done
}

# stress_subs_drops: the Drops of each subscriber's group socket into
# sub.I.drops, while they still run.
stress_subs_drops() {
	local i pid drops
	local -A by_pid=()
	while read -r pid _ _ _ _ drops _; do
		by_pid[$pid]=$drops
	done < <(python3 "$HELPERS/nlsock.py" "${SUB_PIDS[@]}" | awk '$5 != "00000000"')
	for i in "${!SUB_PIDS[@]}"; do
		echo "${by_pid[${SUB_PIDS[i]}]:-none}" >"$STRESS_DIR/sub.$i.drops"
	done
}

# stress_subs_stop: SIGINT (a clean exit), then check what each saw.
# Sets SUBS_SAMPLES (total), SUBS_LOST, SUBS_EVENTS, SUBS_DROPS; fails on
# any unnoticed gap, stray line or bad exit, and on a loss reported where
# the kernel dropped nothing for that socket.
stress_subs_stop() {
	local i rc line samples lost events unnoticed other drops
	local -a per=()
	kill -INT "${SUB_PIDS[@]}" 2>/dev/null || true
	for i in "${!SUB_PIDS[@]}"; do
		rc=0
		wait "${SUB_PIDS[i]}" || rc=$?
		wait "${SUB_AWK[i]}" || true
		((rc == 0)) || t_fail "subscriber $i exited with status $rc: $(head -c 300 "$STRESS_DIR/sub.$i.other" 2>/dev/null)"
	done
	SUBS_SAMPLES=0 SUBS_LOST=0 SUBS_EVENTS=0 SUBS_DROPS=0
	for i in "${!SUB_PIDS[@]}"; do
		line=$(<"$STRESS_DIR/sub.$i.sum")
		drops=$(<"$STRESS_DIR/sub.$i.drops")
		[[ $drops != none ]] || t_fail "subscriber $i had no socket in the group"
		read -r _ samples _ lost _ events _ unnoticed _ _ _ other _ <<<"$line"
		((unnoticed == 0)) || t_fail "subscriber $i: $unnoticed seq jumps without a loss report ($line)"
		((other == 0)) || t_fail "subscriber $i: unexpected output: $(head -c 300 "$STRESS_DIR/sub.$i.other")"
		((samples > 0)) || t_fail "subscriber $i received no sample ($line)"
		((lost == 0 || drops > 0)) ||
			t_fail "subscriber $i reported $lost lost, but its socket dropped nothing"
		per+=("$samples/$lost/$drops")
		SUBS_DROPS=$((SUBS_DROPS + drops))
		SUBS_SAMPLES=$((SUBS_SAMPLES + samples))
		SUBS_LOST=$((SUBS_LOST + lost))
		SUBS_EVENTS=$((SUBS_EVENTS + events))
	done
	figure "subscribers: ${#SUB_PIDS[@]}, samples/lost/socket drops each: ${per[*]}"
	figure "subscribers: $SUBS_SAMPLES samples received, $SUBS_LOST lost in $SUBS_EVENTS loss reports, 0 unnoticed; sockets dropped $SUBS_DROPS messages"
	SUB_PIDS=() SUB_AWK=()
}

# ---- GET loops ------------------------------------------------------------

# _module_gone_err FILE: the failure in FILE is one the module's absence
# explains: kstat's "kstat: ..." message (not loaded, or the family went
# away mid-request), nlraw's "cannot find the kstat family" or a request
# the kernel refused ("result -1").  Not what nlraw dump-irqs finds wrong
# in a dump it read whole (exit 1 after "result 0").
_module_gone_err() {
	local first
	read -r first <"$1" || return 1
	[[ $first == "kstat: "* || $first == "nlraw: cannot find the kstat family"* ||
		$first == *" result -1 "* ]]
}

# _get_loop I UNLOAD: run the mix from entry I until stopped.  Writes
# "ok N failed F expected E" to get.I.res.  With UNLOAD=1 the module comes
# and goes: a failure with exit 1 that _module_gone_err explains is
# expected; a crash, a usage error or a silent failure never is.
_get_loop() {
	set +e
	trap - ERR EXIT
	local i=$1 unload=$2 k=$1 ok=0 failed=0 expected=0 rc cmd
	local err=$STRESS_DIR/get.$i.err
	_renice_load
	while ! _stopped; do
		cmd=${STRESS_MIX[k % ${#STRESS_MIX[@]}]}
		k=$((k + 1))
		# nlraw says why it failed on stdout ("result -1 ..."), kstat
		# on stderr.
		# shellcheck disable=SC2086  # the mix entries are word lists
		if [[ $cmd == "$NLRAW "* ]]; then
			$cmd >"$err" 2>&1
		else
			$cmd >/dev/null 2>"$err"
		fi
		rc=$?
		if ((rc == 0)); then
			ok=$((ok + 1))
		elif ((unload && rc == 1)) && _module_gone_err "$err"; then
			expected=$((expected + 1))
			head -n 1 "$err" >>"$STRESS_DIR/get.$i.expected"
		else
			failed=$((failed + 1))
			echo "exit $rc: ${cmd#"$KSTAT_ROOT"/}: $(head -c 300 "$err")" >>"$STRESS_DIR/get.$i.fail"
		fi
	done
	echo "ok $ok failed $failed expected $expected" >"$STRESS_DIR/get.$i.res"
}

stress_gets_start() {
	local i
	rm -f "$STRESS_DIR"/get.* "$STRESS_DIR/stop"
	for ((i = 0; i < $1; i++)); do
		_get_loop "$i" "$2" &
		STRESS_BG+=($!)
	done
}

# ---- configuration changes --------------------------------------------------

# _config_loop UNLOAD: config-changer.py into `kstat -b -`, restarted when
# kstat stops at a failing line (expected only while the module is out).
# Writes "applied A failed F expected E" to config.res.
_config_loop() {
	set +e
	trap - ERR EXIT
	local unload=$1 applied=0 failed=0 expected=0 n line rc run=0
	local err=$STRESS_DIR/config.err state=$STRESS_DIR/config.state
	_renice_load
	while ! _stopped; do
		run=$((run + 1))
		python3 "$HELPERS/config-changer.py" "$STRESS_DIR/stop" "$state" |
			"$KSTAT" -b - >/dev/null 2>"$err"
		rc=${PIPESTATUS[1]}
		n=$(head -n 1 "$state" 2>/dev/null)
		if ((rc == 0)); then
			applied=$((applied + ${n:-0}))
			continue
		fi
		line=$(sed -n 's/^kstat: <stdin>:\([0-9]*\): .*/\1/p' "$err" | head -n 1)
		applied=$((applied + ${line:-1} - 1))
		if ((unload && rc == 1)) && [[ -n $line ]]; then
			expected=$((expected + 1))
			head -n 1 "$err" >>"$STRESS_DIR/config.expected"
		else
			failed=$((failed + 1))
			echo "exit $rc: $(head -c 300 "$err")" >>"$STRESS_DIR/config.fail"
			sleep 0.1
		fi
	done
	echo "applied $applied failed $failed expected $expected runs $run" >"$STRESS_DIR/config.res"
}

stress_config_start() {
	rm -f "$STRESS_DIR"/config.*
	_config_loop "$1" &
	STRESS_BG+=($!)
}

# stress_bg_stop: stop the GET loops and the config changer; collect.
# Sets GETS_OK, GETS_FAILED, GETS_EXPECTED, CONFIG_APPLIED, CONFIG_FAILED.
stress_bg_stop() {
	local f ok failed expected
	touch "$STRESS_DIR/stop"
	wait "${STRESS_BG[@]}" 2>/dev/null || true
	STRESS_BG=()
	GETS_OK=0 GETS_FAILED=0 GETS_EXPECTED=0
	for f in "$STRESS_DIR"/get.*.res; do
		read -r _ ok _ failed _ expected <"$f"
		GETS_OK=$((GETS_OK + ok))
		GETS_FAILED=$((GETS_FAILED + failed))
		GETS_EXPECTED=$((GETS_EXPECTED + expected))
	done
	read -r _ CONFIG_APPLIED _ CONFIG_FAILED _ CONFIG_EXPECTED _ _ <"$STRESS_DIR/config.res"
	figure "GETs: $GETS_OK completed, $GETS_FAILED failed, $GETS_EXPECTED failed as expected (module out)"
	figure "config changes: $CONFIG_APPLIED applied, $CONFIG_FAILED failed, $CONFIG_EXPECTED failed as expected (module out)"
	if [[ -n $(compgen -G "$STRESS_DIR/get.*.expected") ]]; then
		t_log "expected GET failures, by message:"
		sed 's/[0-9][0-9]*/N/g' "$STRESS_DIR"/get.*.expected | sort | uniq -c | sort -rn | head -n 8 >&2
	fi
	if ((GETS_FAILED)); then
		cat "$STRESS_DIR"/get.*.fail | head -n 10 >&2
		t_fail "$GETS_FAILED GET requests failed"
	fi
	if ((CONFIG_FAILED)); then
		head -n 10 "$STRESS_DIR/config.fail" >&2
		t_fail "$CONFIG_FAILED config changes failed"
	fi
}

# stress_config_check: `kstat -j config show` is what the last lines set.
stress_config_check() {
	local want got
	want=$(sed -n 2p "$STRESS_DIR/config.state")
	got=$("$KSTAT" -j config show)
	python3 -c '
import json, sys
want, got = json.loads(sys.argv[1]), json.loads(sys.argv[2])
bad = {k: (v, got.get(k)) for k, v in want.items() if got.get(k) != v}
sys.exit(f"config after the changes: {bad}" if bad else 0)' "$want" "$got" ||
		t_fail "the last configuration written is not in force: want $want, got $got"
}

# ---- checks after the load ------------------------------------------------

# stress_bracket: kstat stat/interrupts/softirqs between two /proc reads.
stress_bracket() {
	local what d
	for what in stat interrupts softirqs; do
		d=$STRESS_DIR/bracket.$what
		cat "/proc/$what" >"$d.before"
		"$KSTAT" "$what" >"$d.kstat" || t_fail "kstat $what failed"
		cat "/proc/$what" >"$d.after"
		cat /proc/interrupts >"$d.interrupts"
		python3 "$HELPERS/bracket.py" "$what" "$d.before" "$d.kstat" \
			"$d.after" "$d.interrupts" ||
			t_fail "after the load, kstat $what does not bracket /proc/$what"
	done
	figure "bracket: kstat stat, interrupts, softirqs lie between /proc reads"
}

# stress_kstats NAME: the producer's counters into stats.NAME.
stress_kstats() {
	"$KSTAT" -j stats >"$STRESS_DIR/stats.$1"
}

# stress_kstats_figures A B: the counters' growth from A to B.
stress_kstats_figures() {
	figure "kernel: $(jq -r -s '.[0] as $a | .[1] as $b |
		["ticks", "samples", "messages", "delivery_failures",
		 "alloc_failures"] |
		map("\(.) +\($b[.] - $a[.])") | join(", ")' \
		"$STRESS_DIR/stats.$1" "$STRESS_DIR/stats.$2")"
}

# ---- the whole concurrency run --------------------------------------------

# stress_run SECONDS SUBS GETS: the load of issue 6 point 4 for SECONDS,
# then every check.
stress_run() {
	local secs=$1 subs=$2 gets=$3
	stress_init
	stress_kstats before
	stress_subs_start "$subs"
	stress_gets_start "$gets" 0
	stress_config_start 0
	t_log "load running: $subs subscribers, $gets GET loops, config changes every 10 ms, ${secs}s"
	sleep "$secs"
	stress_bg_stop
	stress_config_check
	config_reset
	stress_subs_drops
	stress_subs_stop
	stress_kstats after
	stress_kstats_figures before after
	stress_bracket
}

# ---- unload cycles ----------------------------------------------------------

# CLOCK_BOOTTIME (the samples' clock) minus the realtime clock, in µs:
# then ${EPOCHREALTIME/./} + offset is boottime without a process.
_boot_offset_us() {
	python3 -c 'import time; print((time.clock_gettime_ns(time.CLOCK_BOOTTIME) - time.time_ns()) // 1000)'
}

# _nap SECS: sleep without starting a process (they are slow under load).
_nap() {
	[[ -n ${_NAP_FD:-} ]] || exec {_NAP_FD}<> <(:)
	read -r -t "$1" -u "$_NAP_FD" || true
}

# _rmmod_retry: rmmod until it works; sets RMMOD_TRIES, RMMOD_FIRST_ERR.
_rmmod_retry() {
	local err
	RMMOD_TRIES=0 RMMOD_FIRST_ERR=
	while ((RMMOD_TRIES < 600)); do
		RMMOD_TRIES=$((RMMOD_TRIES + 1))
		err=$(rmmod kstat 2>&1) && return 0
		[[ -n $RMMOD_FIRST_ERR ]] || RMMOD_FIRST_ERR=$err
		_nap 0.05
	done
	t_fail "rmmod kstat kept failing for 30 s: $err"
}

# stress_cycles N SUBS UNLOAD: N cycles of: SUBS subscriber sockets (one
# subscribers.py process) until each has a notification, a slow dump (4
# KiB reads, 300 ms apart) started, and with UNLOAD=1 rmmod (retried
# while busy) and insmod; with UNLOAD=0 the same without the reload (the
# control).  After each rmmod: the dump completed, no subscriber socket
# is still in a group, and no sample taken after rmmod returned reached
# any.  Sets CYC_SAMPLES, CYC_BUSY_FIRST (rmmod refused at first),
# CYC_TRIES (rmmod calls), CYC_DUMP_LATE (the dump had not begun when
# rmmod went through, and failed to find the family: not an error).
stress_cycles() {
	local n=$1 subs=$2 unload=$3 cycle gone off sp dump rc left late
	local ready=$STRESS_DIR/subs.ready out=$STRESS_DIR/subs.out
	off=$(_boot_offset_us)
	CYC_SAMPLES=0 CYC_BUSY_FIRST=0 CYC_TRIES=0 CYC_DUMP_LATE=0
	for ((cycle = 1; cycle <= n; cycle++)); do
		kstat_loaded || kstat_load_interval 50
		rm -f "$ready"
		python3 "$HELPERS/subscribers.py" "$subs" "$ready" >"$out" 2>"$STRESS_DIR/subs.err" &
		sp=$!
		SUB_PIDS=("$sp")
		for _ in {1..600}; do
			if [[ -e $ready ]] || ! kill -0 "$sp" 2>/dev/null; then break; fi
			_nap 0.1
		done
		[[ -e $ready ]] || t_fail "cycle $cycle: not every subscriber got a notification: $(<"$STRESS_DIR/subs.err")"
		"$NLRAW" dump-irqs 4096 300 >"$STRESS_DIR/dump.out" 2>&1 &
		dump=$!
		_nap 0.3
		# until something (most likely that dump) holds the module
		for _ in {1..50}; do
			read -r rc </sys/module/kstat/refcnt
			((rc == 0)) || break
			_nap 0.1
		done
		if ((unload)); then
			_rmmod_retry
			gone=$((${EPOCHREALTIME/./} + off))
			[[ -z $RMMOD_FIRST_ERR ]] || CYC_BUSY_FIRST=$((CYC_BUSY_FIRST + 1))
			CYC_TRIES=$((CYC_TRIES + RMMOD_TRIES))
		fi
		rc=0
		wait "$dump" || rc=$?
		if ((rc != 0)); then
			# rmmod went through at once: the dump had not begun, and
			# found the family gone.  After a refusal it must complete.
			if ! ((unload)) || [[ -n $RMMOD_FIRST_ERR ]]; then
				t_fail "cycle $cycle: the slow dump failed (exit $rc): $(<"$STRESS_DIR/dump.out")"
			fi
			CYC_DUMP_LATE=$((CYC_DUMP_LATE + 1))
		fi
		((unload)) && _nap 0.2
		kill -INT "$sp"
		rc=0
		wait "$sp" || rc=$?
		SUB_PIDS=()
		((rc == 0)) || t_fail "cycle $cycle: subscribers.py exit $rc: $(<"$STRESS_DIR/subs.err")"
		# INDEX MESSAGES SAMPLES MAX_TIMESTAMP_NS MAX_RECEIVED_NS MEMBER:
		# after rmmod, no socket may be in a group or have a sample taken
		# later; without, every one must still be in the group.
		read -r late left rc < <(awk -v g="$((${gone:-0} * 1000))" -v u="$unload" '
			u && $4 + 0 > g + 0 { late++ } $6 != !u { left++ } { s += $3 }
			END { print late + 0, left + 0, s + 0 }' "$out")
		((late == 0)) || t_fail "cycle $cycle: $late subscribers got samples taken after rmmod returned: $(<"$out")"
		((left == 0)) || t_fail "cycle $cycle: $left subscriber sockets $( ((unload)) && echo "still in" || echo "not in") the group: $(<"$out")"
		CYC_SAMPLES=$((CYC_SAMPLES + rc))
		((cycle % 10)) || t_log "cycle $cycle/$n: $CYC_SAMPLES samples so far, rmmod refused first $CYC_BUSY_FIRST times"
	done
	kstat_loaded || _t_insmod "$KSTAT_KO"
}

# ---- memory -----------------------------------------------------------------

# stress_mem_snapshot NAME: slabinfo and MemAvailable with the load stopped
# and the caches dropped.
stress_mem_snapshot() {
	local f
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	echo 3 >/proc/sys/vm/drop_caches
	# Flush the CPU slabs, which slabinfo counts as in use whole.
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 2>/dev/null >"$f" || true
	done
	cat /proc/slabinfo >"$STRESS_DIR/slab.$1"
	awk '/^MemAvailable:/ { print $2 }' /proc/meminfo >"$STRESS_DIR/memavail.$1"
}
