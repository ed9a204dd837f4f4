#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that an IRQ whose per-CPU record is too large for one summary
# chunk is split into pieces and put back together (issue 26): with the
# test-only module parameter percpu_split_words=3, every record above 3
# words (an IRQ with counts on 2 CPUs or more, 8 possible CPUs) goes in
# pieces of one CPU each, in keyframes and deltas.  What libkstat makes
# of them (kstat monitor) is /proc/interrupts' per-CPU counts, and a
# delta's increment counts once.  In the kernel, pieces are cut at 2048
# words: an IRQ that fires on more than about 1024 of more than 2048 CPUs.
# Needs 3 CPUs: make check's 8-CPU boot runs it.
# timeout: 180
# also: SMP=8
source tests/lib.sh

require_cmd jq
require_cpus 3
cpus=$(getconf _NPROCESSORS_ONLN)
possible=$(possible_cpus)
n=8
irqsim_load irqs=$n
t_cleanup irqsim_unload
for ((i = 0; i < n; i++)); do
	for c in 0 1 2; do echo "$i $c $((i + c + 1))"; done
done >"$IRQSIM_DIR/fire"
read -r first last < <(awk 'NR == 1 { f = $2 } { l = $2 } END { print f, l }' \
	"$IRQSIM_DIR/irqs")

param=/sys/module/kstat/parameters/percpu_split_words
echo 3 >"$param" || t_fail "cannot set $param"
t_cleanup eval "echo 0 > $param"
"$KSTAT" config set interval 250 keyframe 8 batch 1 percpu on
t_cleanup "$KSTAT" config set interval 1000 keyframe 10 batch 1 percpu off
failed=$(jq -r .alloc_failures <<<"$("$KSTAT" -j stats)")

timeout -s INT "$(t_scaled 60)" "$KSTAT" -j monitor >"$TMPDIR/all" &
mon=$!
t_cleanup t_kill "$mon"
monitor_wait 20 "$TMPDIR/all" 2
at=$(wc -l <"$TMPDIR/all")
irq0=$(irqsim_irq 0)
# in_delta: a delta since line $at carried IRQ 0 (else it fell in a keyframe)
in_delta() {
	tail -n +$((at + 1)) "$TMPDIR/all" |
		jq -e -s "any(.[]; .keyframe == false and any(.irq[]?; .irq == $irq0))" >/dev/null
}
for try in 1 2 3; do
	seen=$(monitor_count "$TMPDIR/all")
	irqsim_fire 0 1 3	# a delta: IRQ 0 grows by 3 on CPU 1
	monitor_wait 20 "$TMPDIR/all" $((seen + 2))
	in_delta && break
	t_log "try $try: IRQ 0's change came in a keyframe; again"
done
in_delta || t_fail "no delta carried IRQ 0 in 3 tries"
irqsim_fire 1 2 2
# then a keyframe after the firing; what came after it began is checked
done_at=$(wc -l <"$TMPDIR/all")
key_after() { tail -n +$((done_at + 1)) "$TMPDIR/all" | grep -q '"keyframe":true'; }
wait_until 30 key_after
kill -INT "$mon"
wait "$mon" || true
tail -n +$((at + 1)) "$TMPDIR/all" >"$TMPDIR/m"
assert_eq "$failed" "$(jq -r .alloc_failures <<<"$("$KSTAT" -j stats)")" "alloc_failures"
assert_match '"keyframe":false' "$(cat "$TMPDIR/m")" "deltas among the samples"

awk -v n="$cpus" '/kstat-sim/ { sub(":", "", $1); line = $1;
	for (c = 2; c <= n + 1; c++) line = line " " $c; print line }' \
	/proc/interrupts | sort -n >"$TMPDIR/proc"

# rows SELECT [FILE]: "irq count c0 c1 ..." of the sim IRQs in the
# sample SELECT picks (of FILE, default the samples since the firing)
rows() {
	jq -n -r --argjson f "$first" --argjson l "$last" \
		'[inputs | select(.irq != null)] | '"$1"' | .irq[] |
		select(.irq >= $f and .irq <= $l) |
		"\(.irq) \(.count) \(.percpu | map(tostring) | join(" "))"' "${2:-$TMPDIR/m}"
}
# check ROWS WHAT: each row is /proc's and sums to its count; NEED rows
check() {
	awk -v n="$cpus" -v p="$possible" -v need="$3" -v what="$2" '
		NR == FNR { want[$1] = $0; next }
		{	seen++; line = $1; sum = 0
			if (NF != p + 2) { print what ": IRQ " $1 ": " NF - 2 " per-CPU counts"; bad = 1; next }
			for (c = 3; c <= NF; c++) sum += $c
			for (c = 3; c < 3 + n; c++) line = line " " $c
			if (line != want[$1]) { print what ": IRQ " $1 ": " line ", /proc: " want[$1]; bad = 1 }
			if (sum != $2) { print what ": IRQ " $1 ": per-CPU sum " sum ", count " $2; bad = 1 }
		}
		END { if (seen != need) { print what ": " seen " IRQs, not " need; bad = 1 }; exit bad }
	' "$TMPDIR/proc" "$1" || t_fail "$2: per-CPU counts differ from /proc (above)"
}
tail -n +$((done_at + 1)) "$TMPDIR/all" >"$TMPDIR/after"
rows 'map(select(.keyframe == true)) | last' "$TMPDIR/after" >"$TMPDIR/key"
check "$TMPDIR/key" "the last keyframe" "$n"
rows 'map(select(.keyframe == false and any(.irq[]; .irq == '"$irq0"'))) | last' |
	awk -v i="$irq0" '$1 == i' >"$TMPDIR/delta"
check "$TMPDIR/delta" "the delta after the firing" 1
