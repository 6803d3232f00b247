#!/usr/bin/env python3
"""Every explore table a handout quotes comes from that lab's explore run.

A handout quotes its lab's explore run as a text block that starts "lab NN explore on ..."; the
same run's table is committed as handouts/figures/explore-NN-h200.csv. Each data row of the quote
must be one row of the CSV: every number in it equal to one of that row's fields as the table
rounds it (to the decimals shown; a share may be shown as a percentage, milliseconds as
microseconds). A number edited in a quote, or a quote left behind when the CSV is measured again,
fails here.

    explore_tables.py SOURCE_DIR
"""
import csv
import glob
import os
import re
import sys

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
SCALES = (1, 100, 1000)


def quoted_tables(path):
    """(lab, [row text]) for each quoted explore table of the handout."""
    lines = open(path, encoding="utf-8").read().split("\n")
    tables, i = [], 0
    while i < len(lines):
        m = re.match(r"lab (\d\d) explore on ", lines[i])
        if m and i > 0 and lines[i - 1].startswith("```"):
            rows, j = [], i + 2  # the title, then the header
            while j < len(lines) and not lines[j].startswith("```") and lines[j].strip():
                rows.append(lines[j])
                j += 1
            tables.append((m.group(1), rows))
            i = j
        i += 1
    return tables


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def shown(field, text):
    """Whether the CSV field (text), rounded as the table writes text, can read as text: within
    half a unit of the table's last digit, and of the CSV's own (both were rounded from the
    run's value)."""
    value, want = float(field), float(text)
    for k in SCALES:
        slack = 0.5 * 10 ** -decimals(text) + 0.5 * 10 ** -decimals(field) * k
        if abs(value * k - want) <= slack * (1 + 1e-9):
            return True
    return False


def fields(row):
    out = []
    for v in row:
        try:
            float(v)
            out.append(v)
        except ValueError:
            pass
    return out


def matches(text_row, csv_row):
    """Whether every number of the quoted row is a field of the CSV row. A first column with
    words in it is the row's name ("tiled 32 x 32"): its numbers are not measurements."""
    values = fields(csv_row)
    columns = re.split(r"\s{2,}", text_row.strip())
    if re.search(r"[A-Za-z]", columns[0]) and len(columns) > 1:
        columns = columns[1:]
    numbers = NUMBER.findall("  ".join(columns))
    return all(any(shown(v, n) for v in values) for n in numbers)


def main():
    src = sys.argv[1]
    failures = checked = 0
    for path in sorted(glob.glob(os.path.join(src, "handouts", "*.md"))):
        for lab, rows in quoted_tables(path):
            table = os.path.join(src, "handouts", "figures", f"explore-{lab}-h200.csv")
            if not os.path.exists(table):
                print(f"FAIL: {os.path.basename(path)} quotes lab {lab}'s explore run; no {table}")
                failures += 1
                continue
            with open(table, newline="") as f:
                data = list(csv.reader(f))[1:]
            for r in rows:
                checked += 1
                if not any(matches(r, d) for d in data):
                    print(f"FAIL: {os.path.basename(path)}: no row of explore-{lab}-h200.csv "
                          f"gives the quoted row '{r.strip()}'")
                    failures += 1
    print(f"{checked} quoted explore rows checked against the committed explore tables")
    print("1 passed, 0 failed" if failures == 0 and checked else "0 passed, 1 failed")
    return 0 if failures == 0 and checked else 1


if __name__ == "__main__":
    sys.exit(main())
