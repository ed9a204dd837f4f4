#!/bin/bash
# Proves: a sample stands alone (issue 38, "Loss and recovery"): a raw
# client written apart from libkstat, a few dozen lines of Python over a
# netlink socket (tests/helpers/rawsample.py), decodes each sample from
# its own message(s) only, whichever sample it is, and gets every count.
# With 4096 synthetic IRQs fired on known CPUs (a sample of the irq
# section then takes more than one part) and held still:
#  - a subscription of its own with per-CPU counts, and the default
#    stream: the client starts reading at an arbitrary sample (the 3rd
#    it gets, then the 4th, each printed alone) and every one of them
#    carries every IRQ a GET lists (tests/tools/irqdump, libkstat), each
#    synthetic IRQ's count and per-CPU counts as /proc/interrupts shows
#    them;
#  - then one IRQ fires between samples: each sample carries its count of
#    that moment, never below the sample before nor above /proc after.
# timeout: 300
source tests/lib.sh
require_kstat
require_cmd jq python3
R=tests/helpers/rawsample.py
t_cleanup config_reset

n=4096
irqsim_load irqs=$n
t_cleanup irqsim_unload
irqsim_fire_affine $n
cpus=$(getconf _NPROCESSORS_ONLN)
sim_proc_rows "$cpus" >"$TMPDIR/proc"
assert_eq "$n" "$(wc -l <"$TMPDIR/proc")" "kstat-sim rows in /proc/interrupts"
tests/tools/irqdump 0 | awk '{ print $1 }' | jq -s -c 'sort' >"$TMPDIR/ids"

# check FILE WHAT: every sample of FILE (rawsample's JSON lines) has the
# GET's IRQ set, and each synthetic IRQ's count (and per-CPU counts, when
# the sample has them) as /proc's.
check() {
	python3 - "$1" "$TMPDIR/proc" "$TMPDIR/ids" "$2" <<'PY'
import json, sys
samples = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
proc = {}
for line in open(sys.argv[2]):
    f = [int(x) for x in line.split()]
    proc[f[0]] = f[1:]
ids = json.load(open(sys.argv[3]))
what = sys.argv[4]
if len(samples) < 2:
    sys.exit(f"{what}: {len(samples)} samples")
for s in samples:
    got = sorted(int(k) for k in s.get("irqs", {}))
    if got != ids:
        sys.exit(f"{what}: sample {s['seq']}: {len(got)} IRQs, the GET lists {len(ids)}")
    for irq, cols in proc.items():
        c = s["irqs"][str(irq)]
        if c != sum(cols):
            sys.exit(f"{what}: sample {s['seq']}: IRQ {irq} count {c}, /proc {sum(cols)}")
        if "irq_percpu" in s:
            pc = {int(k): v for k, v in s["irq_percpu"][str(irq)].items()}
            want = {cpu: v for cpu, v in enumerate(cols) if v}
            if pc != want:
                sys.exit(f"{what}: sample {s['seq']}: IRQ {irq} per CPU {pc}, /proc {want}")
print(f"{what}: {len(samples)} samples alone, seq {[s['seq'] for s in samples]}, "
      f"parts {sorted(set(s['parts'] for s in samples))}, {len(ids)} IRQs each")
PY
}

# Samples 3 and 4 of a subscription with per-CPU counts (the first two
# are read and dropped: the client starts anywhere).
timeout "$(t_scaled 60)" python3 "$R" -n 4 interval=250,sections=2,percpu=1 | tail -n 2 >"$TMPDIR/own" ||
	t_fail "rawsample on a subscription failed"
out=$(check "$TMPDIR/own" "subscription, per-CPU") || t_fail "$out"
t_log "$out"
(($(jq -s 'map(.parts) | max' "$TMPDIR/own") > 1)) || t_log "NOTE: the samples fit one part each"

"$KSTAT" config set interval 250 sections irq
timeout "$(t_scaled 60)" python3 "$R" -n 4 | tail -n 2 >"$TMPDIR/default" ||
	t_fail "rawsample on the default stream failed"
out=$(check "$TMPDIR/default" "default stream") || t_fail "$out"
t_log "$out"

# Counts of the moment: IRQ 7 fires between samples.
irq=$(irqsim_irq 7)
timeout "$(t_scaled 60)" python3 "$R" -n 8 interval=250,sections=2 >"$TMPDIR/moving" &
raw=$!
wait_until 30 test -s "$TMPDIR/moving"	# its first sample is out
for i in 1 2 3 4 5 6; do irqsim_fire 7 0 100; sleep 0.2; done
wait $raw || t_fail "rawsample failed while IRQ $irq fired"
series=$(jq -r --arg q "$irq" '.irqs[$q]' "$TMPDIR/moving" | tr '\n' ' ')
series=${series% }
t_log "IRQ $irq in 8 samples read alone: $series"
sort -n -c <<<"${series// /$'\n'}" 2>/dev/null || t_fail "IRQ $irq's count went back: $series"
[[ $(wc -w <<<"$series") == 8 ]] || t_fail "IRQ $irq missing from a sample: $series"
proc=$(awk -v q="$irq:" 'NR == 1 { n = NF; next } $1 == q { s = 0; for (i = 2; i <= n + 1; i++) s += $i; print s }' /proc/interrupts)
last=${series##* }
((last <= proc)) || t_fail "IRQ $irq's last sample $last above /proc's $proc"
first=${series%% *}
((last > first)) || t_fail "IRQ $irq's count did not move across the samples: $series"
