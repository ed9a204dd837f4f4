#!/bin/bash
# Proves: kstat_exporter_up is honest about a producer that stops.  With
# kstat.ko's test-only fail_ticks the producer's ticks fail (as on
# ENOMEM) while the module stays loaded and the subscription stays up: no
# sample for 3 intervals and the exporter says kstat_exporter_up 0 (HTTP
# and textfile, data families withdrawn), with
# kstat_exporter_build_info{version} 1 throughout; once samples flow
# again it says up 1 by itself, in the same process, with fresh samples;
# its log says when samples stopped and came again, one line each.
# (The module going away, rmmod/insmod, is tests/summary-reload.sh.)
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd curl
require_kstat

fault=/sys/module/kstat/parameters/fail_ticks
[[ -e $fault ]] || t_fail "$fault does not exist"
fault_off() { echo 0 > "$fault"; }
t_cleanup fault_off

PORT=19588
URL=http://127.0.0.1:$PORT/metrics
file=$TMPDIR/kstat.prom
t_cleanup "$KSTAT" config set interval 1000 batch 1
"$KSTAT" config set interval 200 batch 1

"$KSTAT" export prometheus --listen "127.0.0.1:$PORT" --textfile "$file" 2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
metric() { curl -sS --max-time 10 "$URL" | awk -v m="$1" '$1 == m { print $2 }'; }
up_is() { [[ $(metric kstat_exporter_up 2>/dev/null) == "$1" ]]; }
file_up_is() { grep -qx "kstat_exporter_up $1" "$file"; }
wait_until 30 up_is 1
wait_until 10 file_up_is 1
assert_match '^kstat_exporter_build_info\{version="[^"]+"\} 1$' "$(curl -sS "$URL")" "build_info"
seq0=$(metric kstat_exporter_last_sample_seq)
t_log "up, seq $seq0"

echo 1000000 > "$fault"
start=${EPOCHREALTIME/./}
wait_until 10 up_is 0
ms=$(( (${EPOCHREALTIME/./} - start) / 1000 ))
t_log "up 0 after ${ms} ms without samples (interval 200 ms)"
((ms >= 400)) || t_fail "up 0 after only $ms ms: before 3 intervals"
wait_until 10 file_up_is 0
scrape=$(curl -sS "$URL")
[[ $scrape == *kstat_cpu_seconds_total* ]] && t_fail "data families still exported while stale"
assert_match '^kstat_exporter_build_info\{version="[^"]+"\} 1$' "$scrape" "build_info while stale"
t_exited $pid && t_fail "the exporter exited"

fault_off
wait_until 10 up_is 1
wait_until 10 file_up_is 1
seq1=$(metric kstat_exporter_last_sample_seq)
((seq1 > seq0)) || t_fail "no fresh sample after recovery: seq $seq1 <= $seq0"
t_log "recovered: up 1, seq $seq1"
t_term "$pid" 5
assert_eq 0 "$T_RC" "exit status after SIGTERM"
# Its log: the address, the file, then samples stopped and came again
# (more than once if TCG held a sample back for 3 intervals meanwhile).
err=$(cat "$TMPDIR/export.err")
assert_eq "kstat: export: serving http://127.0.0.1:$PORT/metrics (--listen 127.0.0.1:$PORT)
kstat: export: writing $file after every sample" "$(head -2 <<<"$err")" "exporter stderr, start"
# (the ticks that failed are a gap in seq: a "lost" line, not judged here)
events=$(tail -n +3 <<<"$err" | grep -v '^kstat: export: lost [0-9]* samples\? (gap ' || true)
stops=$(sed -n 'p;n' <<<"$events" | sort -u)
agains=$(sed -n 'n;p' <<<"$events" | sort -u)
assert_eq "kstat: export: no sample for 3 intervals (0.200 s each): kstat_exporter_up 0 until one comes" \
	"$stops" "exporter stderr: samples stopped"
assert_eq "kstat: export: samples come again: kstat_exporter_up 1" "$agains" "exporter stderr: samples again"
