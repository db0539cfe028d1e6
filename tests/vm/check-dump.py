#!/usr/bin/env python3
"""check-dump.py EXPECTED DUMP SYSCALLS_C STATUS: the capture of the vm tier's workload
checked call by call against what the workload says it did.

EXPECTED is fm-vm-workload's output (one JSON line per call, then its summary line), DUMP the
`filemonctl dump --format=jsonl` of the capture, SYSCALLS_C the syscall table
(common/fm-syscalls.c), STATUS the `filemonctl status` after the capture stopped. For every
call of the workload the capture must hold, among the events of the same pid and in the same
order, one with the same syscall and path whose ppid, uid, comm, result, errno name and path2
(where the workload names one) are the ones the workload saw. Events the workload does not
describe (its loader, libc, the fifo) may lie in between. Every syscall of the table must be
among the calls matched, except those the guest's kernel does not have (the workload saw
ENOSYS: no tracepoint can exist for them).
Every storm call must be captured or counted lost: the calls missing from the dump at most the
DroppedCount (which counts the losses of every process the capture saw). Its rate is printed.
A capture with path prefixes (its Options in STATUS) must hold exactly the calls whose path
or path2 is below one of them, checked as above, and none of the storm's (made outside
them): those the backend drops at the source, so filemond's FilteredCount stays far below
the storm's size (it would count every storm call if filemond dropped them).
Exit status 1 with a diff of each mismatch.
"""
import ast
import errno
import json
import re
import sys
from collections import defaultdict

FIELDS = ("pid", "ppid", "uid", "comm", "syscall", "result", "errno", "path", "path2")


def table_syscalls(path):
    with open(path) as f:
        return re.findall(r"^\s*SC \((\w+),", f.read(), re.M)


def errno_name(result):
    return errno.errorcode.get(-result, f"E{-result}") if result < 0 else None


def show(record):
    return "{" + ", ".join(f"{k}={record.get(k)!r}" for k in FIELDS if k in record) + "}"


def status_count(status_path, name):
    with open(status_path) as f:
        m = re.search(r"^%s:\s+(\d+)" % name, f.read(), re.M)
    return int(m.group(1)) if m else None


def path_prefixes(status_path):
    """The capture's path prefixes, from the Options line of `filemonctl status`."""
    with open(status_path) as f:
        m = re.search(r"^Options:.*\bpath-prefixes=(\[[^]]*\])", f.read(), re.M)
    return ast.literal_eval(m.group(1)) if m else []


def below(prefixes, record):
    """Whether path or path2 is one of @prefixes or below it, by whole components."""
    def under(p, path):
        return path.startswith("/") if p == "/" else path == p or path.startswith(p + "/")
    return any(under(p, record.get(k) or "") for p in prefixes for k in ("path", "path2"))


def main(expected_path, dump_path, syscalls_c, status_path):
    calls, summary = [], None
    with open(expected_path) as f:
        for line in f:
            rec = json.loads(line)
            if "storm" in rec:
                summary = rec
            else:
                rec["errno"] = errno_name(rec["result"])
                calls.append(rec)
    prefixes = path_prefixes(status_path)
    if prefixes:
        outside = [c for c in calls if not below(prefixes, c)]
        calls = [c for c in calls if below(prefixes, c)]
        print(f"path prefixes {prefixes}: {len(calls)} calls below them, {len(outside)} outside")
    with open(dump_path) as f:
        events = [json.loads(line) for line in f if line.strip()]
    events.sort(key=lambda e: e["seq"])
    by_pid = defaultdict(list)
    for e in events:
        by_pid[e["pid"]].append(e)

    problems = []
    if summary is None:
        problems.append("the workload's summary line is missing: it did not finish")

    matched, absent_in_kernel = set(), set()
    cursor = defaultdict(int)
    for call in calls:
        if call["result"] == -errno.ENOSYS:
            absent_in_kernel.add(call["syscall"])
            continue
        stream = by_pid[call["pid"]]
        hit = None
        for i in range(cursor[call["pid"]], len(stream)):
            e = stream[i]
            if e["syscall"] == call["syscall"] and e["path"] == call["path"]:
                hit = i
                break
        if hit is None:
            rest = [show(e) for e in stream[cursor[call["pid"]]:]][:8]
            problems.append(f"missing: {show(call)}\n"
                            f"    the next events of pid {call['pid']}: "
                            + ("\n      ".join([""] + rest) if rest else "none"))
            continue
        cursor[call["pid"]] = hit + 1
        e = stream[hit]
        wrong = [k for k in FIELDS if k in call and e.get(k) != call[k]]
        if wrong:
            problems.append(f"differs in {', '.join(wrong)}:\n"
                            f"    expected {show(call)}\n"
                            f"    captured {show(e)}")
        else:
            matched.add(call["syscall"])

    made = {c["syscall"] for c in calls}
    for name in table_syscalls(syscalls_c):
        if name not in matched and name not in absent_in_kernel and name in made:
            problems.append(f"no correct event of syscall {name} (every syscall of the table "
                            "must be seen at least once)")

    if summary is not None:
        storm = [e for e in events if e["syscall"] == "stat" and e["path"] == summary["storm_path"]
                 and e["result"] == -errno.ENOENT]
        dropped = status_count(status_path, "Dropped")
        lost = summary["storm"] - len(storm)
        if prefixes:
            filtered = status_count(status_path, "Filtered")
            stray = [show(e) for e in events if not below(prefixes, e)][:8]
            if stray:
                problems.append("events outside the path prefixes: " + "; ".join(stray))
            if storm:
                problems.append(f"{len(storm)} storm calls captured: they are outside the prefixes")
            if filtered is None or filtered >= summary["storm"] // 2:
                problems.append(f"FilteredCount {filtered} for a storm of {summary['storm']} calls "
                                "outside the prefixes: the backend did not drop them at the source")
            print(f"storm outside the prefixes: {summary['storm']} calls, none captured, "
                  f"{filtered} calls dropped by filemond's filter in the whole capture")
        elif dropped is None:
            problems.append(f"no Dropped count in {status_path}")
        elif lost < 0 or lost > dropped:
            problems.append(f"storm: {summary['storm']} failed stat calls made, "
                            f"{len(storm)} captured, {dropped} dropped: "
                            + ("more captured than made" if lost < 0 else
                               f"{lost - dropped} lost without being counted"))
        rate = summary["storm"] / summary["storm_seconds"] if summary["storm_seconds"] > 0 else 0
        print(f"storm: {summary['storm']} failed stat calls in {summary['storm_seconds']:.3f} s "
              f"while captured: {rate:.0f} events/s, {len(storm)} captured, "
              f"{dropped} dropped in the whole capture")
        if not any(e["path"] == summary["end_marker"] for e in events):
            problems.append(f"the end marker {summary['end_marker']} is not in the dump")

    print(f"{len(calls)} calls of {len({c['pid'] for c in calls})} processes, "
          f"{len(events)} events in the dump, {len(matched)} syscalls matched"
          + (f", not in this kernel: {', '.join(sorted(absent_in_kernel))}" if absent_in_kernel else ""))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
