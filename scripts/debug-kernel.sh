#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/debug-kernel.sh - build (or reuse) the debug kernel of `make
# check-debug`: Linux 6.1 from Debian's linux-source-6.1 with KASAN,
# kmemleak, lockdep, UBSAN and debug objects (scripts/debug-kernel.config),
# kstat built in-tree as net/kstat the way Kconfig.snippet says, and
# tests/irqsim built against it.
#
#   scripts/debug-kernel.sh        build what is missing; print the env file
#
# The env file (shell assignments, for `source`) names what was built:
#   DEBUG_KERNEL      the bzImage
#   DEBUG_MODDIR      its modules directory (kstat.ko only: all else is built in)
#   DEBUG_KVER        its release (uname -r)
#   DEBUG_KSTAT_KO    the in-tree kstat.ko (CONFIG_KSTAT=m)
#   DEBUG_IRQSIM_KO   tests/irqsim/kstat_irqsim.ko built against it
#   DEBUG_CONFIG      its .config
#
# Everything lives outside the repository in $KSTAT_CACHE/debug-kernel
# (default ${XDG_CACHE_HOME:-~/.cache}/kstat): the unpacked source, one
# out-of-tree build directory (incremental) and, per key, the finished
# result.  The key hashes the config fragment, this script, the kstat
# sources (kernel/, the UAPI header, Kconfig.snippet), the kernel source
# package and the compiler, so a second run with nothing changed builds
# nothing; a kstat change rebuilds only net/kstat (and relinks).
#
# Each new key also proves that CONFIG_KSTAT=y compiles and links into
# vmlinux (the build directory is configured =y, built, then =m).
#
# Environment: KSTAT_CACHE (cache directory), JOBS (make -j, default the
# number of CPUs), LINUX_TARBALL (default /usr/src/linux-source-6.1.tar.xz).
# The build runs under nice -n 10; its log is $KSTAT_CACHE/debug-kernel/build.log.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FRAGMENT=$REPO/scripts/debug-kernel.config
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${KSTAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kstat}
TOP=$CACHE/debug-kernel
OBJ=$TOP/obj
LOG=$TOP/build.log
JOBS=${JOBS:-$(nproc)}

say() { echo "debug-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

# kstat_sources: the files of kstat that go into the kernel tree, relative
# to the repository (kernel/ without the out-of-tree build's products).
kstat_sources() {
	local f
	for f in kernel/*.c kernel/*.h; do
		[[ $f == *.mod.c || $f == *.gen.h ]] || echo "$f"
	done
	echo kernel/Kbuild
	echo kernel/Kconfig
	echo include/uapi/linux/kstat.h
	echo Kconfig.snippet
}

# cache_key: what the result depends on, hashed.  Contents and paths
# relative to the repository only: a clone elsewhere hits the same entry.
cache_key() {
	{
		sha256sum < "$FRAGMENT"
		sha256sum < "${BASH_SOURCE[0]}"
		(cd "$REPO" && kstat_sources | xargs sha256sum)
		stat -L -c '%n %s %Y' "$TARBALL"
		gcc --version | head -n 1
	} | sha256sum | cut -c 1-16
}

# unpack: the kernel source, once, in $SRC (from the tarball's name and
# size, so a new linux-source package unpacks anew).
unpack() {
	local id
	id=$(stat -L -c '%s' "$TARBALL")
	SRC=$TOP/linux-6.1-$id
	[[ -f $SRC/.unpacked ]] && return 0
	say "unpacking $TARBALL into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
	touch "$SRC/.unpacked"
}

# sync_file SRC DST: copy only if different (keeps mtimes, so make does
# not rebuild what did not change).
sync_file() {
	cmp -s "$1" "$2" 2>/dev/null || install -D -m 0644 "$1" "$2"
}

# install_kstat: kstat into the kernel tree, as Kconfig.snippet describes.
install_kstat() {
	local f src_line
	mkdir -p "$SRC/net/kstat"
	# Files removed from kernel/ go from net/kstat too.
	for f in "$SRC"/net/kstat/*; do
		[[ -e $REPO/kernel/${f##*/} ]] || rm -f "$f"
	done
	while read -r f; do
		case $f in
		kernel/*) sync_file "$REPO/$f" "$SRC/net/kstat/${f#kernel/}" ;;
		include/*) sync_file "$REPO/$f" "$SRC/$f" ;;
		esac
	done < <(cd "$REPO" && kstat_sources)
	# shellcheck disable=SC2016  # a make line, not a shell expansion
	local mk_line='obj-$(CONFIG_KSTAT) += kstat/'
	grep -qxF "$mk_line" "$SRC/net/Makefile" ||
		echo "$mk_line" >> "$SRC/net/Makefile"
	# The "source" line comes from Kconfig.snippet itself.
	src_line=$(grep -m 1 '^source ' "$REPO/Kconfig.snippet") ||
		die "Kconfig.snippet has no source line"
	grep -qxF "$src_line" "$SRC/net/Kconfig" ||
		echo "$src_line" >> "$SRC/net/Kconfig"
}

kmake() {
	nice -n 10 make -C "$SRC" O="$OBJ" -j"$JOBS" "$@" >> "$LOG" 2>&1 ||
		die "make $* failed; the end of $LOG:$(echo; tail -n 30 "$LOG")"
}

# configure KSTAT_VALUE: allnoconfig plus the fragment (CONFIG_KSTAT set to
# KSTAT_VALUE), then check that every line of the fragment holds.
configure() {
	local want=$1 frag=$TOP/fragment.config line sym val have bad=()
	sed "s/^CONFIG_KSTAT=.*/CONFIG_KSTAT=$want/" "$FRAGMENT" > "$frag"
	kmake KCONFIG_ALLCONFIG="$frag" allnoconfig
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} val=n
		else
			continue
		fi
		have=$(grep -m 1 -E "^$sym=|^# $sym is not set" "$OBJ/.config" || true)
		[[ $have == "# $sym is not set" || -z $have ]] && have=n || have=${have#*=}
		[[ $have == "$val" ]] || bad+=("$sym=$val (got $have)")
	done < "$frag"
	((${#bad[@]} == 0)) || die "the kernel config does not hold: ${bad[*]}"
}

# build_all KEYDIR: the =y check, then the =m build; results into KEYDIR.
build_all() {
	local out=$1 kver
	: > "$LOG"
	say "building in $OBJ (log: $LOG)"
	install_kstat

	say "CONFIG_KSTAT=y: compile and link into vmlinux"
	configure y
	kmake vmlinux
	grep -q 'net/kstat/kstat.ko' "$OBJ/modules.builtin" ||
		die "CONFIG_KSTAT=y: net/kstat is not in modules.builtin"
	grep -q ' kst_family$' "$OBJ/System.map" ||
		die "CONFIG_KSTAT=y: kst_family is not in vmlinux"

	say "CONFIG_KSTAT=m: bzImage and modules"
	configure m
	kmake bzImage modules
	kver=$(cat "$OBJ/include/config/kernel.release")
	rm -rf "$out.tmp"
	mkdir -p "$out.tmp"
	kmake INSTALL_MOD_PATH="$out.tmp" modules_install
	cp "$OBJ/arch/x86/boot/bzImage" "$out.tmp/bzImage"
	cp "$OBJ/.config" "$out.tmp/config"
	cp "$OBJ/System.map" "$out.tmp/System.map"
	[[ -f $out.tmp/lib/modules/$kver/kernel/net/kstat/kstat.ko ]] ||
		die "no kstat.ko in the modules of $kver"
	echo "$kver" > "$out.tmp/kver"
	rm -rf "$out"
	mv "$out.tmp" "$out"
}

# build_irqsim KEYDIR: tests/irqsim against the debug kernel, in a copy
# (the repository's tests/irqsim holds the build for the stock kernel).
build_irqsim() {
	local dir=$1/irqsim f
	mkdir -p "$dir"
	# compat.h beside the copy: "compat.h" is found in the same directory
	for f in "$REPO"/tests/irqsim/*.c "$REPO"/tests/irqsim/Kbuild \
		 "$REPO"/kernel/compat.h; do
		[[ $f == *.mod.c ]] || sync_file "$f" "$dir/${f##*/}"
	done
	nice -n 10 make -C "$OBJ" M="$dir" -j"$JOBS" modules >> "$LOG" 2>&1 ||
		die "building tests/irqsim against the debug kernel failed; see $LOG"
}

# prune KEEP: old results go (each holds a bzImage of some 20 MB).
prune() {
	local d
	for d in "$TOP"/out-*; do
		[[ -d $d && $d != "$1" ]] && rm -rf "$d"
	done
	return 0
}

main() {
	local key out kver start env
	[[ -r $TARBALL ]] || die "$TARBALL not found (apt-get install linux-source-6.1)"
	[[ -r $FRAGMENT ]] || die "$FRAGMENT not found"
	case $CACHE in
	/tmp/* | /var/tmp/* | /run/*)
		# The test guest mounts tmpfs there: it would not see the results.
		die "KSTAT_CACHE=$CACHE: the guest cannot see /tmp, /var/tmp or /run; choose another"
		;;
	esac
	mkdir -p "$TOP"
	exec 8> "$TOP/lock"
	flock 8
	key=$(cache_key)
	out=$TOP/out-$key
	unpack
	if [[ -f $out/kver ]]; then
		say "cached: $out"
	else
		start=$SECONDS
		build_all "$out"
		say "built in $((SECONDS - start))s: $out"
		prune "$out"
	fi
	build_irqsim "$out"
	kver=$(< "$out/kver")
	env=$TOP/current.env
	{
		echo "DEBUG_KERNEL=$out/bzImage"
		echo "DEBUG_MODDIR=$out/lib/modules/$kver"
		echo "DEBUG_KVER=$kver"
		echo "DEBUG_KSTAT_KO=$out/lib/modules/$kver/kernel/net/kstat/kstat.ko"
		echo "DEBUG_IRQSIM_KO=$out/irqsim/kstat_irqsim.ko"
		echo "DEBUG_CONFIG=$out/config"
	} > "$env.tmp"
	mv "$env.tmp" "$env"
	echo "$env"
}

main "$@"
