#!/usr/bin/env python3
"""compare-backends.py LIMITATIONS EXPECTED_A DUMP_A EXPECTED_B DUMP_B: the same workload
captured by two backends in the same guest (two runs of fm-vm-workload, A with one backend,
B with the other), compared event by event and field by field.

EXPECTED_X is the workload's own account of run X (its processes, in the order they first
appear there, pair the two runs' pids), DUMP_X the `filemonctl dump --format=jsonl` of the
capture. For each process of the workload, its events in both dumps are lined up in call
order by syscall name; the pairs are compared on result, errno, path, path2, detail, ppid
and tid (as processes of the workload, or "outside"; a workload pid in a path likewise),
uid and comm. A call one dump has and
the other not is a difference too ("missing" in B, "extra" in B).

LIMITATIONS uses the format of tests/oracle/limitations.ini: each section matches
differences by regular expressions (whole match) on syscall, field (a field above, missing
or extra), a and b (the two values as printed here) and must give a reason. A difference no
section matches fails the comparison; every difference is printed.
"""
import configparser
import difflib
import json
import re
import sys
from collections import defaultdict

FIELDS = ("result", "errno", "path", "path2", "detail", "ppid", "tid", "uid", "comm")


def read_limitations(path):
    ini = configparser.ConfigParser(interpolation=None)
    if not ini.read(path, encoding="utf-8"):
        sys.exit(f"compare-backends: cannot read {path}")
    rules = []
    for name in ini.sections():
        sec = ini[name]
        if not sec.get("reason", "").strip():
            sys.exit(f"compare-backends: {path}: [{name}] gives no reason")
        rules.append((name, *(re.compile(sec.get(k, ".*"), re.S)
                               for k in ("syscall", "field", "a", "b"))))
    return rules


def documented_by(rules, syscall, field, a, b):
    for name, sc, fl, ra, rb in rules:
        if sc.fullmatch(syscall) and fl.fullmatch(field) and ra.fullmatch(a) and rb.fullmatch(b):
            return name
    return None


def workload_pids(expected_path):
    pids = []
    with open(expected_path) as f:
        for line in f:
            rec = json.loads(line)
            if "pid" in rec and rec["pid"] not in pids:
                pids.append(rec["pid"])
    return pids


def events_by_pid(dump_path, pids):
    by_pid = defaultdict(list)
    with open(dump_path) as f:
        for line in f:
            if line.strip():
                e = json.loads(line)
                if e["pid"] in pids:
                    by_pid[e["pid"]].append(e)
    for evs in by_pid.values():
        evs.sort(key=lambda e: e["seq"])
    return by_pid


def value(e, field, index):
    """The field as compared: pids of the workload by their place in it, in paths too
    (the workload's end marker is named by its pid)."""
    v = e.get(field)
    if field in ("ppid", "tid"):
        return f"process {index[v]}" if v in index else "outside"
    if field in ("path", "path2"):
        return re.sub(r"\d+", lambda m: f"<process {index[int(m.group())]}>"
                      if int(m.group()) in index else m.group(), v)
    return "" if v is None else str(v)


def align(a, b):
    """difflib's opcodes for sequences A and B, their common head and tail matched first:
    on the storm's 20 000 calls of one syscall difflib alone took 103 s on a loaded host."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    ops = [("equal", 0, head, 0, head)] if head else []
    sm = difflib.SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail],
                                 autojunk=False)
    ops += [(op, i1 + head, i2 + head, j1 + head, j2 + head)
            for op, i1, i2, j1, j2 in sm.get_opcodes()]
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def main(limitations, expected_a, dump_a, expected_b, dump_b):
    rules = read_limitations(limitations)
    pids_a, pids_b = workload_pids(expected_a), workload_pids(expected_b)
    if len(pids_a) != len(pids_b):
        print(f"FAIL: the runs have {len(pids_a)} and {len(pids_b)} processes")
        return 1
    index_a = {p: i for i, p in enumerate(pids_a)}
    index_b = {p: i for i, p in enumerate(pids_b)}
    evs_a, evs_b = events_by_pid(dump_a, index_a), events_by_pid(dump_b, index_b)

    diffs = []
    compared = 0

    def differ(proc, syscall, field, a, b):
        diffs.append((documented_by(rules, syscall, field, a, b),
                      f"process {proc} {syscall}: {field}: a {a!r}, b {b!r}"))

    for proc, (pa, pb) in enumerate(zip(pids_a, pids_b)):
        a, b = evs_a[pa], evs_b[pb]
        for op, i1, i2, j1, j2 in align([e["syscall"] for e in a], [e["syscall"] for e in b]):
            if op == "equal":
                for ea, eb in zip(a[i1:i2], b[j1:j2]):
                    compared += 1
                    for field in FIELDS:
                        va, vb = value(ea, field, index_a), value(eb, field, index_b)
                        if va != vb:
                            differ(proc, ea["syscall"], field, va, vb)
                continue
            for e in a[i1:i2]:
                differ(proc, e["syscall"], "missing", f"{e['path']} = {e['result']}", "")
            for e in b[j1:j2]:
                differ(proc, e["syscall"], "extra", "", f"{e['path']} = {e['result']}")

    undocumented = [t for r, t in diffs if r is None]
    documented = defaultdict(int)
    for r, _ in diffs:
        if r is not None:
            documented[r] += 1
    for t in undocumented[:60]:
        print("DIFF:", t)
    if len(undocumented) > 60:
        print(f"... and {len(undocumented) - 60} more")
    for name, n in sorted(documented.items()):
        print(f"documented: {name}: {n}")
    print(f"{len(pids_a)} processes, {compared} events compared field by field, "
          f"{len(diffs)} differ, {len(undocumented)} undocumented")
    return 1 if undocumented else 0


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
