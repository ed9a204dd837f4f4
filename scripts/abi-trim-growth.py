#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""abi-trim-growth.py BASELINE NEW OUT: NEW's ABI (abidw XML) with the
growth libkstat.h allows taken off, for `make -C userspace abi-check`.

libkstat.h's growth rules (libkstat 2): the structs the library
allocates (struct kstat_sample and the elements of its arrays, struct
kstat_cputime, kstat_irq, kstat_arch, kstat_softirq) and those passed
with their size (struct kstat_query, kstat_sub_opts, kstat_sub_ops,
kstat_config, kstat_limits, kstat_stats) may gain members at their end.
For each of them, the members of NEW at or past BASELINE's size are
dropped and the size set back to BASELINE's.  abidiff (--no-added-syms)
between BASELINE and OUT then fails on anything else: a member inserted
before the end moves the old ones, a struct that may not grow (struct
kstat_cpu_count, indexed with [] in the per-CPU lists) changes size, a
symbol goes.  abidiff's own suppression (has_data_member_inserted_at = end)
is not used: libabigail 2.2 lets an insertion in the middle through.
"""
import re
import sys
import xml.etree.ElementTree as ET

GROWABLE = re.compile(r"^kstat_(sample|cputime|irq|arch|softirq|query|sub_opts|"
                      r"sub_ops|config|limits|stats)$")


def struct_sizes(tree):
    return {c.get("name"): int(c.get("size-in-bits", "0"))
            for c in tree.iter("class-decl")
            if c.get("is-struct") == "yes" and c.get("name")
            and c.get("is-declaration-only") != "yes"}


def trim(tree, old_sizes):
    for c in tree.iter("class-decl"):
        name = c.get("name") or ""
        if not GROWABLE.match(name) or name not in old_sizes:
            continue
        old = old_sizes[name]
        for m in list(c.findall("data-member")):
            if int(m.get("layout-offset-in-bits", "0")) >= old:
                c.remove(m)
        c.set("size-in-bits", str(old))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: abi-trim-growth.py BASELINE NEW OUT")
    base = ET.parse(sys.argv[1])
    new = ET.parse(sys.argv[2])
    trim(new, struct_sizes(base))
    new.write(sys.argv[3])


if __name__ == "__main__":
    main()
