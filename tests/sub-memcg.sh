#!/bin/bash
# Proves: what a reader makes kstat.ko allocate is charged to the
# reader's memory cgroup (issue "Safety first", point 4; docs/protocol.md
# "Limits and privilege"), for subscriptions and for GETs.  memory.stat's
# "kernel" is what the kernel allocated with __GFP_ACCOUNT for a cgroup.
#  - Subscriptions: two cgroups (cgroup2, mounted here if the guest has
#    none), each with a raw reader (root: no per-user count) holding 1000
#    sockets: in one they join the default stream (nothing allocated for
#    them), in the other each SUBSCRIBEs with a config of its own (a
#    subscription each): the second's kernel memory exceeds the first's by
#    at least 1000 x 64 bytes.  (memory.current is no measure here: the
#    first python to start is charged the page cache of its files.)
#  - GETs: a cgroup whose process holds a per-CPU dump of 8192 synthetic
#    IRQs open (nlraw dump-irqs, reading a message every 4 s: the dump's
#    one reading lives until it is done) is charged at least 8192 x 12
#    bytes (ids and 64-bit counts) more than while the same process holds
#    the same dump with the synthetic IRQs gone.
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd python3
S=tests/helpers/streams.py
CG=/sys/fs/cgroup

if [[ ! -e $CG/cgroup.controllers ]]; then
	mount -t cgroup2 none "$CG" || t_skip "cannot mount cgroup2 on $CG"
	t_cleanup umount "$CG"
fi
grep -qw memory "$CG/cgroup.controllers" || t_skip "no memory controller"
echo +memory >"$CG/cgroup.subtree_control"
rdir=$(mktemp -d /tmp/sub-memcg.XXXXXX)
t_cleanup rm -rf "$rdir"

# A cgroup empties once its process is reaped (the cleanups kill them).
rmdir_later() { wait_until 10 rmdir "$1" 2>/dev/null; }
kernel() { awk '$1 == "kernel" { print $2 }' "$CG/kstat-$1/memory.stat"; }
# in_cgroup NAME CMD...: run CMD in the background in cgroup NAME (new).
in_cgroup() {
	local name=$1
	shift
	mkdir "$CG/kstat-$name"
	t_cleanup rmdir_later "$CG/kstat-$name"
	(echo $BASHPID >"$CG/kstat-$name/cgroup.procs" && exec "$@") &
	t_cleanup t_kill $!
}

# ---- subscriptions ----
specs_default=() specs_own=()
for ((i = 0; i < 1000; i++)); do
	specs_default+=(default)
	specs_own+=("interval=$((60000 - i)),sections=1")
done
in_cgroup shared python3 "$S" hold "$rdir/shared" "${specs_default[@]}" >"$TMPDIR/shared"
wait_until 60 test -e "$rdir/shared"
in_cgroup own python3 "$S" hold "$rdir/own" "${specs_own[@]}" >"$TMPDIR/own"
wait_until 60 test -e "$rdir/own"
assert_eq 1000 "$(grep -c '^0 ' "$TMPDIR/own")" "the own subscriptions' SUBSCRIBEs that succeeded"
assert_eq 1000 "$(stat_of subscriptions)" "subscriptions"
sleep 1
shared=$(kernel shared) own=$(kernel own)
t_log "kernel memory charged: 1000 listeners of the default stream $shared, 1000 subscriptions $own (+$(((own - shared) / 1024)) KiB)"
((own - shared >= 1000 * 64)) ||
	t_fail "1000 subscriptions are charged only $((own - shared)) bytes more kernel memory than 1000 listeners"

# ---- a GET ----
held() {	# NAME: HELD, the kernel memory of cgroup NAME while its dump is held
	in_cgroup "$1" tests/tools/nlraw dump-irqs 4096 4000 >/dev/null
	sleep 2	# past its first read, before its second
	HELD=$(kernel "$1")
}
irqsim_load irqs=8192
t_cleanup irqsim_unload
held get-big
big=$HELD
irqsim_unload
held get-small
small=$HELD
t_log "kernel memory charged while a per-CPU dump is held: $big with 8192 more IRQs, $small without (+$(((big - small) / 1024)) KiB)"
((big - small >= 8192 * 12)) ||
	t_fail "a dump of 8192 more IRQs is charged only $((big - small)) bytes more kernel memory"
