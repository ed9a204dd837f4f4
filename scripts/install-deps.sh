#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/install-deps.sh - install the Debian 12 packages kstat needs to
# build and test (make check runs it first).  Does nothing, quickly, when
# everything is there; otherwise runs apt-get update once and installs only
# what is missing.  Needs root (or sudo) only in that case.

set -euo pipefail

PACKAGES=(
	gcc make libc6-dev		# userspace build
	linux-image-amd64		# the kernel the test guest boots
	linux-headers-amd64		# ... and its headers, for kstat.ko
	qemu-system-x86			# the test guest (TCG)
	busybox-static cpio		# the guest's initramfs
	kmod				# insmod/modinfo, in the guest too
	jq iproute2 python3		# used by guest tests (genl, JSON checks)
	libnl-3-dev libnl-genl-3-dev libmnl-dev pkg-config
	sparse valgrind
	linux-source-6.1		# make debug-kernel, make kernel-lint (checkpatch)
	flex bison bc libelf-dev libssl-dev xz-utils	# ... building that kernel
	dkms				# the DKMS build test
	python3-yaml python3-jsonschema	# the YNL spec check
	python3-prometheus-client	# parses the exporter's output in tests
	man-db groff-base		# man --warnings on the man pages
	bash-completion
	file				# run-guest.sh reads kernel image versions
)

missing() {
	local p status
	for p in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[[ $status == installed ]] || echo "$p"
	done
}

main() {
	local -a need sudo=()
	mapfile -t need < <(missing)
	if ((${#need[@]} == 0)); then
		echo "install-deps: all ${#PACKAGES[@]} packages present"
		return 0
	fi
	if ((EUID != 0)); then
		command -v sudo > /dev/null ||
			{ echo "install-deps: need root to install: ${need[*]}" >&2; exit 1; }
		sudo=(sudo)
	fi
	echo "install-deps: installing ${need[*]}"
	"${sudo[@]}" apt-get update -q
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${need[@]}"
	mapfile -t need < <(missing)
	if ((${#need[@]})); then
		echo "install-deps: still missing after install: ${need[*]}" >&2
		exit 1
	fi
}

main "$@"
