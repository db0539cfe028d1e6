#!/usr/bin/python3
"""jsonl-filter.py: a reference for what filemonctl's filters must select, written
independently of common/fm-filter.c, for the forms the cli tests use.

  jsonl-filter.py choose ALL.jsonl            prints filters that match some events, not all
  jsonl-filter.py check ALL.jsonl GOT FILTER  GOT must be exactly ALL's lines that FILTER selects
  jsonl-filter.py count ALL.jsonl FILTER      prints how many of ALL's lines FILTER selects
"""
import collections
import json
import re
import sys


def load(path):
    lines = open(path, encoding="utf-8", errors="surrogateescape").read().splitlines()
    return lines, [json.loads(line) for line in lines]


def predicate(text):
    """The meaning of one of the filter forms choose() prints."""
    m = re.fullmatch(r"result<0", text)
    if m:
        return lambda e: e["result"] < 0
    m = re.fullmatch(r"not result<0", text)
    if m:
        return lambda e: e["result"] >= 0
    m = re.fullmatch(r"syscall=(\w+)", text)
    if m:
        return lambda e: e["syscall"] == m.group(1)
    m = re.fullmatch(r"comm=(\S+) and result<0", text)
    if m:
        return lambda e: e["comm"] == m.group(1) and e["result"] < 0
    m = re.fullmatch(r"errno=(\w+) or syscall=(\w+)", text)
    if m:
        return lambda e: e["errno"] == m.group(1) or e["syscall"] == m.group(2)
    m = re.fullmatch(r"path~'\^(/[\w.-]+/)'", text)
    if m:
        return lambda e: e["path"].startswith(m.group(1))
    raise SystemExit("no reference for filter " + text)


def choose(events):
    syscalls = collections.Counter(e["syscall"] for e in events)
    errnos = collections.Counter(e["errno"] for e in events if e["errno"])
    comms = collections.Counter(e["comm"] for e in events if e["result"] < 0)
    dirs = collections.Counter(m.group(1) for e in events
                               for m in [re.match(r"(/[\w.-]+/)", e["path"])] if m)
    candidates = ["result<0", "not result<0"]
    if syscalls:
        candidates.append("syscall=" + syscalls.most_common(1)[0][0])
    if comms and re.fullmatch(r"[\w.-]+", comms.most_common(1)[0][0]):
        candidates.append("comm=%s and result<0" % comms.most_common(1)[0][0])
    if errnos and len(syscalls) > 1:
        candidates.append("errno=%s or syscall=%s" % (errnos.most_common(1)[0][0],
                                                      syscalls.most_common()[-1][0]))
    if dirs:
        candidates.append("path~'^%s'" % dirs.most_common(1)[0][0])
    chosen = [c for c in candidates if 0 < sum(map(predicate(c), events)) < len(events)]
    for c in chosen:
        print(c)
    if len(chosen) < 4:
        raise SystemExit("the fixture is too uniform: only %s select some events" % chosen)


def main():
    if sys.argv[1] == "choose":
        choose(load(sys.argv[2])[1])
        return
    lines, events = load(sys.argv[2])
    if sys.argv[1] == "count":
        print(sum(map(predicate(sys.argv[3]), events)))
        return
    got = open(sys.argv[3], encoding="utf-8", errors="surrogateescape").read().splitlines()
    keep = predicate(sys.argv[4])
    want = [line for line, e in zip(lines, events) if keep(e)]
    if got != want:
        raise SystemExit("got %d lines, want %d; first difference: %s" % (
            len(got), len(want),
            next(((g, w) for g, w in zip(got, want) if g != w), "(length)")))


if __name__ == "__main__":
    main()
