#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export-scrape-cost.sh - a measurement, not a test: the exporter's
# process CPU per sample with nobody scraping, and per scrape with a
# scrape every 3 s (gzip, as Prometheus asks) at 1 s samples, for two
# kstat binaries side by side in one guest: $BASE_KSTAT (default
# build/export-base/userspace/cli/kstat, e.g. main's: see below) and this
# tree's.  Both subscribe at once, each to its own 1 s samples (both
# binaries of protocol 5: --interval, --percpu).  Run in a guest
# (2800 synthetic IRQs from tests/irqsim), with per-CPU counts off and on:
#
#   git archive main userspace include | tar -x -C build/export-base
#   make -C build/export-base/userspace cli/kstat
#   SMP=2 TEST_TIMEOUT=900 tests/vm/run-guest.sh scripts/export-scrape-cost.sh
#   cat build/vm/results/logs/scripts_export-scrape-cost.sh.log
#
# CPU is the process's sum_exec_runtime (/proc/PID/schedstat, ns).
# Figures: docs/exporter.md, "What a scrape costs".
# timeout: 900
source tests/lib.sh
require_cmd curl
require_kstat

BASE=${BASE_KSTAT:-$KSTAT_ROOT/build/export-base/userspace/cli/kstat}
[[ -x $BASE ]] || t_fail "no base binary $BASE (see the header)"
IRQS=${IRQS:-2800}
QUIET_S=${QUIET_S:-30}
SCRAPES=${SCRAPES:-10}
EVERY_S=${EVERY_S:-3}

irqsim_load "irqs=$IRQS"
t_cleanup irqsim_unload

cpu_ns() { local a; read -r a _ < "/proc/$1/schedstat"; echo "$a"; }
samples() { curl -sS --compressed --max-time 30 "$1" | awk '$1 == "kstat_exporter_samples_total" { print $2 }'; }

# run PERCPU: both exporters, a quiet phase, then a scraped one.
run() {
	local percpu=$1 name bin port pid url i
	local -A pids urls c0 c1 c2 s0 s1 s2
	local pflag=()
	[[ $percpu == off ]] || pflag=(--percpu)
	port=19600
	for name in base new; do
		bin=$BASE
		[[ $name == new ]] && bin=$KSTAT
		# the exporter's own subscription (protocol 5): 1 s, per-CPU
		# counts with --percpu
		"$bin" export prometheus --listen "127.0.0.1:$port" --interval 1000 \
			"${pflag[@]}" 2>"$TMPDIR/$name.err" &
		pids[$name]=$!
		t_cleanup t_kill "${pids[$name]}"
		urls[$name]=http://127.0.0.1:$port/metrics
		port=$((port + 1))
	done
	for name in base new; do
		url=${urls[$name]}
		up() { grep -qx 'kstat_exporter_up 1' <<<"$(curl -sS --max-time 30 "$url" 2>/dev/null)"; }
		wait_until 60 up
	done
	sleep 2
	for name in base new; do
		s0[$name]=$(samples "${urls[$name]}")
		c0[$name]=$(cpu_ns "${pids[$name]}")
	done
	sleep "$QUIET_S"
	for name in base new; do
		c1[$name]=$(cpu_ns "${pids[$name]}")
		s1[$name]=$(samples "${urls[$name]}")
	done
	for ((i = 0; i < SCRAPES; i++)); do
		sleep "$EVERY_S"
		for name in base new; do
			curl -sS --compressed --max-time 30 -o /dev/null "${urls[$name]}"
		done
	done
	for name in base new; do
		c2[$name]=$(cpu_ns "${pids[$name]}")
		s2[$name]=$(samples "${urls[$name]}")
	done
	# (the scraped phase: the scrape that read s1, then SCRAPES more)
	for name in base new; do
		# the quiet phase's sample count: between its two scrapes
		local qs=$((s1[$name] - s0[$name])) ss=$((s2[$name] - s1[$name]))
		local qcpu=$((c1[$name] - c0[$name])) scpu=$((c2[$name] - c1[$name]))
		printf 'RESULT percpu=%s %-4s quiet: %d samples, %d us CPU, %d us/sample | scraped: %d scrapes, %d samples, %d us CPU, %d us/scrape, %d us/scrape beyond the samples\n' \
			"$percpu" "$name" "$qs" $((qcpu / 1000)) $((qcpu / 1000 / (qs ? qs : 1))) \
			$((SCRAPES + 1)) "$ss" $((scpu / 1000)) $((scpu / 1000 / (SCRAPES + 1))) \
			$(((scpu - qcpu * ss / (qs ? qs : 1)) / 1000 / (SCRAPES + 1)))
		t_term "${pids[$name]}" 10
	done
}

t_log "$(nproc) CPUs, $IRQS synthetic IRQs, 1 s samples; quiet ${QUIET_S} s, then $SCRAPES scrapes every ${EVERY_S} s (gzip)"
run off
run on
