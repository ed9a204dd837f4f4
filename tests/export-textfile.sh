#!/bin/bash
# Proves: `kstat export prometheus --textfile PATH` rewrites PATH atomically
# once per sample: a reader looping over it for 3 s while the exporter
# rewrites it every 100 ms never sees a partial file (every read parses
# with the Prometheus parser) and sees nearly every sample's seq; the file
# carries the synthetic IRQ's exact count, the same as a scrape of the
# HTTP mode running in the same process; the rewrites are renamed into
# place without an fsync (strace for 4 s: renames, no fsync/fdatasync);
# SIGTERM exits 0 and leaves no temporary file.
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq curl strace
PY=/usr/bin/python3
CHECK=$KSTAT_ROOT/tests/helpers/prom_check.py
require_py_package prometheus_client python3-prometheus-client

PORT=19588
dir=$TMPDIR/textfile
file=$dir/kstat.prom
rm -rf "$dir"
mkdir -p "$dir"

count_of() {	# IRQ, JSON: its kstat_interrupts_total value
	jq -r --arg irq ",type=\"$1\"}" '.values | to_entries[] |
		select((.key | startswith("kstat_interrupts_total{")) and
		       (.key | contains($irq))) | .value' <<<"$2"
}

irqsim_load irqs=4
t_cleanup irqsim_unload
a=$(irqsim_irq 2)
t_cleanup "$KSTAT" config set interval 1000 batch 1
"$KSTAT" config set interval 100 batch 1

"$KSTAT" export prometheus --textfile "$file" --listen "127.0.0.1:$PORT" \
	2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
up() { grep -qx 'kstat_exporter_up 1' "$file" 2>/dev/null; }
wait_until 20 up

irqsim_fire 2 0 777
exact() { grep -q "^kstat_interrupts_total{type=\"$a\",.*} 777\$" "$file"; }
wait_until 10 exact
http=$(curl -sS --max-time 10 "http://127.0.0.1:$PORT/metrics")
grep -q "^kstat_interrupts_total{type=\"$a\",.*} 777\$" <<<"$http" ||
	t_fail "IRQ $a's count in the HTTP mode of the same process is not 777"

w=$("$PY" "$CHECK" watch "$file" 3)
t_log "reader over 3 s: $(jq -c '{reads, seqs, first, last}' <<<"$w")"
reads=$(jq .reads <<<"$w")
seqs=$(jq .seqs <<<"$w")
span=$(jq '.last - .first + 1' <<<"$w")
((reads >= 20)) || t_fail "only $reads reads of the textfile in 3 s"
((span >= 5)) || t_fail "the file saw only $span samples in 3 s at 100 ms"
# One file per sample: the reader, faster than the samples, saw most seqs.
((seqs * 10 >= span * 7)) ||
	t_fail "the reader saw $seqs distinct samples of $span: not one file per sample"
assert_eq 777 "$(count_of "$a" "$w")" "IRQ $a in the parsed textfile"

# No fsync per sample: a rewrite is a write and a rename, nothing more.
strace -q -p "$pid" -e trace=fsync,fdatasync,sync_file_range,rename,renameat,renameat2 \
	-o "$TMPDIR/strace.out" &
spid=$!
t_cleanup t_kill $spid
sleep 4
kill -INT "$spid"
wait "$spid" 2>/dev/null || true
renames=$(grep -c rename "$TMPDIR/strace.out" || true)
syncs=$(grep -cE '^(fsync|fdatasync|sync_file_range)\(' "$TMPDIR/strace.out" || true)
t_log "traced for 4 s: $renames renames, $syncs fsyncs"
# (under TCG, attaching takes a while and tracing slows the exporter)
((renames >= 2)) || t_fail "only $renames renames of the textfile traced in 4 s at 100 ms"
assert_eq 0 "$syncs" "fsync calls while rewriting the textfile"

t_term "$pid" 2
assert_eq 0 "$T_RC" "exit status after SIGTERM"
assert_eq "kstat: export: serving http://127.0.0.1:$PORT/metrics (--listen 127.0.0.1:$PORT)
kstat: export: writing $file after every sample" \
	"$(cat "$TMPDIR/export.err")" "exporter stderr (its log: the address and the file only)"
assert_eq "kstat.prom" "$(ls "$dir")" "files left in the textfile directory"
grep -qx 'kstat_exporter_up 1' "$file" || t_fail "the textfile left at exit is not the last one"
