#!/bin/busybox sh
# shellcheck shell=dash disable=SC2013
# SPDX-License-Identifier: GPL-2.0
#
# /init of the kstat test guest's initramfs (stage 1, busybox sh).
#
# Loads the virtio + 9p modules that build-initramfs.sh put in /modules,
# mounts the host's / read-only from the 9p share "hostroot", sets up the
# guest's own file systems on top of it (proc, sysfs, devtmpfs, debugfs,
# tmpfs on /tmp /run /var/tmp, the writable 9p share "results") and
# switch_roots into it, running the repository's tests/vm/guest-boot.sh
# (stage 2) with the host's bash.
#
# Everything is mounted here rather than in stage 2 because busybox runs
# from RAM: under TCG every program started from the 9p root costs ~0.1 s.
#
# The repository path comes from the kernel command line (kstatvm.repo=).
# Any failure powers the guest off with "kstat-guest: FATAL: ..." on the
# console, which run-guest.sh reports.

/bin/busybox --install -s /bin
export PATH=/bin

UPTIME=/proc/uptime
log() { read -r up _ < $UPTIME; echo "kstat-guest: [$up] $*"; }

fatal() {
	echo "kstat-guest: FATAL: $*"
	echo o > /proc/sysrq-trigger
	poweroff -f
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# In case the image has no /dev/console node (built without root).
[ -t 1 ] || exec > /dev/console 2>&1 < /dev/console
log "stage 1"

repo=
msize=512000
for arg in $(cat /proc/cmdline); do
	case $arg in
	kstatvm.repo=*) repo=${arg#kstatvm.repo=} ;;
	kstatvm.msize=*) msize=${arg#kstatvm.msize=} ;;
	esac
done
[ -n "$repo" ] || fatal "no kstatvm.repo= on the kernel command line"

for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" || echo "kstat-guest: warning: insmod $m failed"
done

# cache=loose: the root is read-only and nothing changes it during a run, so
# the guest may cache pages and metadata; every exec is much cheaper so.
R=/newroot
mount -t 9p -o "trans=virtio,version=9p2000.L,ro,cache=loose,msize=$msize" \
	hostroot $R || fatal "cannot mount the host root over 9p (tag hostroot)"
[ -x "$R$repo/tests/vm/guest-boot.sh" ] ||
	fatal "$repo/tests/vm/guest-boot.sh not found on the host root"

# The pseudo file systems move over (the console fds may be open on this
# devtmpfs, so it could not simply be unmounted); the root is read-only, so
# every place programs expect to write gets a tmpfs.
for fs in /dev /proc /sys; do
	mount --move $fs $R$fs || fatal "cannot move $fs to the new root"
done
UPTIME=$R/proc/uptime

# A repository under /tmp, /var/tmp or /run (CI may clone there) would be
# hidden by the tmpfs mounted on those below: hold it aside meanwhile.
case $repo in
/tmp/* | /var/tmp/* | /run/*)
	mkdir -p /keep-repo
	mount -o bind "$R$repo" /keep-repo || fatal "cannot hold $repo aside"
	;;
esac
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t debugfs debugfs $R/sys/kernel/debug || fatal "cannot mount debugfs"
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null
for d in /tmp /var/tmp; do
	mount -t tmpfs -o mode=1777 tmpfs $R$d || fatal "cannot mount tmpfs on $d"
done
mount -t tmpfs -o mode=0755 tmpfs $R/run || fatal "cannot mount tmpfs on /run"
# The host's build/vm/results, where the results go.  cache=none: the host
# reads them while the guest writes.
mkdir -p $R/run/kstat-results
mount -t 9p -o "trans=virtio,version=9p2000.L,rw,cache=none,msize=$msize" \
	results $R/run/kstat-results || fatal "cannot mount the results share"
if [ -d /keep-repo ]; then
	mkdir -p "$R$repo" &&
		mount --move /keep-repo "$R$repo" || fatal "cannot put $repo back"
fi
hostname kstat-guest
ip link set lo up 2>/dev/null

log "switch_root"
exec switch_root $R /bin/bash "$repo/tests/vm/guest-boot.sh"
