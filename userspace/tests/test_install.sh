#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test: `make install DESTDIR= PREFIX=` puts every piece where
# the README says, the library exports only versioned KSTAT_1 symbols, the
# installed CLI runs against the installed library, and `make uninstall`
# removes it all.
set -u
cd "$(dirname "$0")/../.." || exit 1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
failed=0
check() {	# WHAT CMD...
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		failed=1
	fi
}

make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
kver=$(make -s -f - <<<'include Makefile
print-kver: ; @echo $(KVER)' print-kver 2>/dev/null)
for f in usr/bin/kstat usr/lib/libkstat.so.1 usr/lib/libkstat.so usr/lib/libkstat.a \
	 usr/include/libkstat.h usr/include/linux/kstat.h \
	 "lib/modules/$kver/extra/kstat.ko"; do
	check "installed $f" test -e "$dest/$f"
done
check "libkstat.so is a link to libkstat.so.1" \
	test "$(readlink "$dest/usr/lib/libkstat.so")" = libkstat.so.1
check "SONAME is libkstat.so.1" \
	sh -c "readelf -d '$dest/usr/lib/libkstat.so.1' | grep -q 'SONAME.*libkstat.so.1'"
check "every exported symbol is kstat_* in KSTAT_1" \
	sh -c "! nm -D --defined-only '$dest/usr/lib/libkstat.so.1' | awk '\$3 != \"KSTAT_1\"' | grep -v ' kstat_[a-z_]*@@KSTAT_1\$'"
check "installed CLI runs with the installed library" \
	env LD_LIBRARY_PATH="$dest/usr/lib" "$dest/usr/bin/kstat" -V
check "a program builds against the installed headers" \
	sh -c "printf '#include <libkstat.h>\nint main(void){struct kstat_handle *h; return kstat_open(&h) == 0;}\n' |
	       cc -x c -I'$dest/usr/include' \$(pkg-config --cflags libnl-genl-3.0) - \
	       -L'$dest/usr/lib' -lkstat \$(pkg-config --libs libnl-genl-3.0) -o '$dest/prog'"
make -s uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
check "make uninstall leaves no file behind" \
	test -z "$(find "$dest" \( -type f -o -type l \) ! -name prog)"
exit $failed
