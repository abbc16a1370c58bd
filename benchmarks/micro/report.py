#!/usr/bin/env python3
"""Prints the microbenchmark table from Google Benchmark JSON files.

Each kstreams case's label names its baseline (vs=<name>) and the issue's target ratio; a baseline's
label is "baseline". With repetitions the medians are used (of CPU time, so other processes on the
machine disturb the figures less); without, the single run. The ratio is kstreams / baseline from
the same binary and the same run.
"""
import json
import sys


def load(paths):
    runs, order = {}, []
    for path in paths:
        with open(path) as f:
            text = f.read()
        # A binary none of whose benchmarks matches --benchmark_filter writes an empty file.
        if not text.strip():
            print(f"report.py: {path}: no benchmark ran (none matched the filter?); skipped", file=sys.stderr)
            continue
        data = json.loads(text)
        medians = {}
        singles = {}
        for b in data.get("benchmarks", []):
            name = b.get("run_name", b["name"])
            if b.get("error_occurred"):
                singles[name] = dict(b, failed=True)
                continue
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[name] = b
            else:
                singles.setdefault(name, b)
        for name, b in singles.items():
            label = b.get("label", "")
            chosen = dict(medians.get(name, b))
            chosen["label"] = chosen.get("label") or label
            chosen["failed"] = b.get("failed", False)
            runs[name] = chosen
        # Registration order (random interleaving shuffles the run order).
        order += sorted(singles, key=lambda n: (singles[n].get("family_index", 0),
                                                singles[n].get("per_family_instance_index", 0)))
    return runs, order


def per_record_ns(b):
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b["cpu_time"] * scale / b.get("rec/iter", 1.0)


def parse_label(label):
    fields = {}
    for part in label.split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            fields[k] = v
    return fields


def fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.1f} ns"


def main(paths):
    runs, order = load(paths)
    if not runs:
        print("report.py: no benchmark results in " + ", ".join(paths), file=sys.stderr)
        return 1
    rows, notes = [], []
    for name in order:
        b = runs[name]
        label = b.get("label", "")
        if label == "baseline":
            continue
        fields = parse_label(label)
        if b["failed"]:
            notes.append(f"{name}: not measured: {b.get('error_message', '')}")
            rows.append([name, f"not measured ({len(notes)})", "", "", "", "", "", ""])
            continue
        ns = per_record_ns(b)
        allocs = f'{b.get("allocs/rec", 0):.2f}'
        per_op = b.get("ns/op/rec")
        per_op = f"{per_op * 1e9:.1f}" if per_op else ""
        for base_name in fields.get("vs", "").split(","):
            base = runs.get(base_name)
            target = fields.get("target", "")
            if base and not base["failed"]:
                base_ns = per_record_ns(base)
                ratio = ns / base_ns
                ratio_s = f"{ratio:.2f}×"
                base_s = f"{fmt_ns(base_ns)} ({base_name.rsplit('/', 1)[-1]})"
                base_allocs = f'{base.get("allocs/rec", 0):.2f}'
                if target:
                    t = float(target)
                    target = f"≤ {t:g}× " + ("met" if ratio <= t else f"missed by {ratio / t:.1f}×")
            else:
                ratio_s, base_s, base_allocs = "–", "–", "–"
            rows.append([name, fmt_ns(ns), base_s, ratio_s, target, allocs, base_allocs, per_op])

    header = ["case", "kstreams /rec", "baseline /rec", "ratio", "target", "allocs/rec", "baseline allocs/rec", "ns/op/rec"]
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    if notes:
        print()
        for i, n in enumerate(notes, 1):
            print(f"({i}) {n}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: report.py RESULT.json...")
    sys.exit(main(sys.argv[1:]))
