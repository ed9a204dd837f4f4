#!/bin/bash
# Proves: kstat report's format lkp prints the names LKP's parse step makes
# of this guest's /proc/interrupts and /proc/softirqs (the rule written
# here in awk from its description, not from kstat's code), with the same
# values for counters that cannot move between the reads (irqsim's IRQs)
# and values between the two /proc reads around it for the others; and
# format proc prints irqsim's /proc/interrupts lines byte for byte and
# every other line of both files in the same shape (labels, words, width).
# The recording is kstat record's (one sample, per-CPU detail), between
# two reads of /proc.
# timeout: 300
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq awk
require_kstat

irqsim_load irqs=3
t_cleanup irqsim_unload
cpus=$(getconf _NPROCESSORS_ONLN)
irqsim_fire 0 0 5
irqsim_fire 1 $((cpus - 1)) 7
sim0=$(irqsim_irq 0) sim1=$(irqsim_irq 1) sim2=$(irqsim_irq 2)

# ---- the recording ----
# What /proc/interrupts has that this kstat.ko cannot read (its note).
unread=$("$KSTAT" interrupts 2>&1 >/dev/null |
	 sed -n 's/.*cannot read the \(.*\) rows of.*/\1/p')
rec=$TMPDIR/rec.jsonl

# read_all: /proc, kstat's IRQ labels, a recording of one sample, kstat's
# labels, /proc again; true when the IRQ set did not change meanwhile
# (labels, not counts).
labels() { jq -c '.[] | {irq, chip, hwirq, type, actions}' "$1"; }
read_all() {
	t1=$(date +%s)
	cat /proc/interrupts > "$TMPDIR/p1"
	cat /proc/softirqs > "$TMPDIR/s1"
	"$KSTAT" -j irq show > "$TMPDIR/ids1"
	"$KSTAT" record "$rec" percpu on sections all count 1 ||
		t_fail "kstat record FILE percpu on sections all count 1 failed"
	"$KSTAT" -j irq show > "$TMPDIR/ids2"
	cat /proc/interrupts > "$TMPDIR/p2"
	cat /proc/softirqs > "$TMPDIR/s2"
	t2=$(date +%s)
	diff <(labels "$TMPDIR/ids1") <(labels "$TMPDIR/ids2") > "$TMPDIR/diff"
}
# A device of the guest may still be setting up its IRQs: try again.
for try in 1 2 3 4 5; do
	read_all && break
	t_log "the IRQ set changed while reading (try $try): $(cat "$TMPDIR/diff")"
	((try < 5)) || t_fail "the IRQ set kept changing while reading"
	sleep 1
done
[[ $(jq -s 'map(select(.seq != null)) | length' "$rec") == 1 ]] ||
	t_fail "the recording has not one sample: $(head -c 300 "$rec")"

# ---- LKP's parse rule, from its description ----
# /proc/interrupts: the header names the CPU columns; on each line, the
# label, then one count per CPU column, then the description's words,
# joined by "_".  CPU<n>.<label>:<desc>: N per CPU, <label>:<desc>: sum.
lkp_interrupts() {
	awk 'NR == 1 { ncpu = NF; for (i = 1; i <= NF; i++) col[i] = substr($i, 4); next }
	{
		label = $1; sub(":$", "", label)
		n = 0
		while (n < ncpu && n + 2 <= NF && $(n + 2) ~ /^[0-9]+$/) n++
		d = ""
		for (i = n + 2; i <= NF; i++) d = d (d == "" ? "" : "_") $i
		name = label ":" d; sum = 0
		for (i = 1; i <= n; i++) { print "CPU" col[i] "." name ": " $(i + 1); sum += $(i + 1) }
		printf "%s: %.0f\n", name, sum
	}' "$1"
}
# /proc/softirqs: CPU<n>.<NAME>: N and <NAME>: sum.
lkp_softirqs() {
	awk 'NR == 1 { ncpu = NF; for (i = 1; i <= NF; i++) col[i] = substr($i, 4); next }
	{
		name = $1; sub(":$", "", name); sum = 0
		for (i = 1; i <= ncpu; i++) { print "CPU" col[i] "." name ": " $(i + 1); sum += $(i + 1) }
		printf "%s: %.0f\n", name, sum
	}' "$1"
}

# Leave out the rows kstat.ko cannot read, as kstat says (ERR, MIS, ...).
drop_unread() {
	local re
	re=$(tr ' ' '\n' <<<"$unread" | awk 'NF { printf "%s%s", s, $0; s = "|" }')
	if [[ -z $re ]]; then cat; else grep -Ev "^(CPU[0-9]+\\.)?($re):"; fi
}

{ lkp_interrupts "$TMPDIR/p1"; lkp_softirqs "$TMPDIR/s1"; } | drop_unread | sort > "$TMPDIR/lkp1"
{ lkp_interrupts "$TMPDIR/p2"; lkp_softirqs "$TMPDIR/s2"; } | drop_unread | sort > "$TMPDIR/lkp2"

"$KSTAT" report "$rec" format lkp sections irq,softirq > "$TMPDIR/out" 2> "$TMPDIR/err" ||
	t_fail "kstat report format lkp failed: $(cat "$TMPDIR/err")"
[[ ! -s $TMPDIR/err ]] || t_fail "kstat report format lkp said: $(cat "$TMPDIR/err")"
time=$(awk '$1 == "time:" { print $2 }' "$TMPDIR/out")
((t1 <= time && time <= t2)) || t_fail "time: $time is not between $t1 and $t2 (date +%s)"
[[ $(grep -c '^time: ' "$TMPDIR/out") == 1 ]] || t_fail "not one time: line for one sample"
grep -v '^time: ' "$TMPDIR/out" | sort > "$TMPDIR/lkpk"

# Same names.
names() { sed 's/: [0-9]*$//' "$1"; }
if ! diff <(names "$TMPDIR/lkp1") <(names "$TMPDIR/lkpk") > "$TMPDIR/diff"; then
	t_log "names: < LKP's rule on /proc, > kstat report format lkp"
	t_fail "the names differ: $(head -n 20 "$TMPDIR/diff")"
fi
[[ $(names "$TMPDIR/lkp1") == $(names "$TMPDIR/lkp2") ]] ||
	t_fail "the /proc names changed between the two reads: run again"
t_log "$(wc -l < "$TMPDIR/lkpk") names, as LKP's rule makes them of /proc"

# Values: irqsim's exactly; every other within the two /proc reads.
join -t '|' <(sed 's/: \([0-9]*\)$/|\1/' "$TMPDIR/lkp1") \
	    <(sed 's/: \([0-9]*\)$/|\1/' "$TMPDIR/lkpk") |
	join -t '|' - <(sed 's/: \([0-9]*\)$/|\1/' "$TMPDIR/lkp2") > "$TMPDIR/vals"
[[ $(wc -l < "$TMPDIR/vals") == $(wc -l < "$TMPDIR/lkpk") ]] ||
	t_fail "not every name has three values"
sims=0
while IFS='|' read -r name p1 k p2; do
	if [[ $name == *kstat-sim* ]]; then
		[[ $p1 == "$k" && $k == "$p2" ]] ||
			t_fail "$name: kstat $k, /proc $p1 and $p2 (irqsim's do not move)"
		sims=$((sims + 1))
	elif ((k < p1 || k > p2)); then
		t_fail "$name: kstat $k is not between /proc's $p1 and $p2"
	fi
done < "$TMPDIR/vals"
((sims >= 2 * (cpus + 1))) || t_fail "only $sims irqsim names compared"
grep -q "^CPU0\\.$sim0:.*kstat-sim.*: 5$" "$TMPDIR/lkpk" ||
	t_fail "CPU0.$sim0 (irqsim 0, fired 5 times on CPU 0) is not 5: $(grep "\\.$sim0:" "$TMPDIR/lkpk")"
grep -q "^$sim1:.*kstat-sim.*: 7$" "$TMPDIR/lkpk" ||
	t_fail "$sim1 (irqsim 1, fired 7 times) does not total 7: $(grep "^$sim1:" "$TMPDIR/lkpk")"

# ---- format proc ----
"$KSTAT" report "$rec" format proc sections irq,softirq > "$TMPDIR/proc" ||
	t_fail "kstat report format proc failed"
[[ $(head -n 1 "$TMPDIR/proc") == "time: $time" ]] || t_fail "format proc: no time: line first"
# interrupts: lines 2 .. the softirqs header (the one that starts with 20 blanks)
awk 'NR > 1' "$TMPDIR/proc" | awk '/^                    CPU/ { exit } { print }' > "$TMPDIR/kint"
awk '/^                    CPU/ { on = 1 } on' "$TMPDIR/proc" > "$TMPDIR/ksoft"

# exact for irqsim's lines
for irq in "$sim0" "$sim1" "$sim2"; do
	want=$(grep -E "^ *$irq:" "$TMPDIR/p1") got=$(grep -E "^ *$irq:" "$TMPDIR/kint")
	[[ $want == "$(grep -E "^ *$irq:" "$TMPDIR/p2")" ]] || t_fail "IRQ $irq moved"
	[[ -n $want && $got == "$want" ]] ||
		t_fail "format proc, IRQ $irq: \"$got\", /proc/interrupts: \"$want\""
done
# the shape of every line: numbers masked, lengths kept
shape() { drop_unread_lines | awk '{ l = length($0); gsub(/ *[0-9]+/, " N"); print l " " $0 }'; }
drop_unread_lines() {
	local re
	re=$(tr ' ' '\n' <<<"$unread" | awk 'NF { printf "%s%s", s, $0; s = "|" }')
	if [[ -z $re ]]; then cat; else grep -Ev "^ *($re):"; fi
}
for f in int soft; do
	p=$TMPDIR/p1
	[[ $f == soft ]] && p=$TMPDIR/s1
	if ! diff <(shape < "$p") <(shape < "$TMPDIR/k$f") > "$TMPDIR/diff"; then
		t_fail "format proc: the $f lines differ in shape from /proc: $(head -n 20 "$TMPDIR/diff")"
	fi
done
t_log "format proc: irqsim's lines exact, $(wc -l < "$TMPDIR/kint") + $(wc -l < "$TMPDIR/ksoft") lines in /proc's shape"

# ---- refusals on the same recording ----
jq -c 'if .kstat_record then .percpu = false else . end' "$rec" > "$TMPDIR/np.jsonl"
assert_fail "$KSTAT" report "$TMPDIR/np.jsonl" format lkp
assert_eq 1 "$T_RC" "format lkp without per-CPU detail: exit 1"
assert_match "recorded without per-CPU detail" "$T_ERR" "format lkp without per-CPU detail: said why"
t_log "kstat report lkp and proc match LKP's rule on /proc (irqs=3, $cpus CPUs)"
