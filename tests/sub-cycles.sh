#!/bin/bash
# Proves: 1,000 sockets that SUBSCRIBE with a config of their own, change
# it (a second SUBSCRIBE replaces it in place) and close leave no
# subscription behind: STATS_GET counts none soon after, and the producer
# stops; UNSUBSCRIBE of a subscription is acknowledged, and one without
# a subscription is refused.  (kmemleak: make check-debug.)
# timeout: 600
source tests/lib.sh
require_kstat
require_cmd jq python3
S=tests/helpers/streams.py

bad=$(python3 "$S" cycles 1000 interval=300,sections=1 interval=400,sections=4)
assert_eq 0 "$bad" "failed SUBSCRIBEs in 1000 cycles"
none() { [[ $(python3 "$S" stats | jq .subscriptions) == 0 ]]; }
wait_until 10 none
stopped() { [[ $(python3 "$S" stats | jq .running) =~ ^(false|0)$ ]]; }
wait_until 10 stopped
t_log "after 1000 cycles: $(python3 "$S" stats)"

read -r err msg <<<"$(python3 "$S" unsubscribe interval=500,sections=4)"
assert_eq 0 "$err" "UNSUBSCRIBE of a subscription ($msg)"
read -r err msg <<<"$(python3 "$S" unsubscribe)"
assert_ne 0 "$err" "UNSUBSCRIBE without a subscription"
t_log "UNSUBSCRIBE without a subscription: errno $err, extack '$msg'"
