#!/usr/bin/env python3
"""Chinese renderings of the handouts' figures, with the .dot files as their only source.

The figures are Graphviz sources, handouts/figures/NAME.dot (rendered to NAME.svg). Their words
are taken out into a gettext template, translated in po/figures-LANG.po, and put back into a
copy of each source, which dot renders to handouts/figures/zh/NAME.svg. Nothing but the words
changes: the same nodes, cells, ports, colours and sizes.

    tools/zh_figures.py pot             writes po/figures.pot from every handouts/figures/*.dot
    tools/zh_figures.py render [LANG]   renders handouts/figures/zh/NAME.svg (LANG: zh_CN) from
                                        po/figures-LANG.po (needs msgfmt, dot and a CJK font,
                                        e.g. Debian's fonts-noto-cjk)
    tools/zh_figures.py check [LANG]    every text of the figures is translated (not fuzzy), each
                                        translation keeps the numbers and HTML entities of its
                                        text and is valid where it goes, and every
                                        figures/zh/NAME.svg that a handout of handouts/zh/ shows
                                        exists; needs msgfmt, not dot (exit 77 without msgfmt)

After a figure's words change: tools/zh_figures.py pot, then
    msgmerge --update --backup=none po/figures-zh_CN.po po/figures.pot
translate the new and fuzzy entries, tools/zh_figures.py render, and commit the SVGs.

What counts as text: the value of a displayed attribute (label, xlabel, headlabel, taillabel and
the tooltips), whole for a quoted string ("...", escapes such as \\n kept as written) and, for an
HTML-like label (<...>), each run of text between two tags. Runs with no two ASCII letters in a
row (numbers, "f+0", "32 B", "x[i0 + 31]") are left alone, and so are the comments. Nothing is
decoded: an entity such as &#8211; is in the msgid as it is in the source, and a msgstr goes
into the source exactly as written.
"""
import datetime
import gettext
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = os.path.join(ROOT, "handouts", "figures")
PO_DIR = os.path.join(ROOT, "po")
POT = os.path.join(PO_DIR, "figures.pot")
ZH_HANDOUTS = os.path.join(ROOT, "handouts", "zh")

# Attributes whose value Graphviz shows (tooltips: on hover, in the SVG).
TEXT_ATTRS = {"label", "xlabel", "headlabel", "taillabel",
              "tooltip", "labeltooltip", "headtooltip", "tailtooltip", "edgetooltip"}
# The fonts of the translated copy: the source's own first, then one with Chinese glyphs, so that
# dot measures the Chinese text with the font that draws it.
CJK_FONT = "Noto Sans CJK SC"
# Tags that end a piece of running text in an HTML-like label (a cell, a row, a table).
BLOCK_TAGS = {"table", "tr", "td", "img", "hr", "vr"}

SKIP = re.compile(r"^[A-Za-z]?[0-9 .,+*/=()\-\u2013]*$")
LETTER_PAIR = re.compile(r"[A-Za-z]{2}")
ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
NUMBER = re.compile(r"[0-9]+")
FULL_WIDTH = "\uff0c\u3002\uff1a\uff1b\u3001\uff01\uff1f\uff08\uff09\u300a\u300b\u300c\u300d"  # ，。：；、！？（）《》「」


# ---- the sources ---------------------------------------------------------------------------
class Text:
    """One text of a figure: source[start:end], and (HTML) the piece of running text it is in."""

    def __init__(self, start, end, text, context):
        self.start, self.end, self.text, self.context = start, end, text, context
        self.html = context is not None


def is_words(text):
    """Whether a run is language to translate (not a number, a single letter or an index)."""
    bare = ENTITY.sub(" ", text)
    return not SKIP.match(bare.strip()) and LETTER_PAIR.search(bare) is not None


def html_runs(src, start, end):
    """The runs of text of the HTML-like label src[start:end], as (start, end, context)."""
    pieces, i, piece = [], start, []    # piece: [(kind, start, end)] of one stretch of text
    while i < end:
        if src.startswith("<!--", i):
            i = src.find("-->", i, end) + 3 if src.find("-->", i, end) >= 0 else end
            continue
        if src[i] == "<":
            j, quote = i + 1, None
            while j < end and (quote or src[j] != ">"):
                if src[j] in "\"'":
                    quote = None if quote == src[j] else (quote or src[j])
                j += 1
            name = re.match(r"</?\s*([A-Za-z]*)", src[i:j + 1]).group(1).lower()
            if name in BLOCK_TAGS:
                pieces.append(piece)
                piece = []
            else:
                piece.append(("tag", i, j + 1))
            i = j + 1
        else:
            j = src.find("<", i, end)
            j = end if j < 0 else j
            piece.append(("text", i, j))
            i = j
    pieces.append(piece)
    runs = []
    for piece in pieces:
        texts = []
        for kind, a, b in piece:
            if kind != "text":
                continue
            # Layout whitespace (a line break and the next line's indent) is not text.
            lead = re.match(r"\s*", src[a:b]).end()
            if "\n" in src[a:a + lead]:
                a += lead
            trail = len(src[a:b]) - len(src[a:b].rstrip())
            if "\n" in src[b - trail:b]:
                b -= trail
            if a < b and is_words(src[a:b]):
                texts.append((a, b))
        if texts:
            lo, hi = piece[0][1], piece[-1][2]
            context = re.sub(r"\s*\n\s*", " ", src[lo:hi]).strip()
            runs += [(a, b, context) for a, b in texts]
    return runs


def scan(src):
    """(texts, fonts, brace) of a Graphviz source: its Text objects, the (start, end) of the
    value of every fontname attribute and FONT FACE (a quoted value: inside the quotes), and
    where the first { is (the root graph's body)."""
    texts, fonts, brace = [], [], None
    i, n = 0, len(src)
    prev, attr = None, None        # the previous token's text; the attribute an '=' names
    line_start = True
    while i < n:
        c = src[i]
        if src.startswith("//", i) or (c == "#" and line_start):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        line_start = False
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            if attr in TEXT_ATTRS and is_words(src[i + 1:j]):
                texts.append(Text(i + 1, j, src[i + 1:j], None))
            elif attr == "fontname":
                fonts.append((i + 1, j))
            prev, attr, i = src[i + 1:j], None, j + 1
        elif c == "<":
            j, depth = i, 0
            while j < n:
                depth += {"<": 1, ">": -1}.get(src[j], 0)
                if depth == 0:
                    break
                j += 1
            if attr in TEXT_ATTRS:
                for a, b, context in html_runs(src, i + 1, j):
                    texts.append(Text(a, b, src[a:b], context))
                for m in re.finditer(r'(?i)<\s*font\b[^>]*?\bface\s*=\s*"([^"]*)"', src[i:j]):
                    fonts.append((i + m.start(1), i + m.end(1)))
            prev, attr, i = None, None, j + 1
        elif c == "=":
            attr = prev.lower() if prev else None
            i += 1
        elif c == "{":
            brace = i if brace is None else brace
            prev, attr, i = None, None, i + 1
        elif re.match(r"[A-Za-z0-9_.\-\x80-\uffff]", c):
            m = re.compile(r"[A-Za-z0-9_.\-\x80-\uffff]+").match(src, i)
            word = m.group(0)
            if attr == "fontname":
                fonts.append((i, m.end()))
            prev, attr, i = word, None, m.end()
        else:
            prev, attr, i = None, None, i + 1
    return texts, fonts, brace


def figures():
    """The figure sources, as (NAME, path relative to the root, source text), by name."""
    out = []
    for name in sorted(os.listdir(FIGURES)):
        if name.endswith(".dot"):
            path = os.path.join(FIGURES, name)
            with open(path, encoding="utf-8") as f:
                out.append((name[:-4], os.path.relpath(path, ROOT), f.read()))
    return out


def messages():
    """{msgid: (references, contexts)} of every figure, in order of first appearance."""
    found = {}
    for _name, rel, src in figures():
        for t in scan(src)[0]:
            refs, contexts = found.setdefault(t.text, ([], []))
            if rel not in refs:
                refs.append(rel)
            if t.html and t.context != t.text and t.context not in contexts:
                contexts.append(t.context)
    return found


_SUBSTITUTES = {}


def substitute(family):
    """The family fontconfig draws family with on this machine (fc-match), or None."""
    if family not in _SUBSTITUTES:
        r = subprocess.run(["fc-match", "-f", "%{family[0]}", family], capture_output=True,
                           text=True) if shutil.which("fc-match") else None
        _SUBSTITUTES[family] = r.stdout.strip() if r is not None and r.returncode == 0 else None
    return _SUBSTITUTES[family]


def font_list(value):
    """A fontname value with Chinese glyphs: the source's families, then the font that stands
    in for them here (so that Latin text keeps the English figure's widths: a CJK font's own
    Latin letters are narrower), then the CJK font, then a generic family."""
    families = [f.strip() for f in value.split(",") if f.strip()]
    generic = [f for f in families if f.lower() in ("sans-serif", "serif", "monospace")]
    named = [f for f in families if f not in generic]
    out = list(named)
    for f in named:
        sub = substitute(f)
        if sub and sub not in out and "CJK" not in sub:
            out.append(sub)
    if CJK_FONT not in out:
        out.append(CJK_FONT)
    return ",".join(out + (generic or ["sans-serif"]))


def translate(src, tr):
    """The source with every text replaced by tr(text) and every font given a CJK fallback:
    the fontname values it has, and graph, node and edge defaults put first in the graph."""
    texts, fonts, brace = scan(src)
    edits = [(t.start, t.end, tr(t.text)) for t in texts]
    for a, b in fonts:
        value = font_list(src[a:b])
        edits.append((a, b, value if src[a - 1:a] == '"' else '"%s"' % value))
    if brace is not None:
        fam = '"%s"' % font_list("Helvetica")
        edits.append((brace + 1, brace + 1, "\n    graph [fontname=%s]; node [fontname=%s]; "
                      "edge [fontname=%s];" % (fam, fam, fam)))
    for a, b, new in sorted(edits, reverse=True):
        src = src[:a] + new + src[b:]
    return src


# ---- the catalogue -------------------------------------------------------------------------
def po_string(s):
    """A PO string literal, split after each newline of s."""
    esc = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    parts = esc.split("\n")
    lines = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    if len(lines) <= 1:
        return '"%s"' % (lines[0] if lines else "")
    return '""\n' + "\n".join('"%s"' % line for line in lines)


def cmd_pot():
    found = messages()
    date = os.environ.get("SOURCE_DATE_EPOCH")
    stamp = datetime.datetime.fromtimestamp(int(date), datetime.timezone.utc) if date else \
        datetime.datetime.now(datetime.timezone.utc)
    out = [
        "# The words of the handouts' figures (handouts/figures/*.dot).",
        "# Written by tools/zh_figures.py pot: do not edit; translate po/figures-LANG.po.",
        "# A msgstr goes into the Graphviz source as written: in an HTML-like label, no < > or",
        "# bare &; in a quoted one, no bare \"; keep numbers, code and entities (&#8230;).",
        "#, fuzzy",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: coalescing-lab figures\\n"',
        '"Report-Msgid-Bugs-To: \\n"',
        '"POT-Creation-Date: %s\\n"' % stamp.strftime("%Y-%m-%d %H:%M+0000"),
        '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"',
        '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"',
        '"Language-Team: LANGUAGE <LL@li.org>\\n"',
        '"Language: \\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        "",
    ]
    for msgid, (refs, contexts) in found.items():
        for context in contexts[:3]:
            out.append("#. in: " + context)
        out.append("#: " + " ".join(refs))
        out.append("msgid " + po_string(msgid))
        out.append('msgstr ""')
        out.append("")
    os.makedirs(PO_DIR, exist_ok=True)
    with open(POT, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"{os.path.relpath(POT, ROOT)}: {len(found)} msgids from {len(figures())} figures")
    return 0


def need(tool):
    if shutil.which(tool) is None:
        print(f"{tool} not found (install gettext): skipped")
        sys.exit(77)


def compile_po(po, mo, *extra):
    """msgfmt --check po into mo; the error text, or None."""
    r = subprocess.run(["msgfmt", "--check", *extra, "-o", mo, po],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or "msgfmt failed")


def mo_keys(mo):
    """The msgids of a .mo file (its header's empty msgid left out)."""
    with open(mo, "rb") as f:
        data = f.read()
    order = "<" if struct.unpack("<I", data[:4])[0] == 0x950412de else ">"
    count, ids = struct.unpack(order + "II", data[8:16])
    keys = set()
    for k in range(count):
        length, offset = struct.unpack(order + "II", data[ids + 8 * k:ids + 8 * k + 8])
        key = data[offset:offset + length].decode("utf-8").split("\x00")[0]
        if key:
            keys.add(key.split("\x04")[-1])
    return keys


def catalogue_keys(tmp, po, tag, filter_cmd):
    """The msgids of the entries that filter_cmd (msgattrib ..., msgen) keeps of po."""
    out = os.path.join(tmp, tag + ".po")
    subprocess.run(filter_cmd + ["-o", out, po], check=True, capture_output=True)
    if not os.path.exists(out):        # nothing kept: no output file
        return set()
    mo = os.path.join(tmp, tag + ".mo")
    r = subprocess.run(["msgfmt", "--use-fuzzy", "-o", mo, out], capture_output=True, text=True)
    return mo_keys(mo) if r.returncode == 0 else set()


def po_path(lang):
    return os.path.join(PO_DIR, f"figures-{lang}.po")


def load(lang, tmp):
    """GNUTranslations of po/figures-LANG.po, compiled with msgfmt --check."""
    mo = os.path.join(tmp, "figures.mo")
    err = compile_po(po_path(lang), mo)
    if err:
        print(err)
        sys.exit(1)
    with open(mo, "rb") as f:
        return gettext.GNUTranslations(f)


def cmd_render(lang):
    need("msgfmt")
    if shutil.which("dot") is None:
        print("dot not found (install graphviz)")
        return 1
    fc = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True) \
        if shutil.which("fc-list") else None
    if fc is not None and CJK_FONT not in fc.stdout:
        print(f"warning: fontconfig has no {CJK_FONT} (Debian: apt-get install fonts-noto-cjk); "
              "dot will measure the Chinese text with another font")
    outdir = os.path.join(FIGURES, lang.split("_")[0])
    os.makedirs(outdir, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tr = load(lang, tmp)
        for name, rel, src in figures():
            dotfile = os.path.join(tmp, name + ".dot")
            with open(dotfile, "w", encoding="utf-8") as f:
                f.write(translate(src, tr.gettext))
            svg = os.path.join(outdir, name + ".svg")
            r = subprocess.run(["dot", "-Tsvg", dotfile, "-o", svg], capture_output=True, text=True)
            if r.returncode != 0 or r.stderr.strip():
                failed += 1
                print(f"{rel}: dot: {r.stderr.strip()}")
            else:
                print(os.path.relpath(svg, ROOT))
    return 1 if failed else 0


def problems_of(msgid, msgstr, html):
    """What is wrong with a translation for the place it goes: markup it would break, a number
    or an entity it lost or added (apostrophes and quotation marks excepted: their language's
    business), a leading or trailing space it dropped (full-width punctuation, which has its own
    space, may stand in for one)."""
    out = []
    if html:
        if re.search(r"[<>]", msgstr):
            out.append("has < or > (not allowed in a run of an HTML-like label)")
        if re.search(r"&(?!(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);)", msgstr):
            out.append("has a bare & (write &amp;)")
    elif re.search(r'(?<!\\)(\\\\)*"', msgstr):
        out.append('has a bare " (not allowed in a quoted label; write \\")')
    quotes = {"&#39;", "&#x27;", "&apos;", "&quot;", "&#34;", "&#8216;", "&#8217;", "&#8220;",
              "&#8221;", "&lsquo;", "&rsquo;", "&ldquo;", "&rdquo;"}
    entities = [sorted(e for e in (m.group(0) for m in ENTITY.finditer(t)) if e not in quotes)
                for t in (msgid, msgstr)]
    if entities[0] != entities[1]:
        out.append(f"the HTML entities differ: {entities[0]} in the msgid, {entities[1]} in "
                   "the msgstr")
    numbers = [sorted(NUMBER.findall(ENTITY.sub(" ", t))) for t in (msgid, msgstr)]
    if numbers[0] != numbers[1]:
        out.append(f"the numbers differ: {numbers[0]} in the msgid, {numbers[1]} in the msgstr")
    if msgid[:1] == " " and msgstr[:1] != " " and msgstr[:1] not in FULL_WIDTH:
        out.append("lost the msgid's leading space")
    if msgid[-1:] == " " and msgstr[-1:] != " " and msgstr[-1:] not in FULL_WIDTH:
        out.append("lost the msgid's trailing space")
    return out


def cmd_check(lang):
    need("msgfmt")
    need("msgattrib")
    need("msgen")
    po = po_path(lang)
    rel_po = os.path.relpath(po, ROOT)
    problems = []
    found = {}
    for name, rel, src in figures():
        for t in scan(src)[0]:
            rel0, html = found.get(t.text, (rel, False))
            found[t.text] = (rel0, html or t.html)
    translated, err = {}, None
    with tempfile.TemporaryDirectory() as tmp:
        if not os.path.exists(po):
            problems.append(f"{rel_po} is missing")
        else:
            mo = os.path.join(tmp, "all.mo")
            err = compile_po(po, mo)
            if err:
                problems.append(f"{rel_po}: msgfmt --check: {err}")
            else:
                with open(mo, "rb") as f:
                    translated = gettext.GNUTranslations(f)._catalog
                fuzzy = catalogue_keys(tmp, po, "fuzzy", ["msgattrib", "--only-fuzzy",
                                                          "--no-obsolete"])
                present = catalogue_keys(tmp, po, "present", ["msgen"])
        for msgid, (rel, html) in found.items():
            if msgid in translated:
                for p in problems_of(msgid, translated[msgid], html):
                    problems.append(f"{rel_po}: {msgid!r} ({rel}): {p}")
                continue
            if not os.path.exists(po) or err:
                continue
            if msgid in fuzzy:
                why = "fuzzy"
            elif msgid in present:
                why = "untranslated"
            else:
                why = "missing (run tools/zh_figures.py pot, then msgmerge)"
            problems.append(f"{rel_po}: {msgid!r} ({rel}): {why}")
    shown = set()
    outdir = lang.split("_")[0]
    for name in sorted(os.listdir(ZH_HANDOUTS)) if os.path.isdir(ZH_HANDOUTS) else []:
        if not name.endswith(".md"):
            continue
        with open(os.path.join(ZH_HANDOUTS, name), encoding="utf-8") as f:
            for svg in re.findall(r"figures/%s/([A-Za-z0-9_.\-]+\.svg)" % outdir, f.read()):
                shown.add(svg)
                path = os.path.join(FIGURES, outdir, svg)
                if not os.path.exists(path):
                    problems.append(f"handouts/zh/{name} shows handouts/figures/{outdir}/{svg}, "
                                    "which does not exist (tools/zh_figures.py render)")
    for p in problems:
        print("FAIL:", p)
    print(f"{len(found)} texts of {len(figures())} figures, {len(set(translated) & set(found))} translated in "
          f"{rel_po}; {len(shown)} Chinese figures shown by handouts/zh/")
    print("1 passed, 0 failed" if not problems else "0 passed, 1 failed")
    return 1 if problems else 0


def main(argv):
    if len(argv) < 2 or argv[1] not in ("pot", "render", "check") or len(argv) > 3:
        print(__doc__.split("\n\n")[1])
        return 2
    lang = argv[2] if len(argv) > 2 else "zh_CN"
    if argv[1] == "pot":
        return cmd_pot()
    if argv[1] == "render":
        return cmd_render(lang)
    return cmd_check(lang)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
