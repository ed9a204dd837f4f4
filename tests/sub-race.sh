#!/bin/bash
# Proves: SUBSCRIBE and UNSUBSCRIBE racing on one socket never touch a
# freed subscription.  genetlink runs kstat's requests in parallel
# (parallel_ops), so an UNSUBSCRIBE from one thread of a process may
# free the subscription that a SUBSCRIBE from another thread, on the same
# socket, is still setting up (kernel/producer.c took no reference on
# it: a use after free any user could write).  uid 65534 shares one
# socket between two processes, one sending SUBSCRIBE with a config of
# its own and the other UNSUBSCRIBE, as fast as they can for 10 s
# (tests/tools/nlraw sub-race), while the producer serves a second
# subscription and the default stream, so that ticks run meanwhile.
# Afterwards the socket is still served (a SUBSCRIBE and an UNSUBSCRIBE
# acknowledged) and no subscription is left.  What shows a use after
# free is KASAN (make check-debug) through the harness's scan of the
# kernel log; elsewhere the test proves the race is harmless to serve.
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd setpriv jq python3
S=tests/helpers/streams.py

irqsim_load irqs=256
t_cleanup irqsim_unload
"$KSTAT" -j monitor >"$TMPDIR/default" 2>"$TMPDIR/default.err" &
t_cleanup t_kill $!
as_user 65533 "$KSTAT" -j monitor interval 250ms sections irq >"$TMPDIR/own" 2>"$TMPDIR/own.err" &
t_cleanup t_kill $!
monitor_wait 30 "$TMPDIR/own" 2

out=$(as_user 65534 tests/tools/nlraw sub-race 10) ||
	t_fail "nlraw sub-race failed (exit $?): $out"
t_log "$out"
read -r _ _ a _ b _ <<<"$out"
((a > 100 && b > 100)) || t_fail "too few requests to race: $out"

n=$(monitor_count "$TMPDIR/own")
monitor_wait 10 "$TMPDIR/own" $((n + 2))
one() { [[ $(python3 "$S" stats | jq .subscriptions) == 1 ]]; }
wait_until 10 one || t_fail "subscriptions left after the race: $(python3 "$S" stats)"
t_log "after the race: $(python3 "$S" stats)"
