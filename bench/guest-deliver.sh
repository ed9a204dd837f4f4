#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-deliver.sh - run in the test guest by scripts/bench-deliver.sh:
# what an unprivileged user's load costs the default stream, for two
# builds of kstat.ko side by side in one guest (build/deliver/old.ko,
# which scripts/bench-deliver.sh puts there, then the repository's),
# ROUNDS rounds alternating them.  For each: the producer's mean build_ns per sample
# (the whole tick, delivery included) quiet, with NETNS user+net
# namespaces each subscribed (tests/tools/nlraw netns-subscribe), and
# under a SUBSCRIBE storm of RATE a second (nlraw subscribe-storm), with
# the spacing of the default stream's samples meanwhile.  One line each:
#   ko=K round=R phase=P samples=N spacing_ms=MIN..MAX missing=G us_per_sample=U
# into the results share and stderr.  Not a test.
# timeout: 3000
source tests/lib.sh

out=${BENCH_OUT:-/run/kstat-results/bench}
mkdir -p "$out"
kos=("$KSTAT_KO")
[[ ! -f build/deliver/old.ko ]] || kos=(build/deliver/old.ko "$KSTAT_KO")
rounds=${ROUNDS:-2}
netns=${NETNS:-256}
rate=${RATE:-1000}
interval=${INTERVAL:-1000}
secs=${SECS:-10}
NOCAPS=(--reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all)
nobody() { setpriv "${NOCAPS[@]}" -- "$@"; }

build_ns() { "$KSTAT" -j stats show | jq -r '"\(.samples_taken) \(.build_ns_total)"'; }

# phase NAME READY CMD...: run CMD; once its output has a line starting
# with READY (at once for ""), report on the window until it ends.
phase() {
	local name=$1 ready=$2 pid from to s0 b0 s1 b1
	shift 2
	"$@" >"$TMPDIR/phase" 2>&1 &
	pid=$!
	[[ -z $ready ]] || wait_until 300 grep -q "^$ready" "$TMPDIR/phase"
	from=$(boottime_ns)
	read -r s0 b0 < <(build_ns)
	wait "$pid" || { cat "$TMPDIR/phase" >&2; t_fail "$name: $*"; }
	to=$(boottime_ns)
	read -r s1 b1 < <(build_ns)
	read -r n min max gaps < <(monitor_spacing "$TMPDIR/mon" "$from" "$to")
	echo "ko=$ko round=$r phase=$name samples=$n spacing_ms=$min..$max missing=$gaps" \
		"us_per_sample=$(((b1 - b0) / ((s1 - s0) > 0 ? (s1 - s0) : 1) / 1000))" |
		tee -a "$out/deliver.txt" >&2
	grep -E '^(netns|messages|storm):' "$TMPDIR/phase" | sed "s/^/ko=$ko round=$r /" |
		tee -a "$out/deliver.txt" >&2 || true
}

: >"$out/deliver.txt"
irqsim_load irqs=512
for r in $(seq "$rounds"); do
	for k in "${!kos[@]}"; do
		ko=$k
		kstat_unload
		insmod "${kos[k]}" || t_fail "insmod ${kos[k]}"
		"$KSTAT" config set interval "$interval" batch 1 percpu on
		timeout -s INT 600 "$KSTAT" -j monitor >"$TMPDIR/mon" &
		mon=$!
		monitor_wait 60 "$TMPDIR/mon" 2
		phase quiet "" sleep "$secs"
		phase netns netns: nobody tests/tools/nlraw netns-subscribe "$netns" "$secs"
		phase storm "" nobody tests/tools/nlraw subscribe-storm "$rate" "$secs" 2
		kill -INT "$mon"
		wait "$mon" || true
		# the namespaces go in the background: let them before the next
		sleep 5
	done
done
