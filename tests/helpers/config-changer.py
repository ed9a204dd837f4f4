#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Feed `kstat -b -` a summary configuration change every 10 ms.

usage: config-changer.py STOPFILE STATEFILE | kstat -b -

Writes "config set ..." lines, cycling through valid values of interval,
batch, sections and percpu (one setting or all at once), until
STOPFILE exists or the reader goes away.  Then writes to STATEFILE the
number of lines written and, as JSON, the configuration they leave
(`kstat -j config show` must then print it).
"""
import json
import os
import sys
import time

INTERVALS = [10, 20, 50, 100, 30]
BATCHES = [1, 2, 4, 8, 3]
SECTIONS = [["cpu", "irq", "softirq"], ["cpu"], ["irq"], ["softirq"],
            ["cpu", "irq"], ["irq", "softirq"]]
PERCPU = [False, True, False]


def main():
    stop, statefile = sys.argv[1], sys.argv[2]
    cfg = {}
    n = 0
    try:
        while not os.path.exists(stop):
            iv = INTERVALS[n % len(INTERVALS)]
            b = BATCHES[n // 2 % len(BATCHES)]
            s = SECTIONS[n // 5 % len(SECTIONS)]
            p = PERCPU[n // 7 % len(PERCPU)]
            which = n % 4
            words = []
            if which in (0, 3):
                words += ["interval", str(iv)]
                cfg["interval_ms"] = iv
            if which in (1, 3):
                words += ["batch", str(b)]
                cfg["batch"] = b
            if which in (2, 3):
                words += ["sections", ",".join(s)]
                cfg["sections"] = s
            if which == 3:
                words += ["percpu", "on" if p else "off"]
                cfg["percpu"] = p
            sys.stdout.write("config set " + " ".join(words) + "\n")
            sys.stdout.flush()
            n += 1
            time.sleep(0.01)
    except BrokenPipeError:
        pass
    with open(statefile, "w") as f:
        f.write(f"{n}\n{json.dumps(cfg, sort_keys=True)}\n")
    try:
        sys.stdout.close()
    except BrokenPipeError:
        pass


if __name__ == "__main__":
    main()
