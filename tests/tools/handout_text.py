"""What the checks of tests/tools/ share: the handouts, their quoted blocks and their prose, and
the one-line verdict every test of the project ends with."""
import glob
import os


def handouts(src):
    """Every handout's path, in order."""
    return sorted(glob.glob(os.path.join(src, "handouts", "*.md")))


def blocks_and_prose(path):
    """([(first line number, [lines])] of the fenced blocks, [(line number, line)] of the rest)."""
    blocks, prose, block = [], [], None
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            if block is None:
                block = (n + 1, [])
            else:
                blocks.append(block)
                block = None
        elif block is not None:
            block[1].append(line)
        else:
            prose.append((n, line))
    return blocks, prose


def verdict(ok):
    """Prints the test's last line and gives its exit status."""
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1
