#!/usr/bin/env python3
"""The README's bench table is the committed bench CSV.

README.md quotes a run of 'grade --bench' on the H200; tests/gpu/bench-h200.csv is that run's CSV.
Every quoted row (lab, kind, verdict, score, load and store efficiency, GB/s, the shares of the
ceiling and of the peak, the grading seconds) must be its CSV row as the table rounds it (within the CSV's own rounding), the
rows all there and in order; the header's ceiling and peak must be the CSV's (its rows' largest,
rounded, as grade --bench prints them). A number edited by hand, or a table left behind when the bench
is run again, fails here.

    readme_bench.py SOURCE_DIR
"""
import csv
import os
import re
import sys

from handout_text import verdict

ROW = re.compile(r"^\s*(\d\d)\s+(stub|solution)\s+(PASS|FAIL|NOT GRADED)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%"
                 r"\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)\s*$")
HEAD = re.compile(r"^\s*ceiling (\d+) GB/s \(the best copy, [^)]+\), peak (\d+) GB/s")


def main():
    src = sys.argv[1]
    text = open(os.path.join(src, "README.md"), encoding="utf-8").read().split("\n")
    with open(os.path.join(src, "tests", "gpu", "bench-h200.csv"), newline="") as f:
        data = list(csv.DictReader(f))
    fails, rows, head = 0, [], None
    for line in text:
        m = ROW.match(line)
        if m:
            rows.append(m.groups())
        h = HEAD.match(line)
        if h:
            head = h.groups()

    def fail(msg):
        nonlocal fails
        print("FAIL:", msg)
        fails += 1

    if len(rows) != len(data):
        fail(f"the README quotes {len(rows)} bench rows, bench-h200.csv has {len(data)}")
    for q, d in zip(rows, data):
        if tuple(q[:4]) != (d["lab"], d["kind"], d["verdict"], d["score"]):
            fail(f"README row {' '.join(q)} is not bench-h200.csv's {d['lab']} {d['kind']}")
            continue
        # (the CSV's value as the table shows it, the CSV's own rounding in those units)
        want = ((100 * float(d["load_eff"]), 0.005), (100 * float(d["store_eff"]), 0.005),
                (float(d["bytes_per_s"]) / 1e9, 0.0), (100 * float(d["fraction_of_ceiling"]), 0.005),
                (100 * float(d["fraction_of_peak"]), 0.005), (float(d["seconds"]), 0.0005))
        for shown, (value, csv_half) in zip(q[4:], want):
            decimals = len(shown.split(".")[1]) if "." in shown else 0
            if abs(float(shown) - value) > 0.5 * 10 ** -decimals + csv_half + 1e-9:
                fail(f"README row {' '.join(q)}: {shown} is not bench-h200.csv's {value:.4f}")
    if head is None:
        fail("the README's bench table has no 'ceiling ... peak ...' line")
    else:
        ceiling = max(float(d["ceiling_bytes_per_s"]) for d in data) / 1e9
        peak = max(float(d["peak_bytes_per_s"]) for d in data) / 1e9
        # (the CSV keeps six significant digits: the printed figure may round either way)
        if abs(int(head[0]) - ceiling) > 0.51 or abs(int(head[1]) - peak) > 0.51:
            fail(f"the README's ceiling {head[0]} and peak {head[1]} GB/s are not the CSV's "
                 f"(its largest ceiling {ceiling:.0f}, peak {peak:.0f}, as the bench prints them)")
    print(f"{len(rows)} README bench rows checked against tests/gpu/bench-h200.csv")
    return verdict(fails == 0 and rows)


if __name__ == "__main__":
    sys.exit(main())
