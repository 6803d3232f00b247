#!/usr/bin/env python3
"""Where side-by-side grading waits: reads the GPU lock's timeline (GRADE_LOCK_LOG, gpulock.h)
and prints, for the whole run, how long the GPU was held alone (the measured sections), shared,
or by nobody, and for each kind of holder ("run 01", "record 03 (for it)") its waits and holds
of the GPU lock (SH, EX) and of the counters' lock (CT).
    GRADE_LOCK_LOG=/tmp/lock.log build/grade --solution; tests/gpu/lock_timeline.py /tmp/lock.log
A measurement, not a test."""
import sys
from collections import defaultdict


def main(path):
    events, phases = [], defaultdict(lambda: defaultdict(list))
    for line in open(path):
        parts = line.split()
        if len(parts) >= 7 and parts[2] == "--" and parts[3] == "phase":
            # gl_phase: t pid -- phase MODE LAB NAME SECONDS, the seconds since the last step
            phases[" ".join(parts[4:-2])][parts[-2]].append(float(parts[-1]))
            continue
        if len(parts) < 6:
            continue
        t, pid, how, event = float(parts[0]), parts[1], parts[2], parts[3]
        tag, seconds = " ".join(parts[4:-1]), float(parts[-1])
        events.append((t, pid, how, event, tag, seconds))
    if not events:
        print("no lock events")
        print_phases(phases)
        return 0 if phases else 1
    events.sort()
    start, end = events[0][0], events[-1][0]
    # Intervals: each taken to the next release of the same pid.
    open_at, intervals = {}, []
    waits, holds, counts = defaultdict(float), defaultdict(float), defaultdict(int)
    for t, pid, how, event, tag, seconds in events:
        kind = tag.split(" ")[0] + (" (for it)" if "(for it)" in tag else "")
        lock = (pid, how == "CT")  # the counters' lock (CT) is held beside the GPU lock
        if event == "taken":
            open_at[lock] = (t, how, kind)
            waits[(kind, how)] += seconds
            counts[(kind, how)] += 1
        elif event == "released" and lock in open_at:
            t0, h, k = open_at.pop(lock)
            intervals.append((t0, t, h))
            holds[(k, h)] += t - t0
    # Sweep: at each moment, alone (EX), shared (SH) or free; counting (CT) is within shared.
    gpu = [(a, b, h) for a, b, h in intervals if h != "CT"]
    edges = sorted([(a, 1, h) for a, b, h in gpu] + [(b, -1, h) for a, b, h in gpu])
    ex = sh = 0
    last = start
    alone = shared = free = 0.0
    for t, d, h in edges:
        span = t - last
        if ex:
            alone += span
        elif sh:
            shared += span
        else:
            free += span
        last = t
        if h == "EX":
            ex += d
        else:
            sh += d
    free += end - last
    total = end - start
    print(f"timeline {total:.2f} s: the GPU held alone {alone:.2f} s ({100 * alone / total:.0f}%), "
          f"shared {shared:.2f} s ({100 * shared / total:.0f}%), by nobody {free:.2f} s "
          f"({100 * free / total:.0f}%)")
    print(f"{'holder':<22} {'lock':<4} {'times':>5} {'waited s':>9} {'held s':>8}")
    for (kind, how) in sorted(counts):
        print(f"{kind:<22} {how:<4} {counts[(kind, how)]:>5} {waits[(kind, how)]:>9.2f} "
              f"{holds[(kind, how)]:>8.2f}")
    print_phases(phases)
    return 0


# The grader's own steps of a lab ("grade 01", grade.c step_done): its critical path.
GRADER_STEPS = ["compile", "record", "run", "checks", "counters", "trace", "end"]
PHASES = ["cuda-start", "inputs", "wait", "load", "launches", "save", "profile-setup", "timing",
          "profile-config", "profile-target", "profile-start", "profile-gpu", "profile-replay",
          "profile-stop", "profile-decode", "profile", "evaluate", "close", "exit",
          "trace-patch", "trace-begin", "trace-kernel", "trace-copy", "trace-weigh",
          "trace-run", "trace-analyse",
          "trace-write"]


def print_phases(phases):
    """Each child's steps (gl_phase): the seconds a child of that kind spent in each step, all its
    runs of the step added up (a run child replays at its check shapes too), averaged over the
    children of that kind ("start" is logged once a child). The grader's steps of each lab first,
    in a table of their own."""
    graders = {t: s for t, s in phases.items() if t.startswith("grade ")}
    children = {t: s for t, s in phases.items() if not t.startswith("grade ")}
    if graders:
        print("\nwhere a lab's grading waits (seconds from the grader's step before to the end of "
              "this one, averaged over the n gradings of that lab: the compile, the recording, the "
              "run child, the CPU checks after it, the counters' reading, the trace's end, the "
              "decision)")
        print_table("grading", graders, GRADER_STEPS)
    if children:
        print("\nwhere a child's time goes (seconds a child spent in each step, its repeats of the "
              "step added up, averaged over the n children of that kind; 'cuda-start' includes "
              "making the child's context, 'exit' CUDA's clean-up)")
        print_table("child", children, PHASES)


def print_table(what, phases, order):
    shown = [p for p in order if any(p in steps for steps in phases.values())]
    label = {p: p.replace("profile-", "prof-") for p in shown}  # "prof-stop", not "profile-st"
    print(f"{what:<12} {'n':>3} " + " ".join(f"{label[p]:>11}" for p in shown) + f" {'sum':>7}")
    for tag in sorted(phases):
        steps = phases[tag]
        n = len(steps["start"]) if "start" in steps else max(len(v) for v in steps.values())
        per_child = {p: sum(steps[p]) / n for p in steps if p != "start"}
        cells = " ".join(f"{per_child[p]:>11.3f}" if p in per_child else f"{'-':>11}" for p in shown)
        print(f"{tag:<12} {n:>3} {cells} {sum(per_child.values()):>7.3f}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
