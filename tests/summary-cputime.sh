#!/bin/bash
# Proves: packed cputime rows (KSTAT_A_SAMPLE_CPUTIME) survive samples
# split over parts.  At batch 64 and a 10 ms interval, cpu section only,
# a batch takes several 16 KiB parts and the boundaries fall in cputime
# chunks.  Every sample the library applies has every online CPU, then
# the total; the total is the sum of the rows (one reading, possible =
# online CPUs in the guest); no CPU's time goes back (idle and iowait
# alone, between which the kernel moves time, are logged, and their sum
# checked instead); and batches did
# take more than one message.
# also: SMP=8
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10 sections all

online=$(nproc)
possible=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
((online == possible)) || t_skip "$online of $possible CPUs online: the total is not the rows' sum"

"$KSTAT" config set interval 10 batch 64 keyframe 4 sections cpu
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
stop_mon() { kill "$mon" 2>/dev/null || true; }
t_cleanup stop_mon
monitor_wait 120 "$TMPDIR/mon" 300
stop_mon
wait "$mon" 2>/dev/null || true
# Whole lines only, and samples only (a loss is a line of its own).
head -n "$(wc -l <"$TMPDIR/mon")" "$TMPDIR/mon" | jq -c 'select(has("cpu"))' \
	>"$TMPDIR/mon.whole"
[[ ! -s $TMPDIR/mon.err ]] || t_fail "monitor: $(head -3 "$TMPDIR/mon.err")"

n=$(wc -l <"$TMPDIR/mon.whole")
t_log "$n samples, $online CPUs, $(grep -c lost "$TMPDIR/mon") losses"
jq -s -e --argjson n $((online + 1)) \
	'all(.[]; (.cpu | length) == $n and .cpu[-1].cpu == null)' \
	"$TMPDIR/mon.whole" >/dev/null ||
	t_fail "a sample does not have every online CPU, then the total"

fields='["user","nice","system","idle","iowait","irq","softirq","steal","guest","guest_nice"]'
jq -s -e --argjson f "$fields" \
	'all(.[]; .cpu as $c | all($f[]; . as $k |
		([$c[:-1][][$k]] | add) == $c[-1][$k]))' \
	"$TMPDIR/mon.whole" >/dev/null ||
	t_fail "a sample's total is not the sum of its rows"
# Every decrease between consecutive samples: "seq cpu field before
# after", idle+iowait counted as a field of its own.
jq -s -r --argjson f "$fields" \
	'[.[] | {seq, cpu: [.cpu[] | . + {"idle+iowait": (.idle + .iowait)}]}] |
	. as $s | range(1; $s | length) as $i |
		range(0; $s[$i].cpu | length) as $j |
		($f + ["idle+iowait"])[] as $k |
		$s[$i].cpu[$j] as $now | $s[$i - 1].cpu[$j] as $was |
		select($now[$k] < $was[$k]) |
		"\($s[$i].seq) \($now.cpu) \($k) \($was[$k]) \($now[$k])"' \
	"$TMPDIR/mon.whole" >"$TMPDIR/back"
# idle and iowait come from the NO_HZ idle accounting, which may move
# time from one to the other (Documentation/filesystems/proc.rst: iowait
# "will decrease in certain conditions"; /proc/stat shows the same), so
# each alone is logged, not failed.  Their sum, and every other field
# (kernel_cpustat's), only grow: a decrease there is a stale row, even
# on an idle CPU, whose only moving field is idle.
if grep -q ' \(idle\|iowait\) ' "$TMPDIR/back"; then
	t_log "idle or iowait alone went back (seq cpu field before after): $(grep ' \(idle\|iowait\) ' "$TMPDIR/back" | head -3 | tr '\n' ';')"
fi
if grep -vq ' \(idle\|iowait\) ' "$TMPDIR/back"; then
	t_fail "a CPU's time went back between samples (seq cpu field before after): $(grep -v ' \(idle\|iowait\) ' "$TMPDIR/back" | head -3 | tr '\n' ';')"
fi
st=$("$KSTAT" -j stats)
msgs=$(jq .messages_sent <<<"$st")
sums=$(jq .summaries_sent <<<"$st")
t_log "$sums summaries in $msgs messages"
((msgs > sums)) || t_fail "no batch took more than one message ($msgs for $sums)"
