#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `kstat export prometheus --names node` with node_exporter.

Run with /usr/bin/python3 (Debian's python3-prometheus-client).

  node_compare.py K1 NODE K2 REST

K1 and K2: kstat's pages fetched before and after NODE, node_exporter
1.5's page (--collector.cpu --collector.interrupts --collector.stat
--collector.stat.softirq), K2 at least one sample after NODE was read.
REST: node_exporter's page with --no-collector.cpu --no-collector.interrupts
--no-collector.stat, the set-up that runs beside kstat.

Checks, for the families both export:
  * kstat has every family of NODE's that it claims, and NODE every one
    of kstat's (but node_softirqs_functions_total: node_exporter 1.7's
    softirqs collector, not in 1.5);
  * the same label sets, series by series (node_interrupts_total rows
    that kstat.ko cannot read as a module, MCE and MCP, are allowed
    missing from kstat's and named);
  * every value of NODE within [K1 - tol, K2 + tol]: tol 0.05 s for CPU
    seconds (/proc/stat's 10 ms ticks), 0 for counts; node_intr_total
    may exceed K2 by NODE's MCE and MCP counts (/proc/stat counts them);
  * no series (name and labels) both in K2 and in REST.
Prints a summary line; exit 1 with the differences on any failure.
"""
import sys

from prometheus_client.parser import text_string_to_metric_families

SHARED = {
    "node_cpu_seconds_total",
    "node_cpu_guest_seconds_total",
    "node_interrupts_total",
    "node_intr_total",
    "node_softirqs_total",
}
KSTAT_ONLY = {"node_softirqs_functions_total"}	# node_exporter >= 1.7
UNREAD = {"MCE", "MCP"}				# kstat_arch_interrupts_unread
CPU_TOL = 0.05


def load(path):
    """{(name, frozenset(labels)): value}, {family names}"""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    series, names = {}, set()
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            key = (s.name, frozenset(s.labels.items()))
            if key in series:
                sys.exit(f"{path}: {s.name}{s.labels} twice")
            series[key] = s.value
            names.add(s.name)
    return series, names


def show(key):
    name, labels = key
    return name + "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels)) + "}"


def main():
    k1, _ = load(sys.argv[1])
    node, node_names = load(sys.argv[2])
    k2, k2_names = load(sys.argv[3])
    rest, _ = load(sys.argv[4])
    errors = []

    # kstat's own: the exporter's health, and the arch rows it cannot read
    # (node_exporter reads MCE and MCP; a rule must learn they are unwatched)
    data = {n for n in k2_names if not n.startswith("kstat_exporter_")
            and n != "kstat_arch_interrupts_unread"}
    if data != SHARED | KSTAT_ONLY:
        errors.append(f"kstat's families {sorted(data)}, want {sorted(SHARED | KSTAT_ONLY)}")
    missing = SHARED - node_names
    if missing:
        errors.append(f"node_exporter lacks {sorted(missing)}")
    if "node_softirqs_functions_total" in node_names:
        errors.append("node_exporter has node_softirqs_functions_total: compare it too")

    nk = {k for k in node if k[0] in SHARED}
    kk = {k for k in k2 if k[0] in SHARED}
    only_node = nk - kk
    allowed = {k for k in only_node
               if k[0] == "node_interrupts_total" and dict(k[1]).get("type") in UNREAD}
    for k in sorted(only_node - allowed, key=show):
        errors.append(f"only node_exporter's: {show(k)}")
    for k in sorted(kk - nk, key=show):
        errors.append(f"only kstat's: {show(k)}")

    unread = sum(v for k, v in node.items()
                 if k[0] == "node_interrupts_total" and dict(k[1]).get("type") in UNREAD)
    compared = 0
    worst = 0.0
    for k in sorted(nk & kk, key=show):
        if k not in k1:
            errors.append(f"not in kstat's first page: {show(k)}")
            continue
        tol = CPU_TOL if k[0].startswith("node_cpu") else 0
        lo, hi = k1[k] - tol, k2[k] + tol
        if k[0] == "node_intr_total":
            hi += unread
        v = node[k]
        compared += 1
        if not lo <= v <= hi:
            errors.append(f"{show(k)}: node_exporter {v}, kstat {k1[k]} .. {k2[k]}")
        elif tol:
            worst = max(worst, k1[k] - v, v - k2[k])

    dups = set(k2) & set(rest)
    for k in sorted(dups, key=show):
        errors.append(f"in both kstat's and node_exporter's (--no-collector.cpu,interrupts,stat) pages: {show(k)}")

    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print(f"{len(nk & kk)} series alike, {compared} values bracketed "
          f"(CPU seconds out of the bracket by at most {worst:.3f} s), "
          f"node_exporter only: {sorted(show(k) for k in allowed)[:4]}"
          f"{' ...' if len(allowed) > 4 else ''} ({len(allowed)}, MCE/MCP: unread by kstat.ko), "
          f"{len(rest)} series beside kstat's {len(k2)}, none in both")


main()
