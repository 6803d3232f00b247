#!/usr/bin/env python3
"""Every time and bandwidth a handout's prose states has a source.

A handout's text quotes measurements from its own quoted blocks (grade reports, explore tables,
ncu tables) and from the explore runs' committed outputs (handouts/figures/explore-NN-*). Each
number with a unit of time or bandwidth (ms, µs, GB/s, TB/s) outside the code blocks must be
one of those as a table rounds it, in the table's unit (the handout's own quoted blocks and its lab's committed explore outputs, and those of each lab
handout it links to), or the result of arithmetic shown in the sentence ("... = 2707
GB/s"). A number typed into the prose that no run printed fails here.

    prose_numbers.py SOURCE_DIR
"""
import glob
import os
import re
import sys

from handout_text import blocks_and_prose, handouts, verdict

MEASURE = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s?(ms|µs|GB/s|TB/s)\b")
SHOWN = re.compile(r"=\s*\**\s*$")  # the number is the result of arithmetic on the page


def numbers_in(text):
    return {float(v.replace(",", "")) for v in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def sourced(value, known):
    """Whether value (as written: its decimals say how it was rounded) is a known number as a
    table rounds it."""
    decimals = len(value.split(".")[1]) if "." in value else 0
    v = float(value.replace(",", ""))
    half = 0.5 * 10 ** -decimals + 1e-9
    return any(abs(x - v) <= half for x in known)


def lab_outputs(src, lab):
    """The committed explore outputs of lab NN."""
    return "".join(open(f, encoding="utf-8").read()
                   for f in glob.glob(os.path.join(src, "handouts", "figures", f"explore-{lab}-*"))
                   if f.endswith((".csv", ".txt")))


def main():
    src = sys.argv[1]
    paths = handouts(src)
    blocks = {os.path.basename(h): " ".join(" ".join(lines) for _, lines in blocks_and_prose(h)[0])
              for h in paths}
    fails = checked = 0
    for path in paths:
        name = os.path.basename(path)
        # Its own blocks and its lab's explore outputs, and those of every lab handout it links to
        # (the introduction cites lab 01's explore table).
        text = open(path, encoding="utf-8").read()
        cited = {name} | set(re.findall(r"\((0[1-7]-[a-z-]+\.md)", text))
        sources = "".join(blocks.get(c, "") + lab_outputs(src, c[:2]) for c in cited)
        known = numbers_in(sources)
        for n, line in blocks_and_prose(path)[1]:
            for m in MEASURE.finditer(line):
                checked += 1
                if sourced(m.group(1), known) or SHOWN.search(line[:m.start()]):
                    continue
                print(f"FAIL: {name}:{n}: '{m.group(0)}' is in no quoted block of this handout or "
                      "of a lab it links to, nor in their committed explore outputs, and no "
                      "arithmetic shown gives it")
                fails += 1
    print(f"{checked} times and bandwidths in the handouts' prose checked for a source")
    return verdict(fails == 0 and checked)


if __name__ == "__main__":
    sys.exit(main())
