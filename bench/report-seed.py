#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The seed-scale section of docs/performance.md, from `make bench-seed`.

usage: report-seed.py RESULTS_DIR [BEFORE_FILE] > section

RESULTS_DIR (build/bench-seed) holds seed-cpus-N.txt (kstat-bench),
seed-cpus-N.before.txt (protocol 4's kstat-bench in the same boot),
export-cpus-N.txt (bench/export-vs-node.sh) and readers-cpus-N.txt from
bench/guest-bench-seed.sh, and run.txt from scripts/bench-seed.sh.
BEFORE_FILE (bench/before/protocol4-seed.txt) has what protocol 4's last
seed run reported.  Every ratio divides figures of one guest run; the
seed's own figures (real hardware) are quoted beside them, never divided
by them.  Nothing is asserted.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load, pct, ratio, readers_section, row, tree_line  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BEFORE = os.path.join(HERE, "before", "protocol4-seed.txt")

# The seed: Waiman Long, "/proc/stat: Add sysctl parameter to control irq
# counts latency", 4-socket 96-core Broadwell (HT off), 2824 IRQs,
# 10,000 reads of /proc/stat.
SEED_READS = 10000
SEED_ELAPSED = 11.041	# s, proc-stat-irqs-latency-ms = 0 (mainline)
SEED_SYS = 9.452
SEED_CACHED = 8.000	# s, latency 1000 ms: the refused cache patch
SEED_CACHED_SYS = 4.740


def load_page(path):
    d, run = {}, ""
    for line in open(path):
        f = line.split()
        if not f or f[0] == "#":
            continue
        if f[0] == "run":
            run = " ".join(f[2:5])
        elif f[0] != "config" and len(f) == 2:
            d[f[0]] = float(f[1])
    return d, run


def load_export(res):
    """export-cpus-N.txt (bench/export-vs-node.sh), or None."""
    files = sorted(glob.glob(os.path.join(res, "export-cpus-*.txt")))
    if not files:
        return None
    e = {"round": {}, "quiet": {}, "unit": {}, "notes": []}
    for line in open(files[0]):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            e["notes"].append(line[2:].rstrip())
        elif f[0] in ("export", "export_quiet", "export_unit"):
            kv = {f[i]: f[i + 1] for i in range(3 if f[0] != "export_unit" else 1, len(f) - 1, 2)}
            if f[0] == "export_unit":
                e["unit"][kv["percpu"]] = kv
            else:
                e["round" if f[0] == "export" else "quiet"][(f[1], f[2])] = kv
    return e


def export_section(e, page, totals_bytes=None):
    o = ["### The exporter beside node_exporter (goal ≥ 300× less CPU per scrape)\n"]
    if not e["round"]:
        o.append("Not measured in this run: " + "; ".join(e["notes"]) + "\n")
        return o
    version = next((n for n in e["notes"] if "node_exporter" in n.lower() or "version" in n), "")
    o.append("`kstat export prometheus` beside Debian's prometheus-node-exporter "
             f"({version or 'its version line missing'}) with only the collectors that "
             "export the same counters (`--collector.disable-defaults --collector.cpu "
             "--collector.stat --collector.stat.softirq --collector.interrupts`), in the "
             "same boot, both as uid 65534 without capabilities (the shipped unit's "
             "way), each scraped with gzip by its own loop (a scrape, then 3 s, again) "
             "until node_exporter has had its scrapes; kstat reads a subscription of "
             "its own, a sample every 1 s (`--interval 1000`, as the shipped unit; "
             "`bench/export-vs-node.sh`).  CPU is the "
             "process's utime + stime (`/proc/PID/stat`, all threads) over that one "
             "window, divided by the scrapes each got: kstat's includes receiving the "
             "window's samples (about 3 per scrape).  Run without per-CPU counts "
             "(`percpu off`: kstat exports IRQ totals) and with `--percpu` (`percpu "
             "on`: per-CPU IRQ counts, as node_interrupts_total has them); protocol 4 "
             "took them from the default stream's config.  Before: protocol 4's run "
             "of the same script, as its page reported it.\n")
    o.append("| per-CPU counts | exporter | scrapes | CPU | CPU per scrape | body (gzip) | series | ratio | before |")
    o.append("|---|---|---|---|---|---|---|---|---|")
    for percpu in ("off", "on"):
        k, n = e["round"].get((percpu, "kstat")), e["round"].get((percpu, "node"))
        own = n is not None
        if not n:	# a round without node_exporter: the other round's
            n = next((v for (p, w), v in e["round"].items() if w == "node"), None)
        if not k or not n:
            continue
        kc = int(k["cpu_ms"]) / max(int(k["scrapes"]), 1)
        nc = int(n["cpu_ms"]) / max(int(n["scrapes"]), 1)
        r = (f"**{nc / kc:.0f}× less** ({'meets' if nc / kc >= 300 else 'misses'} 300×)" if kc
             else "kstat's CPU below the clock's 10 ms") + \
            ("" if own else ", against node_exporter's row above (kstat alone in this round)")
        b = page.get(f"export_{percpu}_ratio")
        bcol = f"{page[f'export_{percpu}_kstat_ms_per_scrape']:.0f} ms, {b:.0f}× less ²" if b else ""
        for who, x, c in (("kstat", k, kc), ("node_exporter", n, nc)):
            if who == "node_exporter" and not own:
                continue
            o.append(f"| percpu {percpu} | {who} | {x['scrapes']} in {x['wall_s']} s | "
                     f"{int(x['cpu_ms']) / 1e3:.2f} s | {c:.0f} ms | "
                     f"{int(x['bytes']) / 1e3:.0f} KB | {x['series']} | "
                     f"{r if who == 'kstat' else ''} | {bcol if who == 'kstat' else ''} |")
    o.append("")
    q = [(p, e["quiet"].get((p, "kstat"))) for p in ("off", "on")]
    q = [(p, x) for p, x in q if x and int(x["samples"])]
    if q:
        o.append("Nobody scraping (the quiet phase before each round): kstat spent " +
                 ", ".join(f"{int(x['cpu_ms']) / int(x['samples']):.0f} ms per sample "
                           f"with percpu {p} ({x['samples']} samples)" for p, x in q) +
                 "; node_exporter " + ", ".join(
                     f"{e['quiet'][(p, 'node')]['cpu_ms']} ms in {e['quiet'][(p, 'node')]['seconds']} s"
                     for p, _ in q if (p, "node") in e["quiet"]) + ".\n")
    u = e["unit"].get("off")
    if u and totals_bytes and int(u["sample_bytes"]) > 1.5 * totals_bytes:
        o.append(f"Without `--percpu` the exporter's samples were {int(u['sample_bytes']):,} bytes "
                 f"each, where a sample of every section without per-CPU counts is "
                 f"{totals_bytes:,.0f} (the sizes above): its subscription asks the kernel for "
                 "per-CPU detail either way, and `--percpu` only decides what it exports.\n")
    errs = [n[len("kstat stderr: "):] for n in e["notes"] if n.startswith("kstat stderr: ")]
    if errs:
        o.append("The exporter's stderr in this run: " + "; ".join(f"`{x}`" for x in errs[:3]) + ".\n")
    for percpu in ("off", "on"):
        u = e["unit"].get(percpu)
        if not u:
            continue
        o.append(f"The shipped unit's way, `percpu {percpu}`: the exporter as uid 65534 "
                 f"without capabilities, net.core.rmem_max {int(u['rmem_max']):,}: its "
                 f"subscription's receive buffer {int(u['rcvbuf']):,} bytes (`ss`, halved "
                 f"as SO_RCVBUF reports it), a whole sample {int(u['sample_bytes']):,} "
                 f"bytes (STATS bytes ÷ samples); after {u['samples']} samples it had "
                 f"lost {u['lost']} (up {u['up']}, {int(u['cpu_series']):,} "
                 f"kstat_interrupts_cpu_total series, {u['warnings']} libkstat warnings).\n")
    return o


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    res = sys.argv[1]
    page, page_run = load_page(sys.argv[2] if len(sys.argv) == 3 else BEFORE)
    files = sorted(p for p in glob.glob(os.path.join(res, "seed-cpus-*.txt"))
                   if not p.endswith(".before.txt"))
    if not files:
        print("report-seed.py: no results", file=sys.stderr)
        return 1
    r = load(files[0])
    cfg, m, t, v = r["cfg"], r["m"], r["t"], r["v"]
    bpath = files[0][:-len(".txt")] + ".before.txt"
    same = load(bpath) if os.path.exists(bpath) else None
    if same and not same["m"]:
        same = None
    repeats = next((int(n.split()[n.split().index("-r") + 1]) for n in r["notes"]
                    if n.startswith("kstat-bench") and "-r" in n.split()), 5)
    run = {}
    if os.path.exists(os.path.join(res, "run.txt")):
        f = open(os.path.join(res, "run.txt")).read().split()
        kv = dict(zip(f[1::2], f[2::2]))
        run = {"wall": kv.get("wall"), "date": " ".join(f[f.index("date") + 1:]),
               "load": (kv.get("load_start"), kv.get("load_end")), "qemu": kv.get("other_qemu"),
               "rc": kv.get("guest_rc", "0")}
        log = os.path.join(res, "guest.log")
        run["why"] = [x.strip() for x in open(log) if x.startswith("not ok")] \
            if os.path.exists(log) else []

    def val(name, d=v):
        return d[name][0] if name in d else float("nan")

    def md(name, side, d=m):
        return d[name][2 * side] if name in d else float("nan")

    def tm(name):
        return t[name][0] if name in t else float("nan")

    stat_read = tm("proc_stat")
    interrupts = tm("proc_interrupts")
    softirqs = tm("proc_softirqs")

    o = []
    o.append("## The seed's experiment at its own scale (`make bench-seed`)\n")
    o.append("The seed (Waiman Long, \"/proc/stat: Add sysctl parameter to control irq "
             "counts latency\") measured a 4-socket 96-core Broadwell with 2824 IRQs: "
             f"{SEED_READS:,} reads of /proc/stat took {SEED_ELAPSED:.1f} s "
             f"({SEED_SYS:.1f} s system), about {1e3 * SEED_ELAPSED / SEED_READS:.1f} ms "
             f"per read; with the refused cache patch (proc-stat-irqs-latency-ms=1000) "
             f"{SEED_CACHED:.1f} s ({SEED_CACHED_SYS:.1f} s system), still "
             f"{1e3 * SEED_CACHED / SEED_READS:.1f} ms per read.\n")
    o.append(f"Here: one QEMU TCG guest with {cfg['cpus']} vCPUs on a 2-core host, "
             f"{cfg['descs']} IRQ descriptors ({cfg['irqs']} of them synthetic, from "
             f"tests/irqsim, fired affine: IRQ i (i % 7) + 1 times on CPU i % {cfg['cpus']}), "
             "Debian's 6.1 kernel, protocol 5.  "
             + (f"Run {run['date']} UTC; `make bench-seed` took {run['wall']} s of host "
                f"wall time, boot included; the host's load average was {run['load'][0]} "
                f"at its start and {run['load'][1]} at its end, with {run['qemu']} other "
                "QEMU guest(s) running at its start.  " if run else "")
             + (f"The guest runner failed the run (exit {run['rc']}"
                + (": " + "; ".join(run["why"]) if run["why"] else "")
                + "); the figures below are what it measured all the same.  "
                if run and run["rc"] != "0" else "")
             + "Times are the guest's clock; TCG makes every absolute time several "
             "times the hardware's, and a busy host moves them: only the ratios within "
             f"this run mean something.  Medians of {repeats} runs after warm-up; ± is "
             "the standard deviation in % of the median.\n")
    tree = tree_line(res)
    if tree:
        o.append(tree + "\n")
    o.append("Before: ¹ protocol 4's module and kstat-bench (commit ffdd1b0) in the same "
             "boot, after this tree's (`scripts/bench-before.sh`); ² as protocol 4's "
             f"page reported its run of {page_run} (`bench/before/protocol4-seed.txt`).  "
             + ("This run has ¹ figures." if same else "This run has no ¹ figures.") + "\n")

    # ---- goals ----
    o.append("### Issue 38's cost goals at the seed's scale (nothing here is asserted)\n")
    o.append("| goal | this run | before |")
    o.append("|---|---|---|")
    stat_m = md("irq_vs_stat_intr", 0)
    raw, lib = md("irq_vs_stat_raw", 1), md("irq_vs_stat_intr", 1)
    if same:
        bs = md("irq_vs_stat_intr", 0, same["m"])
        bl, br = md("irq_libkstat_vs_raw", 0, same["m"]), md("irq_libkstat_vs_raw", 1, same["m"])
        bcol = f"{ratio(br, bs)} / {ratio(bl, bs)} ¹"
    else:
        bcol = (f"{page.get('ratio_irq_dump_vs_stat_raw', 0):.2f}× / "
                f"{page.get('ratio_irq_dump_vs_stat_libkstat', 0):.2f}× ²")
    verdict = lambda x: "meets" if x <= 0.5 else "misses"
    o.append(f"| IRQ totals dump ÷ one /proc/stat read, raw / libkstat (≤ 0.5×) | "
             f"**{ratio(raw, stat_m)} / {ratio(lib, stat_m)}** ({verdict(raw / stat_m)} / "
             f"{verdict(lib / stat_m)}) | {bcol} |")
    for name, what in (("agent_percpu", "every counter, per-CPU counts included"),
                       ("agent", "totals and the cpu rows")):
        if name not in m:
            continue
        x = md(name, 0) / md(name, 1)
        bcol = ""
        if name == "agent":
            if same and "agent" in same["m"]:
                sub = md("agent", 1, same["m"])
                prod = same["v"].get("summary_cost_1_subscribers", (float("nan"),))[0]
                bcol = (f"{ratio(md('agent', 0, same['m']), sub + prod, '{:.1f}×')} with the "
                        f"producer, {ratio(md('agent', 0, same['m']), sub, '{:.1f}×')} without ¹")
            else:
                bcol = (f"{page.get('ratio_agent_with_producer', 0):.1f}× with the producer, "
                        f"{page.get('ratio_agent_subscriber_only', 0):.1f}× without ²")
        o.append(f"| an agent ({what}): three /proc files ÷ (subscriber + producer) per "
                 f"sample (≥ 100×) | **{x:.1f}×** ({'meets' if x >= 100 else 'misses'}): "
                 f"{md(name, 0):.0f} µs against {tm(name + '_subscriber'):.0f} + "
                 f"{tm(name + '_producer'):.0f} µs | {bcol} |")
    rds = [load(p) for p in sorted(glob.glob(os.path.join(res, "readers-cpus-*.txt")))]
    if rds and rds[0]["rounds"]:
        from report import readers_ratios
        import statistics
        rs = readers_ratios(rds[0]["rounds"], "eight")
        if rs:
            x = statistics.median(rs)
            o.append(f"| 8 readers of different intervals and sections ÷ one reader of their "
                     f"union, producer µs/s (≤ 1.5×) | **{x:.2f}×** "
                     f"({'meets' if x <= 1.5 else 'misses'}; rounds "
                     f"{', '.join(f'{y:.2f}' for y in rs)}) | "
                     f"{page.get('ratio_readers_eight', 0):.2f}× (own streams) ² |")
        idle = [rr["idle"] for rr in rds[0]["rounds"].values() if "idle" in rr]
        if idle:
            o.append(f"| no reader: the producer costs nothing | {sum(k['ticks'] for k in idle)} "
                     f"ticks, {sum(k['tick_ns'] for k in idle)} ns in {len(idle)} windows | "
                     f"{page.get('readers_idle_ticks', 0):.0f} ticks ² |")
    if "idle_ticks" in v:
        o.append(f"| no reader (after the agent), 10 s | {val('idle_ticks'):.0f} ticks, "
                 f"{val('idle_tick_ns'):.0f} ns, running {val('idle_running'):.0f} | |")
    ex = load_export(res)
    if ex and ex["round"]:
        for percpu in ("off", "on"):
            k = ex["round"].get((percpu, "kstat"))
            n = ex["round"].get((percpu, "node")) or next(
                (x for (p, w), x in ex["round"].items() if w == "node"), None)
            if k and n and int(k["cpu_ms"]):
                x = (int(n["cpu_ms"]) / max(int(n["scrapes"]), 1)) / (int(k["cpu_ms"]) / max(int(k["scrapes"]), 1))
                o.append(f"| exporter ÷ node_exporter per scrape, percpu {percpu} (≥ 300×) | "
                         f"**{x:.0f}×** ({'meets' if x >= 300 else 'misses'}) | "
                         f"{page.get(f'export_{percpu}_ratio', 0):.0f}× ² |")
    o.append("")

    # ---- sizes ----
    o.append("### What a whole sample costs in bytes\n")
    o.append("A sample of every section as an own subscription receives it (raw "
             "client): all its parts' bytes (a sample over 32 KiB comes in parts).  "
             "Before: protocol 4's keyframe and delta (the issue's 21.7 KB and 33 KB).\n")
    o.append("| | bytes | parts | largest part | before |")
    o.append("|---|---|---|---|---|")
    sv = same["v"] if same else {}
    sb = lambda k, pk: (f"{sv[k][0]:.0f} ¹" if k in sv else f"{page.get(pk, 0):.0f} ²")
    for name, what, b in (("totals", "every section, totals",
                           f"keyframe {sb('keyframe_bytes_totals', 'keyframe_bytes_totals')}, "
                           f"delta {sb('summary_bytes_delta', 'delta_bytes')}"),
                          ("percpu", "every section, per-CPU counts",
                           f"keyframe {sb('keyframe_bytes_percpu', 'keyframe_bytes_percpu')}"),
                          ("irq_totals", "the irq section alone, totals", "")):
        o.append(f"| sample, {what} | {val('sample_bytes_' + name):.0f} | "
                 f"{val('sample_parts_' + name):.0f} | {val('sample_largest_part_' + name):.0f} | {b} |")
    for name, what, b in (("irq_dump", "IRQ totals dump", sb("dump_bytes_totals", "irq_dump_totals_bytes")),
                          ("irq_dump_percpu", "IRQ dump, per-CPU", sb("dump_bytes_percpu", "irq_dump_percpu_bytes")),
                          ("dump_all_percpu", "dump of every section, per-CPU", "")):
        if f"{name}_bytes" in v:
            o.append(f"| {what} | {val(name + '_bytes'):.0f} | {val(name + '_msgs'):.0f} messages, "
                     f"{val(name + '_reads'):.0f} dumpit calls | | {b} |")
    o.append("")

    # ---- the seed's loop ----
    o.append("### The seed's loop\n")
    o.append(f"| | seed, 96-core Broadwell | this guest, {cfg['cpus']} vCPUs under TCG |")
    o.append("|---|---|---|")
    o.append(f"| reads of /proc/stat (open, read, close) | {SEED_READS:,} | {int(val('seed_reads')):,} |")
    o.append(f"| elapsed | {SEED_ELAPSED:.1f} s (8.0 s with the refused cache) | {val('seed_wall'):.2f} s |")
    o.append(f"| system time | {SEED_SYS:.1f} s (4.7 s with the cache) | {val('seed_sys'):.2f} s |")
    o.append(f"| per read | {1e3 * SEED_ELAPSED / SEED_READS:.1f} ms (0.8 ms with the cache) "
             f"| {val('seed_per_read') / 1e3:.2f} ms (protocol 4's run: {page.get('seed_per_read', 0) / 1e3:.2f} ms) |")
    o.append("")

    # ---- LKP ----
    o.append("### Side by side, one run\n")
    o.append("```")
    o.append(f"{'/proc':>12} {'±sd':>4} {'%change':>10} {'kstat':>12} {'±sd':>4}  metric")
    o.append(f"# cpus={cfg['cpus']} irqs={cfg['irqs']} (descriptors {cfg['descs']})")
    for name, label in (("cpu", "cpu.us/read (/proc/stat cpu lines vs GET cpu percpu, libkstat)"),
                        ("cpu_raw", "cpu_raw.us/read (the same, raw client)"),
                        ("irq_vs_stat_intr", "irq_vs_stat_intr.us/read (intr line vs IRQ totals dump, libkstat)"),
                        ("irq_vs_stat_raw", "irq_vs_stat_raw.us/read (the same, raw client)"),
                        ("irq_vs_interrupts", "irq_vs_interrupts.us/read (/proc/interrupts vs IRQ totals dump, libkstat)"),
                        ("irq_vs_interrupts_raw", "irq_vs_interrupts_raw.us/read (the same, raw client)"),
                        ("agent", "agent.us-cpu/sample (three files vs subscriber + producer, totals)"),
                        ("agent_percpu", "agent_percpu.us-cpu/sample (the same, per-CPU counts)")):
        if name in m:
            b_, bsd, k, ksd, _ = m[name]
            o.append(row(b_, bsd, k, ksd, label))
    o.append(f"{'libkstat':>12} {'':4} {'':10} {'raw':>12} {'':4}  # the same request, two clients")
    for name, label in (("floor_libkstat_vs_raw", "floor.us/op (CONFIG_GET: libkstat vs raw)"),
                        ("irq_libkstat_vs_raw", "irq.us/read (IRQ totals dump: libkstat vs raw)")):
        if name in m:
            b_, bsd, k, ksd, _ = m[name]
            o.append(row(b_, bsd, k, ksd, label))
    o.append(f"{'/proc':>12} {'':4} {'':10} {'kstat':>12} {'':4}  # single figures")
    for name in ("proc_stat", "proc_interrupts", "proc_softirqs"):
        if name in t:
            x, sd, unit = t[name]
            o.append(f"{x:12.1f} ±{pct(sd, x)} {'':10} {'':12} {'':4}  {name}.{unit} (one read+parse)")
    for name in ("agent_subscriber", "agent_producer", "agent_percpu_subscriber", "agent_percpu_producer"):
        if name in t:
            x, sd, unit = t[name]
            o.append(f"{'':12} {'':4} {'':10} {x:12.1f} ±{pct(sd, x)}  {name}.{unit}")
    o.append("```\n")
    if same:
        o.append("Protocol 4 in the same boot (its kstat-bench: CPU_GET and IRQ_GET, its "
                 "raw client only counting attributes), against this run's figures:\n")
        o.append("```")
        o.append(f"{'protocol 4':>12} {'±sd':>4} {'%change':>10} {'protocol 5':>12} {'±sd':>4}  metric")
        sm = same["m"]
        for label, bn, bs, nn, ns in (
                ("proc_stat_intr.us/read (the same /proc read, in both runs)", "irq_vs_stat_intr", 0, "irq_vs_stat_intr", 0),
                ("irq_totals_dump.us/read (libkstat)", "irq_vs_stat_intr", 1, "irq_vs_stat_intr", 1),
                ("irq_totals_dump.us/read (raw client)", "irq_libkstat_vs_raw", 1, "irq_vs_stat_raw", 1),
                ("cpu_get.us/read (libkstat)", "cpu", 1, "cpu", 1),
                ("floor.us/op (CONFIG_GET, libkstat)", "floor", 1, "floor_libkstat_vs_raw", 0),
                ("irq_percpu_dump.us/read (libkstat)", "percpu_dump_vs_totals", 1, "percpu_dump_vs_totals", 1),
                ("irq_percpu_dump.us/read (raw client)", "percpu_dump_vs_totals_raw", 1, "percpu_dump_vs_totals_raw", 1)):
            if bn in sm and nn in m:
                o.append(row(sm[bn][2 * bs], sm[bn][2 * bs + 1], m[nn][2 * ns], m[nn][2 * ns + 1], label))
        if "agent" in sm and "agent_subscriber" in t:
            o.append(row(sm["agent"][2], sm["agent"][3], t["agent_subscriber"][0],
                         t["agent_subscriber"][1], "agent_subscriber.us-cpu/sample (totals)"))
        if "summary_cost_1_subscribers" in same["v"] and "agent_producer" in t:
            bp = same["v"]["summary_cost_1_subscribers"][0]
            o.append(row(bp, 0, t["agent_producer"][0], t["agent_producer"][1],
                         "producer.us/sample (protocol 4: build_ns, keyframe every 10; 5: tick-ns)"))
        o.append("```\n")

    if "percpu_dump_vs_totals" in m:
        tot, tsd, pc, psd, _ = m["percpu_dump_vs_totals"]
        rtot, rtsd, rpc, rpsd, _ = m["percpu_dump_vs_totals_raw"]
        o.append("### Per-CPU IRQ counts against totals only\n")
        o.append("The two dumps alternating round by round; no per-CPU hint and no record "
                 "cache any more: a per-CPU read is O(IRQs × CPUs), as /proc/interrupts.  "
                 "Before: protocol 4's (per-CPU hints and the record cache).\n")
        o.append("| | totals only | per-CPU | ratio | before: per-CPU ÷ totals |")
        o.append("|---|---|---|---|---|")
        sm = same["m"] if same else {}
        if "percpu_dump_vs_totals" in sm and "percpu_dump_vs_totals_raw" in sm:
            b1 = (f"{sm['percpu_dump_vs_totals'][2]:.0f} µs ÷ {sm['percpu_dump_vs_totals'][0]:.0f} µs = "
                  f"{ratio(sm['percpu_dump_vs_totals'][2], sm['percpu_dump_vs_totals'][0])} ¹")
            b2 = (f"{sm['percpu_dump_vs_totals_raw'][2]:.0f} µs ÷ {sm['percpu_dump_vs_totals_raw'][0]:.0f} µs = "
                  f"{ratio(sm['percpu_dump_vs_totals_raw'][2], sm['percpu_dump_vs_totals_raw'][0])} ¹")
        else:
            b1 = f"{ratio(page.get('irq_dump_percpu_libkstat'), page.get('irq_dump_totals_libkstat_alt'))} ²"
            b2 = f"{ratio(page.get('irq_dump_percpu_raw'), page.get('irq_dump_totals_raw_alt'))} ²"
        o.append(f"| IRQ dump, libkstat (µs) | {tot:.0f} ±{pct(tsd, tot).strip()} "
                 f"| {pc:.0f} ±{pct(psd, pc).strip()} | {ratio(pc, tot)} | {b1} |")
        o.append(f"| IRQ dump, raw client (µs) | {rtot:.0f} ±{pct(rtsd, rtot).strip()} "
                 f"| {rpc:.0f} ±{pct(rpsd, rpc).strip()} | {ratio(rpc, rtot)} | {b2} |")
        o.append(f"| IRQ dump bytes | {val('dump_totals_bytes'):.0f} | {val('dump_percpu_bytes'):.0f} "
                 f"| {ratio(val('dump_percpu_bytes'), val('dump_totals_bytes'))} | "
                 + (f"{ratio(sv['dump_bytes_percpu'][0], sv['dump_bytes_totals'][0])} ¹ |"
                    if 'dump_bytes_percpu' in sv else
                    f"{ratio(page.get('irq_dump_percpu_bytes'), page.get('irq_dump_totals_bytes'))} ² |"))
        o.append("")

    o.append("The agent's procfs side reads and parses /proc/stat, /proc/interrupts and "
             "/proc/softirqs whole (thread CPU time, its syscalls included); its kstat side "
             "is one libkstat subscriber of every section taking every count of each "
             "sample (thread CPU time) plus the producer's time per tick over the same "
             "samples (STATS tick-ns-total ÷ ticks: reading, encoding, sending; the "
             "work item's wall time, so a busy host inflates it).\n")
    if ex:
        o.extend(export_section(ex, page, v.get("sample_bytes_totals", (None,))[0]))
    if rds:
        o.append("### Readers at this scale\n")
        o.append("kstat-bench readers: raw subscribers in one process that only receive; the "
                 "producer's time is STATS' tick-ns-total over each window.  Before: protocol "
                 "4's own streams, ² its page.\n")
        before_readers = {c: {"producer_us_per_s": page[f"readers_{c}_us_per_s"]}
                          for c in ("union", "eight", "m64") if f"readers_{c}_us_per_s" in page}
        o.extend(readers_section(rds[0], before_readers, f"protocol 4, {page_run}"))
    print("\n".join(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
