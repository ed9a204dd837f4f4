#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check `kstat export prometheus` output with a real Prometheus parser.

Run with /usr/bin/python3 (Debian's python3-prometheus-client).

  prom_check.py parse FILE          strict-check FILE ("-": stdin), print
                                    {"families": {...}, "values": {...}}
  prom_check.py get URL             GET URL, check and print as parse
  prom_check.py status URL [METHOD] print the HTTP status (and no body
                                    check); METHOD default GET
  prom_check.py scrape URL N        N concurrent GETs; every one must be
                                    200 and parse; print the last as parse
                                    does, plus latency figures and the
                                    oldest sample's CLOCK_BOOTTIME
                                    (sent - age)
  prom_check.py watch FILE SECONDS  read FILE in a loop for SECONDS while
                                    it is being replaced; every read must
                                    parse; print the last read as parse
                                    does, plus reads, distinct seqs and
                                    the first and last seq seen

"values" keys are 'name{k="v",...}' with the labels sorted, as
prom_check.key() builds them.  Exit 1 with a message on any failure.
"""
import json
import re
import sys
import threading
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
HEALTH = ("kstat_exporter_up", "kstat_exporter_samples",
          "kstat_exporter_samples_lost")
NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")


class CheckError(Exception):
    pass


def key(name, labels):
    inner = ",".join('%s="%s"' % (k, labels[k]) for k in sorted(labels))
    return "%s{%s}" % (name, inner)


def check_comments(text):
    """One HELP and one TYPE per family, before its samples."""
    if text and not text.endswith("\n"):
        raise CheckError("exposition does not end with a newline")
    helps, types, seen = {}, {}, set()
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, name = line[2:6], line.split(" ")[2]
            table = helps if kind == "HELP" else types
            if name in table:
                raise CheckError("line %d: second %s for %s" % (n, kind, name))
            if name in seen:
                raise CheckError("line %d: %s after samples of %s" % (n, kind, name))
            table[name] = line
        elif line.startswith("#") or not line:
            raise CheckError("line %d: unexpected line %r" % (n, line))
        else:
            name = re.split(r"[{ ]", line, 1)[0]
            if not NAME.match(name):
                raise CheckError("line %d: bad metric name %r" % (n, name))
            if name not in types or name not in helps:
                raise CheckError("line %d: %s has no HELP/TYPE" % (n, name))
            seen.add(name)
    return helps, types


def check_text(text):
    check_comments(text)
    families, values = {}, {}
    for fam in text_string_to_metric_families(text):
        if fam.name in families:
            raise CheckError("family %s split in two" % fam.name)
        families[fam.name] = {"type": fam.type, "help": fam.documentation}
        for s in fam.samples:
            k = key(s.name, s.labels)
            if k in values:
                raise CheckError("duplicate sample %s" % k)
            values[k] = s.value
    for h in HEALTH:
        if h not in families:
            raise CheckError("no %s family" % h)
    return {"families": families, "values": values}


def http(url, method="GET"):
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def get(url):
    """Also the CLOCK_BOOTTIME before the request: the exported sample is
    at least as recent as sent_boottime - its age."""
    sent = time.clock_gettime(time.CLOCK_BOOTTIME)
    status, headers, body = http(url)
    if status != 200:
        raise CheckError("GET %s: status %d" % (url, status))
    if headers.get("Content-Type") != CONTENT_TYPE:
        raise CheckError("GET %s: Content-Type %r" % (url, headers.get("Content-Type")))
    out = check_text(body)
    out["sent_boottime"] = sent
    out["bytes"] = len(body)
    return out, len(body)


def scrape(url, n):
    """N GETs at once; then check every response.  The times are the HTTP
    exchanges only, parsing comes after."""
    results, errors = [None] * n, []
    start = threading.Barrier(n)

    def one(i):
        try:
            start.wait()
            sent = time.clock_gettime(time.CLOCK_BOOTTIME)
            t0 = time.monotonic()
            r = http(url)
            results[i] = (time.monotonic() - t0, sent) + r
        except Exception as e:  # any failure of any scrape fails the check
            errors.append(repr(e))

    t0 = time.monotonic()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    if errors:
        raise CheckError("%d of %d scrapes failed, first: %s" % (len(errors), n, errors[0]))
    oldest, out = None, None
    for i, (_, sent, status, headers, body) in enumerate(results):
        if status != 200 or headers.get("Content-Type") != CONTENT_TYPE:
            raise CheckError("scrape %d: status %d, Content-Type %r" %
                             (i, status, headers.get("Content-Type")))
        try:
            out = check_text(body)
        except CheckError as e:
            raise CheckError("scrape %d: %s" % (i, e))
        age = out["values"].get("kstat_exporter_last_sample_age_seconds{}", sent)
        oldest = sent - age if oldest is None else min(oldest, sent - age)
    times = sorted(r[0] for r in results)
    out.update({"ok": n, "wall_s": round(wall, 3),
                "median_s": round(times[n // 2], 4), "max_s": round(times[-1], 4),
                "bytes": max(len(r[4]) for r in results),
                "oldest_sample_boottime": oldest})
    return out


def watch(path, seconds):
    reads, seqs, end = 0, set(), time.monotonic() + seconds
    while time.monotonic() < end:
        with open(path) as f:
            text = f.read()
        try:
            out = check_text(text)
        except Exception as e:
            raise CheckError("read %d of %s: %s" % (reads + 1, path, e))
        reads += 1
        seq = out["values"].get("kstat_exporter_last_sample_seq{}")
        if seq is not None:
            seqs.add(int(seq))
    out.update({"reads": reads, "seqs": len(seqs),
                "first": min(seqs, default=0), "last": max(seqs, default=0)})
    return out


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "parse" and len(argv) == 3:
        text = sys.stdin.read() if argv[2] == "-" else open(argv[2]).read()
        out = check_text(text)
    elif cmd == "get" and len(argv) == 3:
        out = get(argv[2])[0]
    elif cmd == "status" and len(argv) in (3, 4):
        out = http(argv[2], argv[3] if len(argv) == 4 else "GET")[0]
    elif cmd == "scrape" and len(argv) == 4:
        out = scrape(argv[2], int(argv[3]))
    elif cmd == "watch" and len(argv) == 4:
        out = watch(argv[2], float(argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except CheckError as e:
        print("prom_check: %s" % e, file=sys.stderr)
        sys.exit(1)
