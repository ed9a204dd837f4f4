#!/bin/bash
# Proves: a dump is one reading of the counters, however many messages it
# spans and whatever happens meanwhile (protocol 5: the dump's .start
# reads, its messages only write).  256 IRQ descriptors are allocated and
# freed over and over beside 40 dumps of every IRQ with per-CPU counts,
# read slowly (a 4 KiB buffer, 20 ms a message) so that descriptors come
# and go mid-dump: every dump succeeds with each IRQ exactly once, in
# ascending order, and none carries NLM_F_DUMP_INTR (nlraw dump-irqs
# exits non-zero otherwise); the dumps do see different IRQ sets (so the
# churn ran during them); the kernel log stays clean (KASAN on the debug
# kernel: nothing is read from a descriptor freed meanwhile).
# timeout: 300
source tests/lib.sh

# Allocate and free 256 descriptors, over and over, beside the dumps.
# SIGTERM ends the loop only after the running insmod/rmmod is done, so
# none is left behind racing unload_sim.
( set +e; trap - ERR EXIT; stop=0; trap 'stop=1' TERM
  while ((!stop)); do insmod "$IRQSIM_KO" irqs=256; rmmod kstat_irqsim; done
) >/dev/null 2>&1 &
churn=$!
# Cleanups run in subshells, where 'wait' cannot wait for $churn: poll.
stop_churn() {
	kill "$churn" 2>/dev/null || return 0
	local i
	for ((i = 0; i < 600; i++)); do	# at most 30 s
		kill -0 "$churn" 2>/dev/null || return 0
		sleep 0.05
	done
	t_fail "the churn loop did not stop"
}
unload_sim() { ! irqsim_loaded || irqsim_unload; }
t_cleanup unload_sim
t_cleanup stop_churn

# Up to 40 dumps or 90 s: a loaded PREEMPT_RT guest can take seconds per
# insmod/rmmod cycle.
declare -A sizes
start=$SECONDS n=0
for i in $(seq 40); do
	out=$(tests/tools/nlraw dump-irqs 4096 20) ||
		t_fail "dump $i: inconsistent, flagged or failed: $out"
	[[ $out =~ ^irqs\ ([0-9]+)\ dupes\ 0\  ]] || t_fail "dump $i: $out"
	sizes[${BASH_REMATCH[1]}]=1
	n=$i
	((SECONDS - start < 90)) || break
done
t_log "$n dumps, each IRQ once; IRQ counts seen: ${!sizes[*]}"
((${#sizes[@]} > 1)) || t_fail "every dump saw the same IRQ set: the churn did not overlap them"
