#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kver.sh [--stock | --rt] - print a kernel release (a directory
# name under /lib/modules) for the Makefile's KVER, tests/vm/run-guest.sh
# and scripts/kernel-lint.sh, so that they all agree.
#
#   (default)  the running kernel if its headers are installed
#              (/lib/modules/$(uname -r)/build), else --stock
#   --stock    Debian 12's stock kernel: the one linux-image-amd64 depends
#              on, if its modules are installed; else the newest
#              /lib/modules/6.1.*-amd64 (never -rt-, never a 6.12 backport
#              such as 6.12.117+deb12-amd64)
#   --rt       Debian 12's PREEMPT_RT kernel (make check-rt): the one
#              linux-image-rt-amd64 depends on, else the newest
#              /lib/modules/6.1.*-rt-amd64
#
# Other kernels (6.12, ...) only when named: make KVER=6.12.117+deb12-amd64.
# Prints nothing and exits 1 when there is no such kernel.
#
# For tests (tests/unit/test_kver): KVER_MODULES (default /lib/modules),
# KVER_RUNNING (default uname -r), KVER_DEPENDS_STOCK / KVER_DEPENDS_RT
# (default the Depends: of linux-image-amd64 / linux-image-rt-amd64).

set -uo pipefail

MODULES=${KVER_MODULES:-/lib/modules}

# from_depends DEPENDS PATTERN: the release in a "linux-image-<release> (=
# <version>)" dependency, if it matches PATTERN and is installed.
from_depends() {
	local rel
	rel=$(sed -n 's/^linux-image-\([^ ,]*\).*/\1/p' <<< "$1")
	[[ -n $rel && $rel =~ $2 && -d $MODULES/$rel ]] || return 1
	echo "$rel"
}

# newest PATTERN: the newest installed release matching PATTERN.
newest() {
	local rel
	rel=$(ls -1 "$MODULES" 2>/dev/null | grep -E -- "$1" | sort -V | tail -n 1)
	[[ -n $rel ]] || return 1
	echo "$rel"
}

depends_of() {
	dpkg-query -W -f='${Depends}' "$1" 2>/dev/null || true
}

# Debian's 6.1 ABI names: 6.1.0-57-amd64, 6.1.0-57-rt-amd64.
STOCK_RE='^6\.1\.[0-9.]+-[0-9]+-amd64$'
RT_RE='^6\.1\.[0-9.]+-[0-9]+-rt-amd64$'

stock() {
	from_depends "${KVER_DEPENDS_STOCK-$(depends_of linux-image-amd64)}" "$STOCK_RE" ||
		newest "$STOCK_RE"
}

rt() {
	from_depends "${KVER_DEPENDS_RT-$(depends_of linux-image-rt-amd64)}" "$RT_RE" ||
		newest "$RT_RE"
}

main() {
	local running
	case ${1:-} in
	--stock) stock ;;
	--rt) rt ;;
	'')
		running=${KVER_RUNNING:-$(uname -r)}
		if [[ -d $MODULES/$running/build ]]; then
			echo "$running"
		else
			stock
		fi
		;;
	*) echo "usage: $0 [--stock | --rt]" >&2; return 2 ;;
	esac
}

main "$@"
