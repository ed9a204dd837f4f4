#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The streams' cost section of docs/performance.md, from the
bench/streams-cost.sh results (streams-cpus-N.txt or a seed run's file).

usage: report-streams.py FILE...
Each case's cost is the producer's time per second of window (STATS'
tick_ns_total over the window's CLOCK_BOOTTIME); the ratios are taken
round by round (the cases of a round run one after the other) and their
median is reported.
"""
import statistics
import sys


def load(path):
    rounds, notes = {}, []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            notes.append(line[2:].rstrip())
            continue
        if f[0] != "round":
            continue
        kv = dict(zip(f[3::2], (int(v) for v in f[4::2])))
        rounds.setdefault(int(f[1]), {})[f[2]] = kv
    return rounds, notes


def per_s(kv):
    return kv["tick_ns"] / (kv["elapsed_ns"] / 1e9)


def report(path):
    rounds, notes = load(path)
    if not rounds:
        print(f"No streams cost results in {path}.")
        return
    print(f"From `{path.split('/')[-1]}`; {notes[0] if notes else ''}.")
    print()
    print("| case | readers | ticks/s | samples/s (all streams) | producer µs/s | producer µs/tick |")
    print("|---|---|---|---|---|---|")
    for case in ("union", "eight", "m64", "idle"):
        kvs = [r[case] for r in rounds.values() if case in r]
        if not kvs:
            continue
        secs = [kv["elapsed_ns"] / 1e9 for kv in kvs]
        ticks = statistics.median(kv["ticks"] / s for kv, s in zip(kvs, secs))
        samples = statistics.median(kv["samples"] / s for kv, s in zip(kvs, secs))
        cost = statistics.median(per_s(kv) / 1e3 for kv in kvs)
        each = statistics.median(kv["tick_ns"] / kv["ticks"] / 1e3 if kv["ticks"] else 0
                                 for kv in kvs)
        # Results before "readers" counted samples over the readers' whole
        # run, not the window: not comparable, left out.
        readers = kvs[0].get("readers")
        shown = f"{samples:.1f}" if readers is not None else "–"
        print(f"| {case} | {'' if readers is None else readers} | {ticks:.1f} | {shown} | {cost:.0f} | {each:.0f} |")
    print()
    for case, goal, what in (("eight", 1.5, "8 streams of different intervals and sections / one stream of their union at the shortest interval"),
                             ("m64", 1.2, "64 members of one stream / one member")):
        ratios = [per_s(r[case]) / per_s(r["union"]) for r in rounds.values()
                  if case in r and "union" in r and r["union"]["tick_ns"]]
        if not ratios:
            continue
        med = statistics.median(ratios)
        verdict = "meets" if med <= goal else "misses"
        listed = ", ".join(f"{x:.2f}" for x in ratios)
        print(f"- {what}: **{med:.2f}×** (median of rounds: {listed}); the goal is ≤ {goal}×: {verdict} it.")
    idle = [r["idle"] for r in rounds.values() if "idle" in r]
    if idle:
        t = sum(kv["ticks"] for kv in idle)
        ns = sum(kv["tick_ns"] for kv in idle)
        print(f"- No reader (every stream gone with its members): {t} ticks, {ns} ns over {len(idle)} windows.")
    print()


def main():
    for path in sys.argv[1:]:
        report(path)


if __name__ == "__main__":
    main()
