#!/bin/bash
# Proves: the exporter holds up as a fleet runs it (issue #15).
# 300 idle connections from 300 addresses, and 300 from one address
# (per-address limit), do not delay a scrape: it answers in under 2 s;
# nor do 100 idle connections from the scraper's own address (the oldest
# idle ones are evicted, kstat_exporter_http_evicted_total counts them).
# 256 clients that send GET /metrics and never read, with 1024 IRQs, grow
# the exporter's RSS by less than 4 MiB (one shared body per sample).
# A gzip scrape (Accept-Encoding: gzip) decompresses, CRC and length
# checked, to an exposition the Prometheus parser accepts; gzip;q=0 and no
# Accept-Encoding get plain text.  Requests holding a NUL byte get an
# answer or a close (whatever libmicrohttpd does) within 15 s, the exporter
# lives on and the next scrape is answered.  An action name with an
# invalid UTF-8 byte (irqsim suffix=\xff) is exported as the text \xff
# (docs/cli.md, "Names"), and the scrape still parses;
# `promtool check metrics` accepts a real scrape.
# timeout: 240
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq curl
PY=/usr/bin/python3
LOAD=$KSTAT_ROOT/tests/helpers/http_load.py
require_py_package prometheus_client python3-prometheus-client

PORT=19586
URL=http://127.0.0.1:$PORT/metrics

irqsim_load irqs=1024 $'suffix=-\xff\xfe'
t_cleanup irqsim_unload
a=$(irqsim_irq 3)
t_cleanup "$KSTAT" config set interval 1000 batch 1
"$KSTAT" config set interval 500 batch 1

"$KSTAT" export prometheus --listen "127.0.0.1:$PORT" 2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
up() { grep -qx 'kstat_exporter_up 1' <<<"$(curl -sS --max-time 10 "$URL" 2>/dev/null)"; }
wait_until 30 up
t_log "exporter up"

j=$("$PY" "$LOAD" idle "$URL" 300 300) || t_fail "idle from 300 addresses: $j"
t_log "300 idle connections (300 addresses), then a scrape: $j"
assert_eq true "$(jq '.scrape_s < 2' <<<"$j")" "scrape under 2 s beside 300 idle connections"
j=$("$PY" "$LOAD" idle "$URL" 300 1) || t_fail "idle from one address: $j"
t_log "300 idle connections (one address), then a scrape: $j"
assert_eq true "$(jq '.scrape_s < 2' <<<"$j")" "scrape under 2 s beside 300 idle connections from one address"

# Idle connections from the scraper's own address never shut it out: the
# oldest idle one is evicted to make room (libmicrohttpd alone refuses
# the 65th connection of an address, however idle the 64 are).
ev0=$(curl -sS --max-time 10 "$URL" | awk '$1 == "kstat_exporter_http_evicted_total" { print $2 }')
j=$("$PY" "$LOAD" idle "$URL" 100 0) || t_fail "a scrape beside 100 idle connections from its own address: $j"
t_log "100 idle connections from 127.0.0.1, then a scrape from 127.0.0.1: $j"
assert_eq true "$(jq '.scrape_s < 2' <<<"$j")" "scrape under 2 s beside 100 idle connections from its address"
ev1=$(curl -sS --max-time 10 "$URL" | awk '$1 == "kstat_exporter_http_evicted_total" { print $2 }')
t_log "idle connections evicted: $((ev1 - ev0))"
((ev1 - ev0 >= 100 - 64)) || t_fail "only $((ev1 - ev0)) idle connections evicted for 101 from one address"

j=$("$PY" "$LOAD" noread "$URL" 256 "$pid") || t_fail "never-reading clients: $j"
t_log "256 clients that never read: $j"
assert_eq true "$(jq '.growth_kib < 4096' <<<"$j")" "RSS growth under 4 MiB"

j=$("$PY" "$LOAD" gzip "$URL") || t_fail "gzip: $j"
t_log "gzip round trip: $j"
assert_eq true "$(jq '.gzip_bytes < .plain_bytes' <<<"$j")" "gzip body smaller"

j=$("$PY" "$LOAD" nul "$URL") || t_fail "NUL: $j"
t_log "NUL requests: $(jq -c '[.[] | [.status, .end, .scrape_after, .s]]' <<<"$j")"
t_exited $pid && t_fail "the exporter died after the NUL requests"

scrape=$(curl -sS --max-time 10 "$URL")
line=$(grep "^kstat_interrupts_total{type=\"$a\"," <<<"$scrape")
t_log "IRQ $a: $line"
[[ $line == *'actions="kstat-sim-3-\\xff\\xfe"'* ]] ||
	t_fail "invalid bytes not exported as \\xff\\xfe: $line"
iconv -f UTF-8 -t UTF-8 <<<"$scrape" >/dev/null || t_fail "the scrape is not valid UTF-8"
"$PY" "$KSTAT_ROOT/tests/helpers/prom_check.py" parse - <<<"$scrape" >/dev/null ||
	t_fail "the parser rejects the scrape"
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <<<"$scrape" 2>&1) || t_fail "promtool check metrics: $out"
	t_log "promtool check metrics: ok${out:+ ($(wc -l <<<"$out") lint notes)}"
else
	t_log "NOT CHECKED: promtool is not installed (Debian package prometheus, scripts/install-deps.sh)"
fi

t_term "$pid" 5
assert_eq 0 "$T_RC" "exit status after SIGTERM"
assert_eq "kstat: export: serving http://127.0.0.1:$PORT/metrics (--listen 127.0.0.1:$PORT)" \
	"$(cat "$TMPDIR/export.err")" "exporter stderr (its log: the address only)"
