#!/bin/bash
# Proves: what an unprivileged reader makes kstat.ko allocate for streams
# of its own is charged to the reader's memory cgroup (issue "Safety
# first", point 4: nothing was charged).  Two cgroups (cgroup2, mounted
# here if the guest has none), each with uid 65534's raw reader of four
# sockets over 4096 IRQs: in one the sockets join the default stream,
# in the other each asks for a stream of its own (per-CPU counts).  The
# second cgroup's kernel memory (memory.stat "kernel": what the kernel
# allocated with __GFP_ACCOUNT for it) exceeds the first's by at least
# the four streams' IRQ arrays (4 x 2 frames x 4096 IRQs x 24 bytes =
# 768 KiB; 6.1 measured 1.9 MiB more); the old module charged neither.
# Then the readers leave, and the streams' memory is uncharged once
# they are freed.  (memory.current is no measure here: the first python
# to start is charged the page cache of its files.)
# timeout: 120
source tests/lib.sh
require_kstat
require_cmd setpriv python3
S=tests/helpers/streams.py
CG=/sys/fs/cgroup

if [[ ! -e $CG/cgroup.controllers ]]; then
	mount -t cgroup2 none "$CG" || t_skip "cannot mount cgroup2 on $CG"
	t_cleanup umount "$CG"
fi
grep -qw memory "$CG/cgroup.controllers" || t_skip "no memory controller"
echo +memory >"$CG/cgroup.subtree_control"

irqsim_load irqs=4096
t_cleanup irqsim_unload
rdir=$(mktemp -d /tmp/streams-memcg.XXXXXX)
chmod 777 "$rdir"
t_cleanup rm -rf "$rdir"

# A cgroup empties once its process is reaped (the cleanups kill them).
rmdir_later() { wait_until 10 rmdir "$1" 2>/dev/null; }

# reader NAME SPEC...: uid 65534 holds a socket per SPEC, in cgroup NAME.
reader() {
	local name=$1
	shift
	mkdir "$CG/kstat-$name"
	t_cleanup rmdir_later "$CG/kstat-$name"
	(echo $BASHPID >"$CG/kstat-$name/cgroup.procs" &&
		exec setpriv --reuid 65534 --regid 65534 --inh-caps=-all \
			--bounding-set=-all --clear-groups -- \
			python3 "$S" hold "$rdir/$name" "$@" >"$TMPDIR/$name") &
	t_cleanup t_kill $!
	wait_until 30 test -e "$rdir/$name"
}
reader shared default default default default
reader own interval=250,sections=2,percpu=1 interval=260,sections=2,percpu=1 \
	interval=270,sections=2,percpu=1 interval=280,sections=2,percpu=1
assert_eq "0 0 0 0" "$(cut -d' ' -f1 "$TMPDIR/own" | tr '\n' ' ' | sed 's/ $//')" "the own streams' SUBSCRIBEs"
kernel() { awk '$1 == "kernel" { print $2 }' "$CG/kstat-$1/memory.stat"; }
sleep 2
shared=$(kernel shared) own=$(kernel own)
t_log "kernel memory charged: default stream readers $shared, own streams' readers $own (+$(((own - shared) / 1024)) KiB)"
((own - shared >= 768 * 1024)) ||
	t_fail "the own streams' reader is charged only $(((own - shared) / 1024)) KiB more kernel memory than the default stream's"

# The readers go: the streams linger at most a floor, then are freed.
pkill -f "$S hold $rdir/own" || true
gone() { (($(kernel own) < own - 768 * 1024)); }
wait_until 30 gone
t_log "after the own streams' readers left: $(kernel own)"
