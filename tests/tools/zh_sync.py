#!/usr/bin/env python3
"""The Chinese handouts say what the English ones say (issue 14: both editions stay in step).

For every handout handouts/NAME.md, its twin handouts/zh/NAME.md must exist and have, section
by section (a section runs from one heading to the next):
  - the same headings, at the same levels, in the same order;
  - the same fenced blocks, byte for byte (commands, reports, code, tables in blocks);
  - the same numbers in the prose (every run of digits, as a multiset: a translation may move a
    number within its section, never drop, add or change one);
  - the same inline code spans (commands, names, values), as a multiset;
  - the same figures, in order (figures/X.svg in English is ../figures/zh/X.svg or
    ../figures/X.svg in Chinese: the same Graphviz source, labels translated or none; a
    screenshot NAME.png in English may be zh-NAME.png in Chinese, the same view in Chinese);
  - links to the same files (another handout, or a file of the tree one folder further up);
    a Chinese handout may link to the glossary (zh/glossary.md) besides;
  - before each Chinese heading, the English heading's anchor, <a id="SLUG"></a> (GitHub's slug
    of the English text), so that links into a section keep their English fragments.
and every file a Chinese handout shows or links to exists, seen from handouts/zh/. A zh file
with no English twin fails too. Prints each difference with both line numbers.

What it cannot see: the meaning, and the order of numbers and code spans inside a section (a
translation that swaps two of them, or drops a sentence that has neither, still passes); a
link's fragment (the workbook test checks that every one lands).

    zh_sync.py SOURCE_DIR            every pair
    zh_sync.py SOURCE_DIR NAME.md    one pair
    zh_sync.py SOURCE_DIR --anchors  writes the anchors into the Chinese handouts (then checks)
"""
import os
import re
import sys

from handout_text import verdict

HEADING = re.compile(r"^(#{1,6})\s")
CODE = re.compile(r"``?([^`]+)``?")
BRACKETED = r"\[(?:[^\[\]]|\[[^\]]*\])*\]"  # link text, one level of brackets inside
IMAGE = re.compile(r"!" + BRACKETED + r"\(([^)\s]+)[^)]*\)")
LINK = re.compile(r"(?<!!)" + BRACKETED + r"\(([^)\s]+)[^)]*\)")
NUMBER = re.compile(r"\d+")
LIST_MARK = re.compile(r"^\s*\d+\.\s")


ANCHOR = re.compile(r'^<a id="([^"]+)"></a>$')


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"^#+\s*", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text.replace("`", ""))
    return text.replace(" ", "-")


def headings(path):
    """[(index of the line, text)] of a handout's headings, fences skipped."""
    out, fence = [], False
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and HEADING.match(line):
            out.append((i, line))
    return out, lines


def anchor_problems(en_path, zh_path, name, write):
    """The Chinese headings without their English anchor (written in when write is set)."""
    en, _ = headings(en_path)
    zh, lines = headings(zh_path)
    if len(en) != len(zh):
        return []  # compare() says so
    fails, out, last = [], [], 0
    for (_, en_text), (i, _) in zip(en, zh):
        want = f'<a id="{slug(en_text)}"></a>'
        prev = i - 2 if i >= 2 and not lines[i - 1].strip() else i - 1
        has = prev >= 0 and ANCHOR.match(lines[prev]) and lines[prev] == want
        if write:
            stop = prev if prev >= 0 and ANCHOR.match(lines[prev]) else i
            out += lines[last:stop] + [want, ""]
            last = i
        elif not has:
            fails.append(f"{name}: the heading at Chinese line {i + 1} has no anchor {want} on "
                         "the line before it, with a blank line between (zh_sync.py --anchors)")
    if write:
        open(zh_path, "w", encoding="utf-8").write("\n".join(out + lines[last:]))
    return fails


def sections(path):
    """[(heading line number, level, [block lines], prose text with line numbers)]."""
    out = [[0, 0, [], []]]
    block = None
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.lstrip().startswith("```"):  # a fence, also one indented in a list item
            if block is None:
                block = [line]
            else:
                block.append(line)
                out[-1][2].append("\n".join(block))
                block = None
            continue
        if block is not None:
            block.append(line)
            continue
        m = HEADING.match(line)
        if m:
            out.append([n, len(m.group(1)), [], []])
        if not ANCHOR.match(line):
            out[-1][3].append((n, line))
    return out


def prose_text(lines):
    """A section's prose as one text (code spans and links may run over a line break), each
    numbered list's marks taken out: structure, not content. A line like "128. A cache ..."
    inside a paragraph is no mark (CommonMark: only a list starting at 1 interrupts one)."""
    out, prev = [], ""
    for _, line in lines:
        m = LIST_MARK.match(line)
        if m and (not prev.strip() or m.group(0).strip() == "1." or prev[:1].isspace() or
                  LIST_MARK.match(prev) or prev.lstrip().startswith(("- ", "* "))):
            line = line[m.end():]
        out.append(line)
        prev = line if not m else m.group(0) + line
    return "\n".join(out)


def prose_items(lines):
    """(numbers, code spans, figures, link files) of a section's prose."""
    text = prose_text(lines)
    figures = [os.path.basename(t) for t in IMAGE.findall(text)]
    links = [t.split("#")[0] for t in LINK.findall(text)]
    links = [t for t in links
             if t and not re.match(r"[a-z]+:", t) and t != "glossary.md"]
    spans = [" ".join(c.split()) for c in CODE.findall(text)]
    rest = IMAGE.sub("", LINK.sub("]", CODE.sub("", text)))
    rest = re.sub(r"<[^>]+>", "", rest)  # HTML tags (anchors, line breaks)
    return sorted(NUMBER.findall(rest)), sorted(spans), figures, links


def english_target(zh_target):
    """What a link of a zh handout points at, as the English handout would write it."""
    if zh_target.startswith("../"):
        return zh_target[3:]
    return zh_target


def compare(en_path, zh_path, name):
    fails = []
    en, zh = sections(en_path), sections(zh_path)
    if [s[1] for s in en] != [s[1] for s in zh]:
        fails.append(f"{name}: the headings differ: English has {len(en) - 1} "
                     f"(levels {''.join(str(s[1]) for s in en[1:])}), Chinese {len(zh) - 1} "
                     f"(levels {''.join(str(s[1]) for s in zh[1:])})")
        return fails
    for e, z in zip(en, zh):
        where = f"{name}: section at English line {e[0]}, Chinese line {z[0]}"
        if e[2] != z[2]:
            for k, (a, b) in enumerate(zip(e[2], z[2])):
                if a != b:
                    fails.append(f"{where}: fenced block {k + 1} differs")
                    break
            else:
                fails.append(f"{where}: {len(e[2])} fenced blocks in English, {len(z[2])} in "
                             "Chinese")
        en_items, zh_items = prose_items(e[3]), prose_items(z[3])
        zdir = os.path.dirname(zh_path)
        for t in IMAGE.findall(prose_text(z[3])) + LINK.findall(prose_text(z[3])):
            t = t.split("#")[0]
            if t and not re.match(r"[a-z]+:", t) and not os.path.exists(os.path.join(zdir, t)):
                fails.append(f"{where}: '{t}' does not exist, seen from handouts/zh/")
        zh_links = [english_target(t) for t in zh_items[3]]
        zh_figures = [f[3:] if f.startswith("zh-") else f for f in zh_items[2]]
        for label, a, b in (("numbers", en_items[0], zh_items[0]),
                            ("inline code spans", en_items[1], zh_items[1]),
                            ("figures", en_items[2], zh_figures),
                            ("linked files", sorted(en_items[3]), sorted(zh_links))):
            if a != b:
                only_en = [x for x in a if a.count(x) > b.count(x)]
                only_zh = [x for x in b if b.count(x) > a.count(x)]
                fails.append(f"{where}: the {label} differ: only in English "
                             f"{sorted(set(only_en))}, only in Chinese {sorted(set(only_zh))}")
    return fails


def main():
    src = sys.argv[1]
    hd = os.path.join(src, "handouts")
    zd = os.path.join(hd, "zh")
    write = "--anchors" in sys.argv
    args = [a for a in sys.argv[2:] if a != "--anchors"]
    names = args or sorted(f for f in os.listdir(hd) if f.endswith(".md"))
    fails = []
    for name in names:
        zh = os.path.join(zd, name)
        if not os.path.exists(zh):
            fails.append(f"{name}: no Chinese twin handouts/zh/{name}")
            continue
        if write:
            anchor_problems(os.path.join(hd, name), zh, name, True)
        fails += compare(os.path.join(hd, name), zh, name)
        fails += anchor_problems(os.path.join(hd, name), zh, name, False)
    if not args and os.path.isdir(zd):
        for name in sorted(os.listdir(zd)):
            if name.endswith(".md") and name != "glossary.md" and \
                    not os.path.exists(os.path.join(hd, name)):
                fails.append(f"zh/{name}: no English twin handouts/{name}")
    for f in fails:
        print("FAIL:", f)
    print(f"{len(names)} handouts compared with their Chinese twins")
    return verdict(not fails)


if __name__ == "__main__":
    sys.exit(main())
