#!/usr/bin/env python3
"""The floors of src/ and the rule that calls go down only (docs/architecture.md).

Every `#include "folder/file.h"` in src/ must name a header of the including file's own folder or
of a folder on a lower floor; `include/cairn/` (the public headers) may be included from
anywhere. A folder not in FLOORS is an error too, so that a new folder is placed on purpose.
Folders on one floor are siblings and do not include each other.

Usage: floors.py [REPO]      prints one line per upward or sideways include, exits 1 if any;
       floors.py --table     prints the floors (docs/architecture.md shows the same table).
"""
import os
import re
import sys

# Bottom first. Keep docs/architecture.md's table the same (the docs test checks it).
FLOORS = [
    ["core"],  # status, diagnostics, allocator, id maps, exact sums, MPI collectives
    ["world"],  # balls, walls, groups, time, periodic cell, loads: data and its own rules
    ["contact"],  # registry and pools, CMAT, contact store, energy books, events, cracks
    ["detect", "models", "measure"],  # broad phase and pairs; pure laws; sums over contacts
    ["par"],  # MPI domain decomposition
    ["cycle"],  # the step as passes, solve, histories
    ["model"],  # the assembler: creating and destroying a whole model
    ["io"],  # files: save/restore, VTK, CSV, plots
    ["view"],  # the live view: its HTTP server, snapshots and page
    ["lua"],  # the script API
    ["cli"],  # the command
]
FLOOR = {f: i for i, names in enumerate(FLOORS) for f in names}
# Folders held to less than their floor allows: a model sees only the public ABI and its laws,
# which keeps the built-in models honest about using nothing a plugin could not.
ONLY = {"models": {"models"}}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)


def check(repo):
    src = os.path.join(repo, "src")
    bad = []
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in FLOOR:
            bad.append(f"src/{folder}/: a folder on no floor; add it to FLOORS in "
                       "tests/structure/floors.py and to docs/architecture.md")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            text = open(os.path.join(path, name), encoding="utf-8").read()
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                if target == folder or target == "cairn":
                    continue
                line = text.count("\n", 0, m.start()) + 1
                if folder in ONLY and target not in ONLY[folder]:
                    bad.append(f"src/{folder}/{name}:{line}: includes from '{target}/'; src/{folder}/ "
                               f"may include only include/cairn/ and "
                               f"{', '.join(sorted(ONLY[folder]))}/")
                elif target not in FLOOR:
                    bad.append(f"src/{folder}/{name}:{line}: includes from '{target}/', which is "
                               "on no floor")
                elif FLOOR[target] >= FLOOR[folder]:
                    how = "a sibling on its floor" if FLOOR[target] == FLOOR[folder] else "a higher floor"
                    bad.append(f"src/{folder}/{name}:{line}: includes '{target}/' from {how} "
                               f"({folder} is floor {FLOOR[folder]}, {target} floor "
                               f"{FLOOR[target]}); call down only: move the code or pass the data in")
    # The contributors' picture must show the same floors.
    doc = os.path.join(repo, "docs", "architecture.md")
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*([a-z ]+?)\s*\|", open(doc, encoding="utf-8").read(), re.M)
    if [(int(i), f.split()) for i, f in rows] != list(enumerate(FLOORS)):
        bad.append("docs/architecture.md: its table of floors differs from FLOORS in "
                   "tests/structure/floors.py; make them the same")
    return bad


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        for i, names in enumerate(FLOORS):
            print(i, " ".join(names))
        return 0
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    bad = check(repo)
    for b in bad:
        print(b)
    print("the floors hold: no upward or sideways include" if not bad else f"{len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
