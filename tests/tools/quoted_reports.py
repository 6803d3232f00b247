#!/usr/bin/env python3
"""The arithmetic of every grade report a handout quotes.

The handouts quote reports from runs on the H200. Their measurements cannot be re-run without
that GPU, but what a report derives from them can be checked: each part's threshold (the lab's,
as 'grade --course --print' gives it) and its "ok" or "too low", the speed-up from the two times
and its word, the score from the parts that passed (the lab's points), PASS only at full marks
and FAIL only below, the bandwidth's share of the copy; and every part or speed line must read as
one. A quote edited by hand so that it no longer adds up fails here.

    quoted_reports.py SOURCE_DIR GRADE
"""
import os
import re
import subprocess
import sys
import tempfile

from handout_text import verdict

HEAD = re.compile(r"^lab (\d\d) \S+: .*\s(PASS|FAIL|NOT GRADED)\s+(\d+)/(\d+)$")
PART = re.compile(r"^  (loads|stores)\s+([\d.]+)%\s+[\d.]+ sectors/request\s+\(need >= (\d+)%\)\s+(ok|too low)")
SPEED = re.compile(r"^  speed\s+([\d.]+)x .*: ([\d.]+) ms .* against ([\d.]+) ms, same run\s+"
                   r"\(need >= ([\d.]+)x\)\s+(ok|too slow)")
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
        m = re.match(r"^(\d\d)\s+\S+\s+(\d+)/(\d+)/(\d+)/(\d+|-)\s+(\d+)%/(\d+)%\s+"
                     r"([\d.]+x|-)", line)
        if m:
            g = m.groups()
            points[g[0]] = {"points": tuple(0 if v == "-" else int(v) for v in g[1:5]),
                            "need": (int(g[5]), int(g[6])),
                            "speedup": None if g[7] == "-" else float(g[7][:-1])}
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
    spec = lab_points[lab]
    correct_pts, load_pts, store_pts, speed_pts = spec["points"]
    correct = any(re.match(r"^  correctness  ok\b", l) for l in block)
    # A quote may leave its correctness line out (the handout says so); the loads and stores
    # shown are then those of a correct run (only a correct run is measured).
    shown_correctness = any(re.match(r"^  correctness ", l) for l in block)
    correct = correct or not shown_correctness
    earned = correct_pts if correct else 0
    parts_seen = 0
    for l in block:
        if re.match(r"^  (loads|stores) ", l) and not PART.match(l):
            problems.append(f"a part line that does not read as one: '{l.strip()}'")
        if re.match(r"^  speed ", l) and not SPEED.match(l):
            problems.append(f"a speed line that does not read as one: '{l.strip()}'")
        m = PART.match(l)
        if m:
            parts_seen += 1
            kind, eff, need, said = m.group(1), float(m.group(2)), float(m.group(3)), m.group(4)
            lab_need = spec["need"][0 if kind == "loads" else 1]
            if need != lab_need:
                problems.append(f"{kind} need >= {need:g}%, the lab's threshold is {lab_need}%")
            if (said == "ok") != (eff >= need):
                problems.append(f"{kind} {eff}% against {need}% says '{said}'")
            if said == "ok" and correct:
                earned += load_pts if kind == "loads" else store_pts
        m = SPEED.match(l)
        if m:
            ratio, ms, base, need, said = (float(m.group(1)), float(m.group(2)),
                                           float(m.group(3)), float(m.group(4)), m.group(5))
            if spec["speedup"] is not None and need != spec["speedup"]:
                problems.append(f"speed need >= {need}x, the lab's is {spec['speedup']}x")
            if abs(base / ms - ratio) > 0.005 + base * 0.0005 / ms**2 + 1e-9:
                problems.append(f"speed {ratio}x is not {base} ms over {ms} ms")
            if (said == "ok") != (ratio >= need):
                problems.append(f"speed {ratio}x against {need}x says '{said}'")
            if said == "ok" and correct:
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
    if verdict == "FAIL" and score == most:
        problems.append(f"FAIL with {score}/{most}")
    return [f"FAIL: {name}:{start}: lab {lab}'s report: {p}" for p in problems]


def main():
    src, grade = sys.argv[1], os.path.abspath(sys.argv[2])
    points = lab_points(src, grade)
    if len(points) < 7:  # every lab's points, thresholds and speed-up
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
    return verdict(ok)


if __name__ == "__main__":
    sys.exit(main())
