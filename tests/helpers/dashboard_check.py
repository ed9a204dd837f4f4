#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/helpers/dashboard_check.py DASHBOARD.json RULES.yml... - check a
Grafana dashboard against the recording rules it is built on.

* the file is JSON, a dashboard of a current Grafana (schemaVersion >= 36)
  with a `datasource` variable (type datasource, prometheus) and an
  `instance` variable (a query on a record of the rules);
* every panel and target uses the `${datasource}` variable;
* every target's expr (and the instance variable's query) reads only
  series the rules record: no raw kstat_* or node_* family, nothing
  unknown;
* every expr is valid PromQL: with Grafana's variables replaced, they
  are written as recording rules into PROMTOOL_RULES (argument
  --promtool-rules FILE) for `promtool check rules`.

Prints one line per dashboard panel checked; exit 1 on any problem.
"""
import json
import re
import sys

import yaml

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan"}


def records(files):
    out = set()
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for g in yaml.safe_load(fh)["groups"]:
                out.update(r["record"] for r in g["rules"] if "record" in r)
    return out


def series_names(expr):
    """Metric names an expr selects: identifiers not followed by '(' (a
    function or an aggregation), outside strings, label matchers and
    by/without/on/ignoring lists, that are not keywords or numbers."""
    e = re.sub(r'"(\\.|[^"\\])*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", "", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    e = re.sub(r"\[[^\]]*\]", "", e)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        tail = e[m.end():].lstrip()
        word = m.group(0)
        if tail.startswith("(") or word.lower() in KEYWORDS:
            continue
        if m.start() > 0 and (e[m.start() - 1].isdigit() or e[m.start() - 1] == "."):
            continue        # 1e9's e
        names.add(word)
    return names


def grafana_vars(expr):
    return (expr.replace("$__rate_interval", "1m").replace("$__interval", "1m")
            .replace("${datasource}", "x").replace("$instance", ".*"))


def main():
    args = sys.argv[1:]
    prom_out = None
    if args[:1] == ["--promtool-rules"]:
        prom_out, args = args[1], args[2:]
    dash_file, rule_files = args[0], args[1:]
    known = records(rule_files)
    bad = []
    with open(dash_file, encoding="utf-8") as f:
        d = json.load(f)
    if not isinstance(d.get("schemaVersion"), int) or d["schemaVersion"] < 36:
        bad.append(f"schemaVersion {d.get('schemaVersion')!r}: want >= 36 (Grafana 9+)")
    var = {v.get("name"): v for v in d.get("templating", {}).get("list", [])}
    ds = var.get("datasource")
    if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        bad.append("no datasource variable of type datasource, query prometheus")
    inst = var.get("instance")
    exprs = []
    if not inst or inst.get("type") != "query":
        bad.append("no instance variable of type query")
    else:
        q = inst.get("definition", "")
        m = re.fullmatch(r"label_values\((.+),\s*instance\)", q)
        if not m:
            bad.append(f"instance variable: {q!r} is not label_values(SERIES, instance)")
        else:
            exprs.append(("variable instance", m.group(1)))
        if inst.get("datasource", {}).get("uid") != "${datasource}":
            bad.append("instance variable: datasource is not ${datasource}")
    ids = set()
    npanels = 0
    for p in d.get("panels", []):
        if p.get("id") in ids:
            bad.append(f"panel id {p.get('id')} twice")
        ids.add(p.get("id"))
        if p.get("type") == "row":
            continue
        npanels += 1
        title = p.get("title", "?")
        if p.get("datasource", {}).get("uid") != "${datasource}":
            bad.append(f"panel {title!r}: datasource is not ${{datasource}}")
        targets = p.get("targets", [])
        if not targets:
            bad.append(f"panel {title!r}: no targets")
        for t in targets:
            if t.get("datasource", {}).get("uid") != "${datasource}":
                bad.append(f"panel {title!r} target {t.get('refId')}: datasource is not ${{datasource}}")
            if "$instance" not in t.get("expr", ""):
                bad.append(f"panel {title!r} target {t.get('refId')}: not filtered by $instance")
            exprs.append((f"panel {title!r} target {t.get('refId')}", t.get("expr", "")))
        print(f"panel {title!r}: {len(targets)} target(s)")
    for where, expr in exprs:
        names = series_names(grafana_vars(expr))
        if not names:
            bad.append(f"{where}: selects no series: {expr}")
        for n in sorted(names - known):
            bad.append(f"{where}: {n} is not a record of the rules: {expr}")
    if prom_out:
        rules = [{"record": f"dashboard:check_{i}:expr", "expr": grafana_vars(e)} for i, (_, e) in enumerate(exprs)]
        with open(prom_out, "w", encoding="utf-8") as f:
            yaml.safe_dump({"groups": [{"name": "dashboard-exprs", "rules": rules}]}, f)
    for b in bad:
        print(f"dashboard_check: {dash_file}: {b}")
    print(f"dashboard_check: {npanels} panels, {len(exprs)} exprs, {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
