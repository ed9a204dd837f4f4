#!/bin/bash
# Proves: 1,000 sockets that SUBSCRIBE to a stream of their own, move to
# another (a second SUBSCRIBE) and close leave no stream and no member
# behind: STATS_GET lists the default stream alone soon after, and a
# member that UNSUBSCRIBEs is gone at once.  (kmemleak: make check-debug.)
# timeout: 600
source tests/lib.sh
require_kstat
require_cmd jq python3
S=tests/helpers/streams.py

bad=$(python3 "$S" cycles 1000 interval=300,sections=1 interval=400,sections=4)
assert_eq 0 "$bad" "failed SUBSCRIBEs in 1000 cycles"
alone() { [[ $(python3 "$S" stats | jq -s 'length') == 1 ]]; }
wait_until 10 alone
python3 "$S" stats >"$TMPDIR/stats"
t_log "after 1000 cycles: $(tr '\n' ' ' <"$TMPDIR/stats")"
assert_eq 0 "$(jq .id "$TMPDIR/stats")" "the stream left"
