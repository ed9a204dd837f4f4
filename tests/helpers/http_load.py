#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Load and bad input for `kstat export prometheus --listen` (guest tests).

  http_load.py idle URL N ADDRS    N idle connections (no byte sent) from
                                   ADDRS source addresses of 127.0.1.0/24..
                                   (ADDRS=1: all from 127.0.0.2; ADDRS=0:
                                   all from 127.0.0.1, the scraper's), then
                                   one timed scrape from 127.0.0.1; print
                                   {"idle","scrape_s","status","parsed"}
  http_load.py noread URL N PID    N clients (each from its own address)
                                   send GET and never read; print PID's
                                   VmRSS before, after and the growth (KiB)
  http_load.py gzip URL            GET with and without Accept-Encoding:
                                   gzip; the gzip body must decompress to
                                   an exposition the parser accepts; print
                                   sizes and headers
  http_load.py nul URL             requests holding a NUL byte, at once:
                                   each gets an answer (any status) or a
                                   close within 15 s, then a scrape is
                                   answered and parses; print the statuses
                                   and times

Exit 1 with a message on any failure.
"""
import gzip
import json
import os
import socket
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prom_check  # noqa: E402


def hostport(url):
    u = urllib.parse.urlsplit(url)
    return u.hostname, u.port


def source(i, addrs):
    if addrs == 0:
        return "127.0.0.1"      # the scraper's own address
    if addrs == 1:
        return "127.0.0.2"
    return "127.0.%d.%d" % (1 + i // 250, 1 + i % 250)


def connect(url, src):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((src, 0))
    s.connect(hostport(url))
    return s


def timed_get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=30) as r:
        body = r.read()
        return time.monotonic() - t0, r.status, r.headers, body


def idle(url, n, addrs):
    conns = [connect(url, source(i, addrs)) for i in range(n)]
    time.sleep(0.5)
    secs, status, _, body = timed_get(url)
    prom_check.check_text(body.decode())
    for c in conns:
        c.close()
    return {"idle": n, "addrs": addrs, "scrape_s": round(secs, 3),
            "status": status, "parsed": True}


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise prom_check.CheckError("no VmRSS for pid %d" % pid)


def noread(url, n, pid):
    host, port = hostport(url)
    timed_get(url)
    timed_get(url, {"Accept-Encoding": "gzip"})
    before = rss_kib(pid)
    conns = []
    for i in range(n):
        c = connect(url, source(i, n))
        c.sendall(b"GET /metrics HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (host.encode(), port))
        conns.append(c)
    time.sleep(3)
    after = rss_kib(pid)
    secs, status, _, body = timed_get(url)
    prom_check.check_text(body.decode())
    for c in conns:
        c.close()
    return {"clients": n, "rss_before_kib": before, "rss_after_kib": after,
            "growth_kib": after - before, "body_bytes": len(body),
            "scrape_meanwhile_s": round(secs, 3)}


def gzip_check(url):
    _, status, h, plain = timed_get(url)
    _, gstatus, gh, packed = timed_get(url, {"Accept-Encoding": "deflate, gzip;q=0.8"})
    if status != 200 or gstatus != 200:
        raise prom_check.CheckError("status %d / %d" % (status, gstatus))
    if h.get("Content-Encoding"):
        raise prom_check.CheckError("plain GET got Content-Encoding %r" % h.get("Content-Encoding"))
    if gh.get("Content-Encoding") != "gzip":
        raise prom_check.CheckError("gzip GET got Content-Encoding %r" % gh.get("Content-Encoding"))
    if "Accept-Encoding" not in (gh.get("Vary") or ""):
        raise prom_check.CheckError("no Vary: Accept-Encoding")
    d = gzip.GzipFile(fileobj=__import__("io").BytesIO(packed))
    text = d.read()  # checks the CRC32 and the length
    if len(gzip.decompress(packed)) != len(text):
        raise prom_check.CheckError("more than one gzip member")
    out = prom_check.check_text(text.decode())
    _, _, qh, _ = timed_get(url, {"Accept-Encoding": "gzip;q=0"})
    if qh.get("Content-Encoding"):
        raise prom_check.CheckError("gzip;q=0 got Content-Encoding %r" % qh.get("Content-Encoding"))
    return {"plain_bytes": len(plain), "gzip_bytes": len(packed),
            "unpacked_bytes": len(text), "series": len(out["values"]),
            "up": out["values"].get("kstat_exporter_up{}")}


def nul(url, limit=15.0):
    """Requests holding a NUL byte, all at once: libmicrohttpd may answer
    each as it likes (400, 404, 200 for what precedes the NUL) or close it,
    also at its idle timeout (10 s), but within LIMIT s; then a scrape
    must still be answered and parse (nothing crashed or hung)."""
    host, port = hostport(url)
    reqs = [b"\0GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET /met\0rics HTTP/1.1\r\nHost: x\r\n\r\n",
            b"GET /metrics HTTP/1.1\r\nHost: a\0b\r\n\r\n",
            b"GET /metrics HTTP/1.1\r\nX-A\0: b\r\n\r\n",
            b"GET /metrics HTTP/1.0\r\n\0\r\n\r\n"]
    t0 = time.monotonic()
    socks = []
    for r in reqs:
        s = socket.create_connection((host, port))
        s.sendall(r)
        socks.append(s)
    out = []
    for r, s in zip(reqs, socks):
        data, how = b"", "closed"
        try:
            while True:
                s.settimeout(max(0.01, limit - (time.monotonic() - t0)))
                d = s.recv(65536)
                if not d:
                    break
                data += d
        except socket.timeout:
            how = "open"
        except OSError as e:
            how = "reset (%s)" % e.strerror
        secs = time.monotonic() - t0
        s.close()
        line = data.split(b"\r\n", 1)[0].decode(errors="replace")
        out.append({"request": repr(r), "status": line, "end": how, "s": round(secs, 3)})
        if how == "open" and not line.startswith("HTTP/1."):
            raise prom_check.CheckError("%r: no answer and not closed after %.1f s" % (r, secs))
    secs, status, _, body = timed_get(url)
    prom_check.check_text(body.decode())
    out.append({"scrape_after": status, "s": round(secs, 3)})
    return out


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "idle" and len(argv) == 5:
        out = idle(argv[2], int(argv[3]), int(argv[4]))
    elif cmd == "noread" and len(argv) == 5:
        out = noread(argv[2], int(argv[3]), int(argv[4]))
    elif cmd == "gzip" and len(argv) == 3:
        out = gzip_check(argv[2])
    elif cmd == "nul" and len(argv) == 3:
        out = nul(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except prom_check.CheckError as e:
        print("http_load: %s" % e, file=sys.stderr)
        sys.exit(1)
