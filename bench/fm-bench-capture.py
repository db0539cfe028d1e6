#!/usr/bin/python3
"""Writes a jsonl capture of N events for the viewer's memory figure.

    fm-bench-capture.py N FILE repeated|distinct

Paths are 60-80 bytes. "repeated": drawn from 20 000 paths with a Zipf-like weight (a
desktop's or a build's activity, where a few files are opened again and again);
"distinct": every event has its own path (the worst case for storing strings once).
Seeded: the same arguments give the same file.
"""
import json
import random
import sys

DIRS = ["/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders",
        "/home/alice/.cache/mozilla/firefox/abcd1234.default-release/cache2",
        "/usr/share/icons/Adwaita/scalable/status/../symbolic-devices",
        "/var/lib/apt/lists/partial/deb.debian.org_debian_dists"]
COMMS = ["firefox", "gnome-shell", "cc1", "make", "bash", "systemd-journal", "gdbus", "tracker-miner-f"]
SYSCALLS = ["openat", "newfstatat", "read", "close", "readlink", "statx", "access"]


def main(n, path, kind):
    rnd = random.Random(7)
    if kind == "distinct":
        chosen = (DIRS[i % 4] + "/u%08d-" % i + "y" * (i % 9) for i in range(n))
    elif kind == "repeated":
        pool = [(DIRS[i % 4] + "/f%05d-" % i + "x" * rnd.randint(0, 8))[:80] for i in range(20000)]
        chosen = rnd.choices(pool, weights=[1.0 / (k + 1) for k in range(len(pool))], k=n)
    else:
        raise SystemExit("kind must be repeated or distinct")
    with open(path, "w") as out:
        for i, p in enumerate(chosen):
            failed = i % 7 == 0
            event = {"seq": i + 1, "time_ns": 1796421988000000000 + i * 1000, "duration_ns": 1200,
                     "pid": 1000 + i % 50, "ppid": 1, "tid": 1000 + i % 50, "uid": 1000,
                     "comm": COMMS[i % len(COMMS)], "syscall": SYSCALLS[i % len(SYSCALLS)],
                     "result": -2 if failed else 3, "errno": "ENOENT" if failed else None,
                     "path": p, "path2": "", "detail": "AT_FDCWD, O_RDONLY|O_CLOEXEC"}
            out.write(json.dumps(event, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
