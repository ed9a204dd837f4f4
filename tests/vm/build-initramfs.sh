#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-initramfs.sh --moddir DIR --out FILE
#
# Builds the tiny initramfs that boots the kstat test guest: a static busybox,
# the virtio + 9p modules of the guest kernel (with everything they depend on,
# per modules.dep, in load order) and tests/vm/guest-init.sh as /init.  The
# init mounts this machine's / read-only over 9p and switch_roots into it, so
# everything else the guest runs (bash, jq, the project build) comes from the
# host and nothing has to be copied here.
#
# The image is cached: FILE.inputs records what it was built from (the
# scripts, busybox and each module: path, size, mtime) and the image is only
# rebuilt when that record changes.  Prints FILE on success.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# What the guest needs to mount its root over virtio-9p, in load order.  Some
# may be built in or missing on other kernels; dependencies not listed here
# are pulled in from modules.dep.
MODULES=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
	 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p)
# Without these the guest cannot get its root file system.
REQUIRED=(9pnet 9pnet_virtio 9p virtio_pci)

BUSYBOX=${BUSYBOX:-/bin/busybox}

die() { echo "build-initramfs: $*" >&2; exit 1; }

usage() { die "usage: $0 --moddir /lib/modules/VERSION --out FILE"; }

moddir='' out=''
while (($#)); do
	case $1 in
	--moddir) moddir=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ -n $moddir && -n $out ]] || usage
[[ -d $moddir ]] || die "module directory $moddir does not exist (set MODDIR=)"
[[ -x $BUSYBOX ]] || die "$BUSYBOX not found: install busybox-static"
# A dynamically linked busybox would need its libraries in the image too.
if file -b "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked'; then
	die "$BUSYBOX is dynamically linked: install busybox-static"
fi

declare -A MODPATH=()	# module name -> path of its .ko*, relative to moddir
declare -A DEPS=()	# relative path -> its dependencies (relative paths)
declare -A BUILTIN=()	# module name -> 1 if built into the kernel
declare -a ORDER=()	# relative paths, dependencies first
declare -A SEEN=()

# modname PATH: set REPLY to the module name of PATH (no subshell: this
# runs for each of the kernel's ~4000 modules).
modname() { REPLY=${1##*/}; REPLY=${REPLY%%.ko*}; REPLY=${REPLY//-/_}; }

# Index modules.dep (every loadable module and its dependencies) and
# modules.builtin.  Without modules.dep (an unusual MODDIR), fall back to a
# file search and take the list as the load order.
index_modules() {
	local line path deps
	if [[ -r $moddir/modules.dep ]]; then
		while IFS= read -r line; do
			path=${line%%:*} deps=${line#*:}
			modname "$path"
			MODPATH[$REPLY]=$path
			DEPS[$path]=$deps
		done < "$moddir/modules.dep"
	else
		while IFS= read -r path; do
			modname "$path"
			MODPATH[$REPLY]=${path#"$moddir"/}
		done < <(find "$moddir" -name '*.ko*' -type f)
	fi
	if [[ -r $moddir/modules.builtin ]]; then
		while IFS= read -r path; do
			modname "$path"
			BUILTIN[$REPLY]=1
		done < "$moddir/modules.builtin"
	fi
}

# add_module PATH: append PATH to ORDER after its dependencies.
add_module() {
	local path=$1 dep
	[[ -z ${SEEN[$path]:-} ]] || return 0
	SEEN[$path]=1
	for dep in ${DEPS[$path]:-}; do
		add_module "$dep"
	done
	ORDER+=("$path")
}

resolve_modules() {
	local name
	for name in "${MODULES[@]}"; do
		if [[ -n ${MODPATH[$name]:-} ]]; then
			add_module "${MODPATH[$name]}"
		elif [[ -z ${BUILTIN[$name]:-} ]] &&
		     [[ " ${REQUIRED[*]} " == *" $name "* ]]; then
			die "module $name is neither in $moddir nor built in"
		fi
	done
}

# inputs_record: one line per input; the image is rebuilt when it changes.
inputs_record() {
	local f
	echo "moddir $moddir"
	sha256sum "$HERE/build-initramfs.sh" "$HERE/guest-init.sh"
	stat -L -c '%n %s %Y' "$BUSYBOX"
	for f in "${ORDER[@]}"; do
		stat -L -c '%n %s %Y' "$moddir/$f"
	done
}

# copy_module SRC DST: copy an uncompressed .ko (busybox insmod cannot
# decompress).
copy_module() {
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*.ko.gz) gzip -dc "$1" > "$2" ;;
	*) die "do not know how to unpack $1" ;;
	esac
}

build_image() {
	local root=$1 path name
	mkdir -p "$root"/{bin,dev,proc,sys,newroot,modules}
	cp "$BUSYBOX" "$root/bin/busybox"
	cp "$HERE/guest-init.sh" "$root/init"
	chmod 0755 "$root/init" "$root/bin/busybox"
	# The kernel opens /dev/console for init before anything is mounted.
	# mknod needs root; without it init redirects itself once devtmpfs is up.
	mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
	for path in "${ORDER[@]}"; do
		modname "$path"
		name=$REPLY
		copy_module "$moddir/$path" "$root/modules/$name.ko"
		echo "$name" >> "$root/modules/order"
	done
	: >> "$root/modules/order"
	# Uncompressed: the kernel unpacks it faster under TCG than it could
	# gunzip it, and it is only a few MiB.
	(cd "$root" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet) > "$out.tmp"
	mv "$out.tmp" "$out"
}

main() {
	local record
	index_modules
	resolve_modules
	record=$(inputs_record)
	if [[ -f $out && -f $out.inputs ]] && [[ $(< "$out.inputs") == "$record" ]]; then
		echo "$out"
		return 0
	fi
	mkdir -p "$(dirname "$out")"
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/kstat-initramfs.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	build_image "$WORK/root"
	printf '%s\n' "$record" > "$out.inputs"
	echo "build-initramfs: built $out (${#ORDER[@]} modules)" >&2
	echo "$out"
}

main
