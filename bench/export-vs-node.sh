# SPDX-License-Identifier: GPL-2.0
#
# bench/export-vs-node.sh - sourced by bench/guest-bench-seed.sh (tests/lib.sh
# loaded, the IRQs in place): `kstat export prometheus` beside Debian's
# prometheus-node-exporter with only the collectors that export the same
# counters (cpu, stat with softirq, interrupts), in one boot.  Both are
# scraped with gzip, as Prometheus does, each by its own loop: a scrape,
# then EXPORT_EVERY_S seconds, again, until node_exporter has had
# EXPORT_NODE_SCRAPES.  The figure is process CPU (utime + stime of
# /proc/PID/stat, every thread) per scrape, over that one window; the
# kernel's summaries come every second, so the exporter's share includes
# receiving the samples of the window.  The exporter reads a subscription
# of its own (--interval 1000: every section, a sample a second), as the
# shipped unit does.  Run twice: `off` (kstat exports IRQ totals) and `on`
# (--percpu: per-CPU IRQ counts as node_interrupts_total has them).
#
# The kstat exporter runs as the shipped unit runs it: uid 65534, no
# capability (so SO_RCVBUFFORCE fails and the receive buffer is capped at
# net.core.rmem_max, left at the boot's default).  The exporter's lost
# samples, the buffer it got (ss) and the bytes of a whole sample (STATS
# bytes / samples over the scraped window, kstat-bench stats) are
# recorded: a reader's buffer must hold one sample, all its parts.
#
# Lines written to $1 (report-seed.py reads them):
#   export PERCPU WHO scrapes N cpu_ms MS wall_s S bytes B series N
#   export_quiet PERCPU WHO samples N cpu_ms MS seconds S
#   export_unit percpu P rmem_max B rcvbuf B sample_bytes B lost N samples N up U cpu_series N warnings N
# and # comments.

NODE_EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
EXPORT_EVERY_S=${EXPORT_EVERY_S:-3}
EXPORT_NODE_SCRAPES=${EXPORT_NODE_SCRAPES:-4}
EXPORT_QUIET_S=${EXPORT_QUIET_S:-20}
# The rounds (summaries' percpu), and those with node_exporter beside
# kstat; a round without it scrapes kstat for EXPORT_KSTAT_S seconds
# (node_exporter's cost does not depend on kstat's config).
EXPORT_ROUNDS=${EXPORT_ROUNDS:-off on}
EXPORT_NODE_ROUNDS=${EXPORT_NODE_ROUNDS:-off on}
EXPORT_KSTAT_S=${EXPORT_KSTAT_S:-90}
KSTAT_PORT=19586
NODE_PORT=9100

# proc_cpu_ms PID: utime + stime of the whole process, in ms.
proc_cpu_ms() {
	local s
	s=$(<"/proc/$1/stat")
	s=${s##*) }
	# shellcheck disable=SC2086  # fields on purpose
	set -- $s
	# after "pid (comm) ": state is field 1, utime 12, stime 13
	echo $(( (${12} + ${13}) * 1000 / $(getconf CLK_TCK) ))
}

# uid 65534 without capabilities; setpriv started directly with &, so
# that $! is the process measured (a function run with & is a subshell).
NOBODY=(setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all --)

ev_metric() {	# URL NAME: the value of an unlabelled metric
	curl -sS --compressed --max-time 600 "$1" | awk -v n="$2" '$1 == n { print $2 }'
}

ev_up() { [[ $(ev_metric "http://127.0.0.1:$KSTAT_PORT/metrics" kstat_exporter_up) == 1 ]]; }
ev_node_up() { curl -sS -o /dev/null --max-time 600 "http://127.0.0.1:$NODE_PORT/metrics"; }

# ev_loop NAME URL STOPFILE MAX: scrape URL until STOPFILE exists (or MAX
# scrapes), a pause of EXPORT_EVERY_S after each; NAME.scrapes, NAME.bytes
# (the last compressed body), NAME.wall (seconds, all scrapes) into $TMPDIR.
ev_loop() {
	local name=$1 url=$2 stop=$3 max=$4 n=0 bytes=0 t0=${EPOCHREALTIME/./} t
	while [[ ! -e $stop ]] && ((n < max)); do
		bytes=$(curl -sS --compressed --max-time 600 -o /dev/null \
			-w '%{size_download}' -H 'Accept-Encoding: gzip' "$url") || bytes=-1
		n=$((n + 1))
		t=${EPOCHREALTIME/./}
		echo "$n $(( (t - t0) / 1000 ))" >"$TMPDIR/$name.progress"
		sleep "$EXPORT_EVERY_S"
	done
	echo "$n" >"$TMPDIR/$name.scrapes"
	echo "$bytes" >"$TMPDIR/$name.bytes"
}

# ev_series URL PREFIX: data lines of one uncompressed scrape whose name
# starts with PREFIX.
ev_series() {
	curl -sS --max-time 600 "$1" | grep -c "^$2" || true
}

# ev_round PERCPU: both exporters started, warmed up, quiet, then scraped
# (node_exporter only if PERCPU is in EXPORT_NODE_ROUNDS).
ev_round() {
	local percpu=$1 node=0 kpid npid= c0k c0n c1k c1n c2k c2n s0 s1 t0 t1 sk sn
	local kurl=http://127.0.0.1:$KSTAT_PORT/metrics nurl=http://127.0.0.1:$NODE_PORT/metrics
	local pflag=()
	[[ $percpu == off ]] || pflag=(--percpu)
	"${NOBODY[@]}" "$KSTAT" export prometheus --listen "127.0.0.1:$KSTAT_PORT" \
		--interval 1000 "${pflag[@]}" 2>"$TMPDIR/kstat-$percpu.err" &
	kpid=$!
	t_cleanup t_kill "$kpid"
	[[ " $EXPORT_NODE_ROUNDS " != *" $percpu "* ]] || node=1
	if ((node)); then
		"${NOBODY[@]}" "$NODE_EXPORTER" --web.listen-address="127.0.0.1:$NODE_PORT" \
			--collector.disable-defaults --collector.cpu --collector.stat \
			--collector.stat.softirq --collector.interrupts \
			2>"$TMPDIR/node-$percpu.err" &
		npid=$!
		t_cleanup t_kill "$npid"
	else
		npid=$$		# a stand-in: this shell, idle
	fi
	wait_until 900 ev_up
	((!node)) || wait_until 1800 ev_node_up	# node_exporter's first (warm-up) scrape
	ev_metric "$kurl" kstat_exporter_samples_total >/dev/null	# kstat's warm-up
	# Quiet: nobody scrapes; what a sample costs kstat, and node's idle.
	s0=$(ev_metric "$kurl" kstat_exporter_samples_total)
	c0k=$(proc_cpu_ms "$kpid") c0n=$(proc_cpu_ms "$npid") t0=$EPOCHSECONDS
	sleep "$EXPORT_QUIET_S"
	c1k=$(proc_cpu_ms "$kpid") c1n=$(proc_cpu_ms "$npid") t1=$EPOCHSECONDS
	s1=$(ev_metric "$kurl" kstat_exporter_samples_total)
	echo "export_quiet $percpu kstat samples $((s1 - s0)) cpu_ms $((c1k - c0k)) seconds $((t1 - t0))"
	((!node)) || echo "export_quiet $percpu node samples 0 cpu_ms $((c1n - c0n)) seconds $((t1 - t0))"
	# Scraped: both loops at once, kstat's until node's is done.
	rm -f "$TMPDIR/node.done"
	read -r KB0 KS0 < <(ev_kstat_stats)
	c1k=$(proc_cpu_ms "$kpid") c1n=$(proc_cpu_ms "$npid") t0=${EPOCHREALTIME/./}
	ev_loop kstat "$kurl" "$TMPDIR/node.done" 100000 &
	sk=$!
	if ((node)); then
		{ ev_loop node "$nurl" "$TMPDIR/never" "$EXPORT_NODE_SCRAPES"; touch "$TMPDIR/node.done"; } &
	else
		{ sleep "$EXPORT_KSTAT_S"; touch "$TMPDIR/node.done"; } &
	fi
	sn=$!
	wait "$sn" "$sk"
	c2k=$(proc_cpu_ms "$kpid") c2n=$(proc_cpu_ms "$npid") t1=${EPOCHREALTIME/./}
	read -r KB1 KS1 < <(ev_kstat_stats)
	echo "export $percpu kstat scrapes $(<"$TMPDIR/kstat.scrapes") cpu_ms $((c2k - c1k))" \
		"wall_s $(( (t1 - t0) / 1000000 )) bytes $(<"$TMPDIR/kstat.bytes")" \
		"series $(ev_series "$kurl" kstat_)"
	((!node)) || echo "export $percpu node scrapes $(<"$TMPDIR/node.scrapes") cpu_ms $((c2n - c1n))" \
		"wall_s $(( (t1 - t0) / 1000000 )) bytes $(<"$TMPDIR/node.bytes")" \
		"series $(ev_series "$nurl" node_)"
	echo "# kstat $percpu: $(ev_series "$kurl" kstat_interrupts_cpu_total) kstat_interrupts_cpu_total," \
		"$(ev_series "$kurl" kstat_interrupts_total) kstat_interrupts_total"
	((!node)) || echo "# node: $(ev_series "$nurl" node_interrupts_total) node_interrupts_total"
	ev_unit "$percpu" "$kpid" "$kurl"
	sed 's/^/# kstat stderr: /' "$TMPDIR/kstat-$percpu.err"
	t_term "$kpid" 30
	if ((node)); then
		grep -v 'level=info' "$TMPDIR/node-$percpu.err" | head -n 5 | sed 's/^/# node stderr: /' || true
		t_term "$npid" 60
	fi
}

# ev_kstat_stats: STATS' "BYTES SAMPLES" (kstat-bench, not the CLI's JSON)
ev_kstat_stats() {
	"$KSTAT_ROOT/bench/kstat-bench" stats |
		awk '$2 == "stats_bytes" { b = $3 } $2 == "stats_samples" { s = $3 } END { printf "%d %d\n", b, s }'
}

# ev_unit PERCPU PID URL: the unit's case: the receive buffer the exporter
# (uid 65534, no capability) got, a whole sample's bytes over the scraped
# window (KB0 KS0 KB1 KS1, ev_round's), whether it lost samples.
ev_unit() {
	local percpu=$1 pid=$2 url=$3 page rb
	page=$(curl -sS --compressed --max-time 120 "$url")
	# The largest receive buffer among its netlink sockets: the
	# subscription's (ss prints the doubled sk_rcvbuf; libkstat halves
	# it).  libnl's ports are the pid plus i << 22, and ss names only the
	# first by its process.
	rb=$(ss -f netlink -m 2>/dev/null | awk -v pid="$pid" '
		match($0, /genl:[^ ]*/) {
			p = substr($0, RSTART + 5, RLENGTH - 5); sub(/.*\//, "", p); p += 0
			if (p < 0) p += 4294967296
			if (p % 4194304 != pid) next
			if (match($0, /rb[0-9]+/)) { r = substr($0, RSTART + 2, RLENGTH - 2) + 0; if (r > m) m = r }
		}
		END { print m + 0 }')
	echo "export_unit percpu $percpu rmem_max $(</proc/sys/net/core/rmem_max)" \
		"rcvbuf $(( ${rb:-0} / 2 )) sample_bytes $(( (KB1 - KB0) / ((KS1 - KS0) > 0 ? (KS1 - KS0) : 1) ))" \
		"lost $(awk '$1 == "kstat_exporter_samples_lost_total" { print $2 }' <<<"$page")" \
		"samples $(awk '$1 == "kstat_exporter_samples_total" { print $2 }' <<<"$page")" \
		"up $(awk '$1 == "kstat_exporter_up" { print $2 }' <<<"$page")" \
		"cpu_series $(grep -c '^kstat_interrupts_cpu_total' <<<"$page")" \
		"warnings $(grep -c 'libkstat: warning' "$TMPDIR/kstat-$percpu.err")"
}

export_vs_node() {
	if [[ ! -x $NODE_EXPORTER ]]; then
		echo "# no $NODE_EXPORTER: install prometheus-node-exporter (scripts/install-deps.sh --bench)"
		return 0
	fi
	echo "# $($NODE_EXPORTER --version 2>&1 | head -n 1)"
	echo "# every ${EXPORT_EVERY_S}s, $EXPORT_NODE_SCRAPES node_exporter scrapes a round ($EXPORT_NODE_ROUNDS; else kstat alone for ${EXPORT_KSTAT_S}s), quiet ${EXPORT_QUIET_S}s"
	local r
	for r in $EXPORT_ROUNDS; do
		ev_round "$r"
	done
}
