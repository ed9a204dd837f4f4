#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/install-deps.sh - install the Debian 12 packages kstat needs to
# build and test (make check runs it first).  Does nothing, quickly, when
# everything is there; otherwise runs apt-get update once and installs only
# what is missing.  Needs root (or sudo) only in that case.  Then unpacks
# the kernel's YNL tools from linux-source-6.12 into build/ynl, once
# (scripts/ynl-tree.sh), for the guest tests that drive kstat with them.
#
#   scripts/install-deps.sh                  what make check, check-rt and
#                                            check-debug need
#   scripts/install-deps.sh --bench          also what make bench-seed
#                                            needs beyond that (nothing
#                                            today: node_exporter, which it
#                                            compares with, is a test
#                                            dependency now)
#   scripts/install-deps.sh --kernel 6.12    also Debian 12's 6.12 kernel
#                                            and headers (linux-image-6.12-amd64,
#                                            linux-headers-6.12-amd64): not
#                                            installed by default yet; boot it
#                                            with make check KVER=6.12...
#
# KSTAT_DEPS_KERNELS="6.12" does what --kernel 6.12 does.  Installing more
# kernels does not change which one make builds for (scripts/kver.sh).
#
# Debian 12 carries linux-source-6.12 and the 6.12 kernel only in its
# security archive (bookworm-security).  An installed Debian 12 has that
# suite in its apt sources; a bare debootstrap tree does not.  When a
# package has no install candidate there, this script says so and adds
# Debian's own bookworm-security and bookworm-updates suites, in
# $KSTAT_APT_SOURCES_DIR/kstat-bookworm.sources (default
# /etc/apt/sources.list.d), then updates again.  Nothing else is added.

set -euo pipefail

PACKAGES=(
	gcc make libc6-dev		# userspace build
	gcc-multilib			# libkstat compiled for -m32 and -mx32 (make unit)
	linux-image-amd64		# the kernel the test guest boots
	linux-headers-amd64		# ... and its headers, for kstat.ko
	linux-image-rt-amd64		# make check-rt: 6.1 PREEMPT_RT
	linux-headers-rt-amd64		# ... and its headers
	qemu-system-x86			# the test guest (TCG)
	busybox-static cpio		# the guest's initramfs
	kmod				# insmod/modinfo, in the guest too
	jq iproute2 python3		# used by guest tests (genl, JSON checks)
	libnl-3-dev libnl-genl-3-dev libmnl-dev pkg-config
	libmicrohttpd-dev zlib1g-dev	# the exporter: HTTP server, gzip
	prometheus			# promtool check metrics (tests/export-fleet.sh; 19 MB, ~10 s),
					# check/test rules (tests/unit/test_prom_rules, tests/export-rules.sh)
	prometheus-node-exporter	# node_exporter for the rules' test and tests/export-node.sh (4 MB);
					# make bench-seed runs it beside the exporter
	sparse valgrind
	linux-source-6.1		# make debug-kernel, make kernel-lint (checkpatch)
	flex bison bc libelf-dev libssl-dev xz-utils	# ... building that kernel
	dkms				# the DKMS build test
	python3-yaml python3-jsonschema	# the YNL spec check, the kernel's YNL tools
	linux-source-6.12		# ... those tools (tools/net/ynl) and schemas:
					# unpacked into build/ynl (scripts/ynl-tree.sh)
	python3-prometheus-client	# parses the exporter's output in tests
	man-db groff-base		# man --warnings on the man pages
	bash-completion
	libncurses-dev			# kstat top
	libsmartcols-dev		# ... its tables (pkg-config smartcols)
	libjson-c-dev			# kstat report, compare: reading recordings (pkg-config json-c)
	tmux				# tests/top.sh drives kstat top in a pane
	abigail-tools			# abidw/abidiff: the libkstat ABI check
	file				# run-guest.sh reads kernel image versions
	strace				# tests/export-textfile.sh: no fsync per rewrite
)

# --bench adds these (make bench-seed: the exporter beside node_exporter,
# bench/export-vs-node.sh; the guest runs the host's binary).  Nothing
# more today: prometheus-node-exporter is in PACKAGES (the rules' test).
BENCH_PACKAGES=()

# Packages whose postinst starts a service of the same name.  The tests
# run their own (promtool, node_exporter on ports of their own); a
# Prometheus scraping itself and node_exporter every 15 s would only take
# CPU from the guests on a 2-core machine.  When this script installed
# them, it stops and disables those services (under systemd only; an
# admin's existing set-up is never touched).
SERVICE_PACKAGES=(prometheus prometheus-node-exporter)

# Optional kernels: --kernel NAME adds these packages.
declare -A KERNEL_PACKAGES=(
	[6.12]="linux-image-6.12-amd64 linux-headers-6.12-amd64"
)

missing() {
	local p status
	for p in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[[ $status == installed ]] || echo "$p"
	done
}

# The kernel's YNL tools out of linux-source-6.12, for the guest tests
# (once; seconds only when the package changed).  As the caller, not root.
ynl_tree() {
	"$(dirname "${BASH_SOURCE[0]}")/ynl-tree.sh" > /dev/null
}

APT_SOURCES_DIR=${KSTAT_APT_SOURCES_DIR:-/etc/apt/sources.list.d}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# Packages among "$@" that apt cannot install: no candidate in any source.
no_candidate() {
	local p cand
	for p in "$@"; do
		cand=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		[[ -n $cand && $cand != "(none)" ]] || echo "$p"
	done
}

debian_codename() {
	(. "${KSTAT_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

# The suites an installed Debian 12 has and debootstrap leaves out.
write_bookworm_sources() {
	"${sudo[@]}" tee "$APT_SOURCES_DIR/kstat-bookworm.sources" > /dev/null <<EOF
# Added by kstat's scripts/install-deps.sh: Debian 12 ships
# linux-source-6.12 and its 6.12 kernels only in bookworm-security.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-updates
Components: main
Signed-By: $KEYRING

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: $KEYRING
EOF
}

# Give apt the suites the packages need, or stop saying which are missing.
ensure_candidates() {
	local -a lacking
	mapfile -t lacking < <(no_candidate "$@")
	((${#lacking[@]})) || return 0
	if [[ $(debian_codename) == bookworm && ! -e $APT_SOURCES_DIR/kstat-bookworm.sources ]]; then
		echo "install-deps: no candidate for ${lacking[*]}: Debian 12 ships" \
			"them in bookworm-security, which apt's sources lack; adding" \
			"$APT_SOURCES_DIR/kstat-bookworm.sources (bookworm-security, bookworm-updates)"
		write_bookworm_sources
		"${sudo[@]}" apt-get update -q
		mapfile -t lacking < <(no_candidate "$@")
		((${#lacking[@]})) || return 0
	fi
	echo "install-deps: apt has no candidate for: ${lacking[*]}." \
		"kstat needs Debian 12 (bookworm) with its main, bookworm-updates and" \
		"bookworm-security suites in apt's sources" >&2
	exit 1
}

# stop_services PKG...: among the packages just installed, stop and
# disable those of SERVICE_PACKAGES (their service has their name).
stop_services() {
	local p s
	local -a units=()
	[[ -d ${KSTAT_SYSTEMD_DIR:-/run/systemd/system} ]] || return 0
	for p in "$@"; do
		for s in "${SERVICE_PACKAGES[@]}"; do
			[[ $p == "$s" ]] && units+=("$s.service")
		done
	done
	((${#units[@]})) || return 0
	echo "install-deps: stopping and disabling ${units[*]} (started by their packages; the tests run their own)"
	"${sudo[@]}" systemctl disable --now "${units[@]}" || true
}

main() {
	local -a need sudo=()
	local k
	local -a kernels=() more
	read -r -a kernels <<< "${KSTAT_DEPS_KERNELS:-}"
	while (($#)); do
		case $1 in
		--bench) PACKAGES+=("${BENCH_PACKAGES[@]}"); shift ;;
		--kernel) kernels+=("${2:?--kernel needs a name}"); shift 2 ;;
		--kernel=*) kernels+=("${1#--kernel=}"); shift ;;
		*) echo "usage: $0 [--bench] [--kernel ${!KERNEL_PACKAGES[*]}]..." >&2; exit 2 ;;
		esac
	done
	for k in "${kernels[@]}"; do
		[[ -n ${KERNEL_PACKAGES[$k]:-} ]] ||
			{ echo "install-deps: no kernel '$k' (known: ${!KERNEL_PACKAGES[*]})" >&2; exit 2; }
		read -r -a more <<< "${KERNEL_PACKAGES[$k]}"
		PACKAGES+=("${more[@]}")
	done
	mapfile -t need < <(missing)
	if ((${#need[@]} == 0)); then
		echo "install-deps: all ${#PACKAGES[@]} packages present"
		ynl_tree
		return 0
	fi
	if ((EUID != 0)); then
		command -v sudo > /dev/null ||
			{ echo "install-deps: need root to install: ${need[*]}" >&2; exit 1; }
		sudo=(sudo)
	fi
	echo "install-deps: installing ${need[*]}"
	"${sudo[@]}" apt-get update -q
	ensure_candidates "${need[@]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${need[@]}"
	stop_services "${need[@]}"
	mapfile -t need < <(missing)
	if ((${#need[@]})); then
		echo "install-deps: still missing after install: ${need[*]}" >&2
		exit 1
	fi
	ynl_tree
}

main "$@"
