#!/usr/bin/env python3
"""The arithmetic of every grade report a handout quotes.

The handouts quote reports from runs on the H200. Their measurements cannot be re-run without
that GPU, but what a report derives from them can be checked: each part's "ok" or "too low"
against its threshold, the score from the parts that passed (each lab's points, as
'grade --course --print' gives them), PASS only at full marks, and the bandwidth's share of the
copy. A quote edited by hand so that it no longer adds up fails here.

    quoted_reports.py SOURCE_DIR GRADE
"""
import os
import re
import subprocess
import sys
import tempfile

HEAD = re.compile(r"^lab (\d\d) \S+: .*\s(PASS|FAIL|NOT GRADED)\s+(\d+)/(\d+)$")
PART = re.compile(r"^  (loads|stores)\s+([\d.]+)%\s+[\d.]+ sectors/request\s+\(need >= (\d+)%\)\s+(ok|too low)")
SPEED = re.compile(r"^  speed\s+([\d.]+)x .*\(need >= ([\d.]+)x\)")
BANDWIDTH = re.compile(r"^  bandwidth\s+(\d+) GB/s, (\d+)% of this GPU's (?:copy|ceiling) \((\d+) GB/s")


def lab_points(src, grade):
    """{lab: (correct, loads, stores, speed)} from grade --course --print on a course of every
    lab with its own settings."""
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        f.write("labs:\n" + "".join(f'  "{n:02d}":\n' for n in range(1, 8)))
    out = subprocess.run([grade, "--course", f.name, "--print"], capture_output=True, text=True,
                         cwd=src).stdout
    os.unlink(f.name)
    points = {}
    for line in out.splitlines():
        m = re.match(r"^(\d\d)\s+\S+\s+(\d+)/(\d+)/(\d+)/(\d+|-)", line)
        if m:
            points[m.group(1)] = tuple(0 if g == "-" else int(g) for g in m.groups()[1:])
    return points


def reports(path):
    """(first line number, [lines]) of each quoted report."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if HEAD.match(lines[i]) and i > 0 and lines[i - 1].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```") and not HEAD.match(lines[j]):
                j += 1
            out.append((i + 1, lines[i:j]))
            i = j
        else:
            i += 1
    return out


def check(name, lab_points, start, block):
    problems = []
    lab, verdict, score, most = HEAD.match(block[0]).groups()
    score, most = int(score), int(most)
    correct_pts, load_pts, store_pts, speed_pts = lab_points[lab]
    correct = any(re.match(r"^  correctness  ok\b", l) for l in block)
    # A quote may leave its correctness line out (the handout says so); the loads and stores
    # shown are then those of a correct run (only a correct run is measured).
    shown_correctness = any(re.match(r"^  correctness ", l) for l in block)
    correct = correct or not shown_correctness
    earned = correct_pts if correct else 0
    parts_seen = 0
    for l in block:
        m = PART.match(l)
        if m:
            parts_seen += 1
            kind, eff, need, said = m.group(1), float(m.group(2)), float(m.group(3)), m.group(4)
            if (said == "ok") != (eff >= need):
                problems.append(f"{kind} {eff}% against {need}% says '{said}'")
            if said == "ok" and correct:
                earned += load_pts if kind == "loads" else store_pts
        m = SPEED.match(l)
        if m and correct and float(m.group(1)) >= float(m.group(2)):
            earned += speed_pts
        m = BANDWIDTH.match(l)
        if m:
            x, share, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if abs(100 * x / y - share) > 0.5 + 100 * 0.5 / y + 1e-9:
                problems.append(f"bandwidth {x} GB/s is not {share}% of {y} GB/s")
    if most != correct_pts + load_pts + store_pts + speed_pts:
        problems.append(f"out of {most}, the lab's parts add up to another total")
    if parts_seen and verdict != "NOT GRADED" and earned != score:
        problems.append(f"the parts that passed make {earned}, the report says {score}")
    if verdict == "PASS" and score != most:
        problems.append(f"PASS with {score}/{most}")
    return [f"FAIL: {name}:{start}: lab {lab}'s report: {p}" for p in problems]


def main():
    src, grade = sys.argv[1], os.path.abspath(sys.argv[2])
    points = lab_points(src, grade)
    if len(points) < 7:
        print("FAIL: could not read the labs' points from grade --course --print")
        return 1
    failures, checked = [], 0
    handouts = os.path.join(src, "handouts")
    for f in sorted(os.listdir(handouts)):
        if f.endswith(".md"):
            for start, block in reports(os.path.join(handouts, f)):
                checked += 1
                failures += check(f, points, start, block)
    print("\n".join(failures))
    print(f"{checked} quoted reports checked: thresholds, scores, verdicts, bandwidth shares")
    ok = not failures and checked > 0
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
