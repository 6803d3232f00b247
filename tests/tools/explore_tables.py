#!/usr/bin/env python3
"""Every explore table a handout quotes comes from that lab's explore run.

A handout quotes its lab's explore run as a text block that starts "lab NN explore on ..."; the
same run's table is committed as handouts/figures/explore-NN-h200.csv. The quote must hold the CSV's
rows, as many and in the same order; each row its CSV row's words (its name first, a layout) and
its numbers fields of the CSV row, each column of the quote one field for every row, as the table
rounds them (to the decimals shown; a share may be shown as a percentage, milliseconds as
microseconds; a field may be left out). A
number edited, swapped or copied from another row, a row dropped or renamed, or a quote left
behind when the CSV is measured again, fails here.

Lab 01's tables of DRAM bytes per sector at each L2 fetch granularity and of the whole buffer read
in chunks are printed after the CSV's table and are not in it; their quotes must equal
handouts/figures/explore-01-fetch-h200.txt and explore-01-chunks-h200.txt.

    explore_tables.py SOURCE_DIR
"""
import csv
import os
import re
import sys

from handout_text import blocks_and_prose, handouts, verdict

# A number, or a lone "-": a field the run did not measure (the CSV writes -1).
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?|(?<!\S)-(?!\S)")
SCALES = (1, 100, 1000)  # as it is, a share as a percentage, milliseconds as microseconds
NOTE = re.compile(r"^[a-z][a-z -]*: ")  # a line of prose under a table ("speed-up: the time ...")


def quoted_tables(path):
    """(lab, [row text]) for each quoted explore table of the handout: the lines after its title
    and header, to the end of the block, blank lines and notes left out."""
    lines = open(path, encoding="utf-8").read().split("\n")
    tables, i = [], 0
    while i < len(lines):
        m = re.match(r"lab (\d\d) explore on ", lines[i])
        if m and i > 0 and lines[i - 1].startswith("```"):
            rows, j = [], i + 2  # the title, then the header
            while j < len(lines) and not lines[j].startswith("```"):
                if lines[j].strip() and not NOTE.match(lines[j]):
                    rows.append(lines[j])
                j += 1
            tables.append((m.group(1), rows))
            i = j
        i += 1
    return tables


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def shown(field, text):
    """Whether the CSV field (text) can read as text in the table: rounded to the decimals shown
    where the CSV has more, equal where it has as many, and within the CSV's own rounding where
    it has fewer (both were rounded from the run's value)."""
    if text == "-":
        return float(field) < 0
    value, want = float(field), float(text)
    for k, shift in ((1, 0), (100, 2), (1000, 3)):
        finer = decimals(field) - shift  # the CSV's decimals, on the table's scale
        shown_decimals = decimals(text)
        if finer > shown_decimals:
            slack = 0.5 * 10**-shown_decimals
        elif finer == shown_decimals:
            slack = 0
        else:
            slack = 0.5 * 10**-finer
        if abs(value * k - want) <= slack + 1e-9 * max(1.0, abs(want)):
            return True
    return False


def is_number(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


def words_and_numbers(text_row, csv_row):
    """The quoted row's numbers once the CSV row's words are found in it (a row's name, a
    layout; the name first, where the CSV starts with one), or None when one is missing. The
    numbers of a name ("tiled 32 x 32") are its words', not measurements."""
    words = [v for v in csv_row if not is_number(v)]
    rest = text_row.strip()
    if csv_row and not is_number(csv_row[0]) and not rest.startswith(csv_row[0]):
        return None
    for w in words:
        if w not in rest:
            return None
        rest = rest.replace(w, " ", 1)
    return NUMBER.findall(rest)


def columns(quoted, data):
    """A field of the CSV for each column of the quote, the same for every row, no field twice,
    with every quoted number its field as the table rounds it; None when there is none."""
    n = len(quoted[0])
    if any(len(q) != n for q in quoted):
        return None
    # Fields counted from the end of a row: a name with a comma in it ("naive, x on rows")
    # is written unquoted, and takes two fields of the CSV in some rows, one in others.
    fields = [j - len(data[0]) for j, v in enumerate(data[0]) if is_number(v)]

    def assign(c, used):
        if c == n:
            return []
        for j in fields:
            if j not in used and all(-j <= len(d) and is_number(d[j]) and shown(d[j], q[c])
                                     for q, d in zip(quoted, data)):
                rest = assign(c + 1, used | {j})
                if rest is not None:
                    return [j] + rest
        return None

    return assign(0, frozenset())


def main():
    src = sys.argv[1]
    failures = checked = 0
    for path in handouts(src):
        for lab, rows in quoted_tables(path):
            table = os.path.join(src, "handouts", "figures", f"explore-{lab}-h200.csv")
            if not os.path.exists(table):
                print(f"FAIL: {os.path.basename(path)} quotes lab {lab}'s explore run; no {table}")
                failures += 1
                continue
            with open(table, newline="") as f:
                data = list(csv.reader(f))[1:]
            name = os.path.basename(path)
            if len(rows) != len(data):
                print(f"FAIL: {name} quotes {len(rows)} rows of lab {lab}'s explore table; "
                      f"explore-{lab}-h200.csv has {len(data)}")
                failures += 1
                continue
            quoted = []
            for r, d in zip(rows, data):
                checked += 1
                q = words_and_numbers(r, d)
                if q is None:
                    print(f"FAIL: {name}: the quoted row '{r.strip()}' lacks the words of "
                          f"explore-{lab}-h200.csv's row {','.join(d)}")
                    failures += 1
                quoted.append(q or [])
            if all(quoted) and columns(quoted, data) is None:
                # Name the first row that no consistent choice of columns fits.
                for k in range(1, len(rows) + 1):
                    if columns(quoted[:k], data[:k]) is None:
                        break
                print(f"FAIL: {name}: lab {lab}'s quoted explore table is not "
                      f"explore-{lab}-h200.csv, column for column; first at '{rows[k - 1].strip()}'")
                failures += 1
    # Lab 01's tables after the CSV's, the L2 fetch granularity and the chunked reads: a block
    # that starts with a table's title is the committed output of that part of the explore run,
    # line for line.
    for name, title in (("explore-01-fetch-h200.txt", "DRAM bytes read per sector touched"),
                        ("explore-01-chunks-h200.txt", "The whole 1 GiB read once in chunks")):
        path_of = os.path.join(src, "handouts", "figures", name)
        want = open(path_of, encoding="utf-8").read().rstrip("\n").split("\n")
        quotes = 0
        for path in handouts(src):
            for start, lines in blocks_and_prose(path)[0]:
                if lines and lines[0].startswith(title):
                    checked += len(want)
                    quotes += 1
                    if lines != want:
                        print(f"FAIL: {os.path.basename(path)}:{start}: the table is not "
                              f"{name}, line for line")
                        failures += 1
        if quotes == 0:
            print(f"FAIL: no handout quotes {name} (lab 01 does, in a text block)")
            failures += 1
    print(f"{checked} quoted explore rows checked against the committed explore tables")
    return verdict(failures == 0 and checked)


if __name__ == "__main__":
    sys.exit(main())
