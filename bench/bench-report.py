#!/usr/bin/python3
"""bench-report.py: turns run-bench.sh's raw measurements into bench/results.md and
bench/results.json.

    bench-report.py RAW.tsv NOTES META OUT.md OUT.json

RAW.tsv holds "round<TAB>measure<TAB>value" lines. Ratios are computed here, each against
the untraced rate of the same round. A goal is judged on the median over the rounds; the
loss goal of full capture on every round (one lossy round fails it).
"""
import json
import statistics
import sys
from collections import defaultdict

OPS = ["open-missing", "stat", "open-close", "getppid"]
PEERS = ["strace", "bpftrace", "perf-trace", "auditd"]
# the reference ratios for the peers (failed openat, stat)
PEER_REFERENCE = {
    ("bpftrace", "open-missing"): 0.07, ("bpftrace", "stat"): 0.04,
    ("perf-trace", "open-missing"): 0.03, ("perf-trace", "stat"): 0.02,
    ("auditd", "open-missing"): 0.03, ("auditd", "stat"): 0.02,
    ("strace", "open-missing"): 0.008, ("strace", "stat"): 0.005,
}


def load(path):
    values = defaultdict(dict)   # measure -> round -> value
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[2] == "":
                continue
            round_, measure, value = parts
            try:
                v = float(value)
            except ValueError:
                continue
            # a measure taken several times in a round (Stop latency): keep the worst
            prev = values[measure].get(round_)
            values[measure][round_] = v if prev is None else max(prev, v)
    return values


# Variants measured next to an untraced run of their own (bench-filemond.sh): their ratio
# is taken against that one, not the round's first.
ADJACENT = {"hook-floor", "filemond-excluded"}


def add_ratios(values):
    for variant in ["filemond-all", "hook-floor", "filemond-excluded"] + PEERS:
        for op in OPS:
            rates = values.get(f"rate.{variant}.{op}", {})
            base = values.get(f"rate.untraced.{op}", {})
            if variant in ADJACENT and values.get(f"rate.untraced-adjacent.{op}"):
                base = values[f"rate.untraced-adjacent.{op}"]
            ratios = {r: v / base[r] for r, v in rates.items() if base.get(r)}
            if ratios:
                values[f"ratio.{variant}.{op}"] = ratios
    # the kernel filter against the floor of its hook, both measured in the filemond round
    for op in OPS:
        excluded = values.get(f"rate.filemond-excluded.{op}", {})
        floor = values.get(f"rate.hook-floor.{op}", {})
        ratios = {r: v / floor[r] for r, v in excluded.items() if floor.get(r)}
        if ratios:
            values[f"floor-ratio.filemond-excluded.{op}"] = ratios
    add_round2(values)


def per_round(values, out, fn, *keys):
    """values[out][r] = fn(values[k][r] for k in keys), for each round that has them all."""
    series = [values.get(k, {}) for k in keys]
    result = {}
    for r in series[0] if series else []:
        if all(r in s for s in series):
            try:
                result[r] = fn(*(s[r] for s in series))
            except ZeroDivisionError:
                continue
    if result:
        values[out] = result


R2_OPS = ["open-missing", "stat"]
R2_BUILDS = ["new", "old"]


def add_round2(values):
    """Issue 20's figures (bench-round2.sh, run-bench.sh's unpinned peers): each traced
    rate against the untraced run of the same round and placement."""
    def quotient(out, num, den):
        per_round(values, out, lambda n, d: n / d, num, den)

    for op in R2_OPS:
        for peer in PEERS:
            quotient(f"ratio.{peer}-unpinned.{op}", f"rate.{peer}-unpinned.{op}", f"rate.untraced-unpinned.{op}")
        for b in R2_BUILDS:
            quotient(f"ratio.r2-full-unpinned-{b}.{op}",
                     f"rate.r2-full-unpinned-{b}.{op}", f"rate.r2-untraced-unpinned-{b}.{op}")
            quotient(f"ratio.r2-full-{b}.{op}", f"rate.r2-full-{b}.{op}", f"rate.r2-untraced-{b}.{op}")
            # what a captured event adds to the traced thread
            per_round(values, f"cost-ns.r2-full-{b}.{op}", lambda t, u: 1e9 / t - 1e9 / u,
                      f"rate.r2-full-{b}.{op}", f"rate.r2-untraced-{b}.{op}")
        quotient(f"cost-new-over-old.{op}", f"cost-ns.r2-full-new.{op}", f"cost-ns.r2-full-old.{op}")
        quotient(f"cpu-new-over-old.{op}",
                 f"cpu-per-event-us.r2-full-new.{op}", f"cpu-per-event-us.r2-full-old.{op}")
    for b in R2_BUILDS:
        quotient(f"ratio.r2-full2-{b}.open-missing",
                 f"rate.r2-full2-{b}.open-missing", f"rate.r2-untraced-{b}.open-missing")
        quotient(f"cpu-two-over-one.{b}",
                 f"cpu-per-event-us.r2-full2-{b}.open-missing", f"cpu-per-event-us.r2-full1-{b}.open-missing")
    sat = "r2-new.open-missing"
    per_round(values, "saturated-loss-pct", lambda c, d, m: 100 * (d + m) / c,
              f"saturated-calls.{sat}", f"saturated-dropped.{sat}", f"saturated-missed.{sat}")
    quotient("saturated-ratio", f"saturated-rate.{sat}", "rate.r2-untraced-saturated-new.open-missing")


def rows(values):
    """(measure key, label, unit, goal text, check(median, per-round values) or None)"""
    at_least = lambda g: (f">= {g:g}", lambda m, vs: m >= g)
    at_most = lambda g: (f"<= {g:g}", lambda m, vs: m <= g)
    out = []
    for op in OPS:
        out.append((f"rate.untraced.{op}", f"untraced {op} (calls/s)", "", None))
    goals_all = {"open-missing": 0.40, "stat": 0.33, "getppid": 0.70}
    for op in OPS:
        g = at_least(goals_all[op]) if op in goals_all else None
        out.append((f"ratio.filemond-all.{op}", f"full capture + 1 watch: {op} ratio", "", g))
    for op in OPS:
        out.append((f"lost.filemond-all.{op}", f"full capture: {op} events lost (gaps + drops)", "",
                    ("0 in every round", lambda m, vs: max(vs) == 0)))
    for op in OPS:
        out.append((f"ratio.hook-floor.{op}", f"empty programs on the same hooks (the floor): {op} ratio", "", None))
    for op in OPS:
        g = at_least(0.70) if op == "getppid" else at_least(0.90)
        out.append((f"ratio.filemond-excluded.{op}", f"kernel filter excludes the load: {op} ratio", "", g))
    for op in OPS:
        out.append((f"floor-ratio.filemond-excluded.{op}",
                    f"  {op}: kernel filter's rate / the floor's, same round", "", None))
    for peer in PEERS:
        for op in OPS:
            ref = PEER_REFERENCE.get((peer, op))
            out.append((f"ratio.{peer}.{op}", f"{peer}: {op} ratio", "",
                        (f"(issue: {ref:g})", None) if ref is not None else None))
    out += round2_rows(at_least, at_most)
    out += [
        ("stream-replay-events-per-s", "OpenStream, 1 reader, replay of the ring (events/s)", "",
         at_least(2_000_000)),
        ("stream-replay-lost", "OpenStream replay: events lost", "", ("0", lambda m, vs: max(vs) == 0)),
        ("synthetic-stream-events-per-s", "ring + 1 stream reader in process (bench-ring-stream, events/s)", "", None),
        ("signals-sd-bus-paced-events-per-s",
         "Events signals, 1 subscriber (sd-bus), 165k/s offered (events/s)", "", at_least(150_000)),
        ("signals-sd-bus-paced-lost", "  events lost", "", ("0", lambda m, vs: max(vs) == 0)),
        ("signals-sd-bus-max-events-per-s", "Events signals, 1 subscriber (sd-bus), unpaced load (events/s)", "", None),
        ("signals-sd-bus-max-lost", "  events lost (Dropped: over the 200 000/s cap)", "", None),
        ("signals-sd-bus-max-offered-per-s", "  calls/s offered", "", None),
        ("signals-paced-events-per-s", "Events signals, 1 subscriber (GDBus), 165k/s offered (events/s)", "",
         ("(GDBus decoding: see below)", None)),
        ("signals-paced-lost", "  events lost", "", ("0", lambda m, vs: max(vs) == 0)),
        ("signals-max-events-per-s", "Events signals, 1 subscriber (GDBus), unpaced load (events/s)", "", None),
        ("signals-max-lost", "  events lost", "", None),
        ("signals-max-offered-per-s", "  calls/s offered", "", None),
        ("first-event.cold-s", "filemonctl start to first event, bpf, first Start (s)", "", at_most(0.3)),
        ("first-event.warm-s", "filemonctl start to first event, bpf, later Start (s)", "", at_most(0.3)),
        ("stop.latency-s", "filemonctl stop returns (s, worst of the round)", "", at_most(0.3)),
        ("exit-after-sigterm-s", "filemond exits after SIGTERM (s)", "", at_most(1.0)),
        ("buffered-events", "events buffered for the RSS / dump figures", "", None),
        ("rss-mb", "filemond RSS with the ring full (MiB)", "", at_most(300)),
        ("rss-anon-mb", "  of which anonymous (MiB)", "", None),
        ("rss-shared-mb", "  of which file / shared mappings (MiB)", "", None),
        ("cpu-per-event-us", "filemond CPU per event, full capture (us)", "", at_most(1.0)),
        ("cpu-per-event-full-ring-us", "  the same with the ring full (us)", "", None),
        ("dump-jsonl-s", "filemonctl dump --format=jsonl of the full ring (s)", "", at_most(2.0)),
        ("viewer-refilter-s", "viewer: slowest refilter of 1M rows (s)", "", at_most(0.5)),
        ("viewer-live-offered-per-s", "viewer following a live capture: events/s offered", "", None),
        ("viewer-live-events-per-s", "  events/s taken into the view", "", at_least(100_000)),
        ("viewer-live-longest-frame-ms", "  longest frame interval (ms)", "", at_most(50)),
        ("viewer-live-longest-frame-after-1s-ms", "  longest frame interval after the first second (ms)", "", None),
        ("viewer-live-frames-over-50ms", "  frame intervals over 50 ms", "", None),
        ("viewer-live-fps", "  frames/s", "", None),
        ("viewer-live-painted-fps", "  frames/s that drew", "", None),
        ("viewer-live-frame-cpu-ms", "  most main-thread CPU in one frame (ms)", "", None),
        ("viewer-live-update-frame-cpu-ms", "  median main-thread CPU of a frame that took rows in (ms)", "", None),
        ("viewer-live-missed", "  events filemond took in that the view lacks", "", ("0", lambda m, vs: max(vs) == 0)),
    ]
    return out


def round2_rows(at_least, at_most):
    """Issue 20 (round 2): unpinned, saturated, the pinned cost and filemond's CPU against
    the old build's, measured in the same rounds."""
    every_round_zero = ("0 in every round", lambda m, vs: max(vs) == 0)
    unpinned_goal = {"open-missing": 0.45, "stat": 0.50}
    out = []
    for op in R2_OPS:
        out.append((f"rate.r2-untraced-unpinned-new.{op}", f"R2 unpinned: untraced {op} (calls/s)", "", None))
        out.append((f"ratio.r2-full-unpinned-new.{op}", f"R2 unpinned: full capture + 1 watch to a file: {op} ratio",
                    "", at_least(unpinned_goal[op])))
        out.append((f"ratio.r2-full-unpinned-old.{op}", "  the same, old build", "", None))
        out.append((f"delivery-s.r2-full-unpinned-new.{op}",
                    f"  {op}: load's end to the file holding all its events (s)", "", at_most(0.5)))
        out.append((f"delivery-s.r2-full-unpinned-old.{op}", "  the same, old build (s)", "", None))
        out.append((f"lost.r2-full-unpinned-new.{op}", f"  {op}: events lost (gaps + drops)", "", every_round_zero))
        out.append((f"cpu-per-event-us.r2-full-unpinned-new.{op}", f"  {op}: filemond CPU per event (us)", "", None))
    for peer in PEERS:
        for op in R2_OPS:
            out.append((f"ratio.{peer}-unpinned.{op}", f"R2 unpinned: {peer}: {op} ratio", "", None))
    out += [
        ("rate.r2-untraced-saturated-new.open-missing",
         "R2 saturated: one failed-openat load per CPU, untraced, summed (calls/s)", "", None),
        ("saturated-rate.r2-new.open-missing", "  under full capture + 1 watch, summed (calls/s)", "", None),
        ("saturated-ratio", "  ratio", "", at_least(0.40)),
        ("saturated-calls.r2-new.open-missing", "  calls made", "", None),
        ("saturated-loss-pct", "  dropped + missed, % of the calls", "", at_most(1)),
        ("saturated-unaccounted.r2-new.open-missing", "  calls - delivered - dropped - missed", "",
         every_round_zero),
    ]
    for op in R2_OPS:
        out += [
            (f"rate.r2-untraced-new.{op}", f"R2 pinned: untraced {op} (calls/s)", "", None),
            (f"ratio.r2-full-new.{op}", f"R2 pinned: full capture + 1 watch: {op} ratio", "", None),
            (f"ratio.r2-full-old.{op}", "  the same, old build", "", None),
            (f"cost-ns.r2-full-new.{op}", f"  {op}: cost a captured event adds to the thread (ns)", "", None),
            (f"cost-ns.r2-full-old.{op}", "  the same, old build (ns)", "", None),
            (f"cost-new-over-old.{op}", "  new / old cost, same round", "", at_most(0.5)),
            (f"lost.r2-full-new.{op}", f"  {op}: events lost (gaps + drops)", "", every_round_zero),
        ]
    for op in R2_OPS:
        out += [
            (f"cpu-per-event-us.r2-full-new.{op}", f"R2 filemond CPU per event, {op} pinned, 1 watch, ring growing (us)", "", None),
            (f"cpu-per-event-us.r2-full-old.{op}", "  the same, old build (us)", "", None),
            (f"cpu-new-over-old.{op}", "  new / old, same round", "", at_most(0.5)),
        ]
    for b, label in (("new", ""), ("old", ", old build")):
        out += [
            (f"cpu-per-event-us.r2-full1-{b}.open-missing",
             f"R2 filemond CPU per event, ring full, 1 watch{label} (us)", "", None),
            (f"cpu-per-event-us.r2-full2-{b}.open-missing",
             f"  2 watches{label} (us)", "", None),
            (f"cpu-two-over-one.{b}", "  two watches / one, same round", "",
             at_most(1.3) if b == "new" else None),
            (f"ratio.r2-full2-{b}.open-missing", "  failed-openat ratio with 2 watches", "", None),
            (f"lost.r2-full2-{b}.open-missing", "  events lost (gaps + drops, the worse watch)", "",
             every_round_zero if b == "new" else None),
        ]
    return out


def fmt(v):
    if v is None:
        return ""
    a = abs(v)
    if a >= 1000 or v == int(v):
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 0.1:
        return f"{v:.3f}"
    return f"{v:.4f}"


def main():
    raw, notes_path, meta_path, out_md, out_json = sys.argv[1:6]
    values = load(raw)
    add_ratios(values)
    with open(notes_path) as f:
        notes = [line.rstrip("\n") for line in f if line.strip()]
    meta = {}
    with open(meta_path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = v

    results = []
    for key, label, _unit, goal in rows(values):
        per_round = values.get(key)
        entry = {"measure": key, "label": label}
        if goal is not None:
            entry["goal"] = goal[0]
        if not per_round:
            entry["status"] = "not measured"
            results.append(entry)
            continue
        vs = [per_round[r] for r in sorted(per_round, key=int)]
        med = statistics.median(vs)
        entry.update({"rounds": vs, "median": med, "min": min(vs), "max": max(vs)})
        if goal is not None and goal[1] is not None:
            entry["met"] = bool(goal[1](med, vs))
        results.append(entry)

    with open(out_json, "w") as f:
        json.dump({"meta": meta, "results": results, "notes": notes}, f, indent=1)
        f.write("\n")

    lines = [
        "# filemon benchmark results",
        "",
        f"{meta.get('date', '')}, kernel {meta.get('kernel', '')}, {meta.get('cpus', '')} CPUs "
        f"({meta.get('cpu', '')}), {meta.get('rounds', '')} rounds of {meta.get('seconds', '')} s "
        "per load. Ratios: the load's rate under the variant / its untraced rate in the same "
        "round (for the kernel filter and the hook floor, the untraced run right after them). Median and spread (min - max) over the rounds; a goal is judged on the median, "
        "a loss goal on every round. Written by bench/run-bench.sh.",
        "",
        f"Load on the machine: before the run `{meta.get('uptime_before', '').strip()}`, after it "
        f"`{meta.get('uptime_after', '').strip()}`. R2 rows: issue 20's round 2 (bench-round2.sh); "
        f"\"old build\": {meta.get('old', 'not run')}, its daemon and filemonctl in a bus of their own, "
        "alternated with the new one's within each round. Cost (ns) = 1e9 / traced rate - 1e9 / untraced rate.",
        "",
        "| measure | median | spread | goal | met |",
        "|---|---:|---:|---|---|",
    ]
    for e in results:
        if "median" not in e:
            lines.append(f"| {e['label']} | - | - | {e.get('goal', '')} | not measured |")
            continue
        met = "" if "met" not in e else ("yes" if e["met"] else "**no**")
        spread = f"{fmt(e['min'])} - {fmt(e['max'])}" if len(e["rounds"]) > 1 else "(1 run)"
        lines.append(f"| {e['label']} | {fmt(e['median'])} | {spread} | {e.get('goal', '')} | {met} |")
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    with open(out_md, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
