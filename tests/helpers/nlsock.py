#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The netlink sockets of some processes, as /proc/net/netlink shows them.

usage: nlsock.py PID...

One line per netlink socket the PIDs hold open:
    PID INODE PROTOCOL PORTID GROUPS DROPS RMEM
GROUPS is the first 32 multicast group bits (hex), DROPS the socket's
sk_drops: the messages the kernel could not queue to it (netlink_overrun()
counts one per dropped skb).  A PID that is gone prints nothing.
"""
import os
import sys


def netlink_table():
    rows = {}
    with open("/proc/net/netlink") as f:
        next(f)
        for line in f:
            x = line.split()
            # sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode
            rows[int(x[9])] = (int(x[1]), int(x[2]), x[3], int(x[8]), int(x[4]))
    return rows


def main():
    table = netlink_table()
    for pid in sys.argv[1:]:
        fds = f"/proc/{pid}/fd"
        try:
            names = os.listdir(fds)
        except OSError:
            continue
        for fd in names:
            try:
                link = os.readlink(f"{fds}/{fd}")
            except OSError:
                continue
            if not link.startswith("socket:["):
                continue
            inode = int(link[8:-1])
            if inode in table:
                eth, portid, groups, drops, rmem = table[inode]
                print(pid, inode, eth, portid, groups, drops, rmem)


if __name__ == "__main__":
    main()
