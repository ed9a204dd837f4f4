#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare slab caches and MemAvailable across a control and a test phase.

usage: slabdiff.py DIR MIN_OBJS MIN_KB

DIR holds slab.{start,control,unload} (copies of /proc/slabinfo) and
memavail.{start,control,unload} (kB), each taken with the load stopped and
the caches dropped: at the start, after the control phase (the load alone)
and after the test phase (the same load with the unload cycles).

A cache leaks when its active objects grew over the test phase by more
than MIN_OBJS, by more than twice what they moved over the control phase
(the noise of the same load without the unloads), and by more than two
slabs per CPU: SLUB counts every object of a CPU's active and partial
slab as in use, so a cache moves by whole slabs (a kmalloc-8 slab is 512
objects) without anything allocated.  MemAvailable
leaks when it fell over the test phase by more than MIN_KB and by more
than twice what it moved over the control phase.  Prints every cache
that moved by more than 16 objects in either phase, and the verdict;
exit status 1 on a leak.
"""
import os
import sys


def slab(path):
    caches = {}
    with open(path) as f:
        for line in f:
            if line.startswith(("slabinfo", "#")):
                continue
            x = line.split()
            # name active_objs num_objs objsize objperslab ...
            caches[x[0]] = (int(x[1]), int(x[3]), int(x[4]))
    return caches


def mem(path):
    with open(path) as f:
        return int(f.read())


def main():
    d, min_objs, min_kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    s0, s1, s2 = (slab(f"{d}/slab.{p}") for p in ("start", "control", "unload"))
    m0, m1, m2 = (mem(f"{d}/memavail.{p}") for p in ("start", "control", "unload"))
    leaks = []
    cpus = os.cpu_count() or 1
    print(f"{'cache':24} {'objsize':>7} {'start':>8} {'control':>8} {'unload':>8}"
          f" {'d_ctl':>7} {'d_unl':>7} {'floor':>6}")
    for name in sorted(set(s0) | set(s1) | set(s2)):
        a, b, c = (s.get(name, (0, 0, 0))[0] for s in (s0, s1, s2))
        size = max(s.get(name, (0, 0, 0))[1] for s in (s0, s1, s2))
        per_slab = max(s.get(name, (0, 0, 0))[2] for s in (s0, s1, s2))
        floor = max(min_objs, 2 * cpus * per_slab)
        dc, du = b - a, c - b
        if abs(dc) > 16 or abs(du) > 16:
            print(f"{name:24} {size:7} {a:8} {b:8} {c:8} {dc:+7} {du:+7} {floor:6}")
        if du > floor and du > 2 * abs(dc):
            leaks.append(f"{name} +{du} objects ({du * size} bytes; control {dc:+})")
    dmc, dmu = m1 - m0, m2 - m1
    print(f"MemAvailable kB: start {m0} control {m1} unload {m2}"
          f" (d_ctl {dmc:+}, d_unl {dmu:+})")
    if -dmu > min_kb and -dmu > 2 * abs(dmc):
        leaks.append(f"MemAvailable -{-dmu} kB (control {dmc:+} kB)")
    if leaks:
        print("LEAK: " + "; ".join(leaks))
        return 1
    print(f"no leak: no cache grew by more than max({min_objs} objects,"
          f" {2 * cpus} slabs) and twice the control, MemAvailable did not"
          f" fall by more than {min_kb} kB and twice the control")
    return 0


if __name__ == "__main__":
    sys.exit(main())
