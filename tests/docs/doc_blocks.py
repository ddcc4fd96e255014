#!/usr/bin/env python3
"""Docs that cannot drift: runs every ```lua block of README.md and docs/ with cairn, checks the
output a block promises, and checks that the docs name every script function and every built-in
contact model.

Usage: doc_blocks.py CAIRN ROOT   (exit 0 when all pass; one line per failure otherwise)

A block runs as a script of its own in an empty folder. A block that does not call model.new gets
`model.new{dim = 2}` first. An HTML comment on the line just before a block changes that:
  <!-- doctest: prelude LUA -->   run LUA first (instead of the default model.new)
  <!-- doctest: skip REASON -->   do not run it (REASON says why, in the docs' source)
  <!-- doctest: setup -->         this block is run, and is then the prelude of the file's later
                                  blocks that do not call model.new
A plain ``` block (the output of a command) just after
  <!-- doctest: output cairn ARGS -->   must be what `cairn ARGS` prints, run in the repository's
                                        root: each of its lines, in order, word by word
Output: a line `print(...)  --> TEXT`, or a line `--> TEXT` of its own, promises a printed line that reads TEXT, after the line of
the block's previous promise; TEXT is compared word by word up to a parenthesis (a note such as
"(to round-off)"), and a word ending in "..." is a prefix.
"""
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"```lua\n(.*?)```", re.S)
MARK = re.compile(r"<!--\s*doctest:\s*(prelude|skip|setup)\s*(.*?)\s*-->\s*$")
OUTPUT = re.compile(r"<!--\s*doctest:\s*output\s+cairn\s+(.*?)\s*-->\n```\n(.*?)```", re.S)


def doc_files(root):
    out = [os.path.join(root, "README.md")]
    for base, _, names in os.walk(os.path.join(root, "docs")):
        out += [os.path.join(base, n) for n in sorted(names) if n.endswith(".md")]
    return out


def promised(code):
    """The outputs the block's `--> TEXT` comments promise, in order."""
    out = []
    for line in code.splitlines():
        m = re.match(r"\s*(?:print\(.*\)\s*)?-->\s*(.*?)\s*$", line)
        if m:
            text = m.group(1)
            out.append(text.split("(")[0].strip() if "(" in text else text)
    return out


def same_output(got, want):
    """Word by word (any white space between words); a word of the docs ending in '...' is a
    prefix of the printed one."""
    g, w = got.split(), want.split()
    if len(g) != len(w):
        return False
    return all(a.startswith(b[:-3]) if b.endswith("...") else a == b for a, b in zip(g, w))


def run_block(cairn, code, prelude):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "block.lua")
        with open(path, "w") as f:
            f.write(prelude + "\n" + code)
        r = subprocess.run([cairn, "run", path, "--quiet"], cwd=d, capture_output=True, text=True,
                           timeout=300)
    return r


def check_blocks(cairn, root, fails):
    n = 0
    for path in doc_files(root):
        text = open(path).read()
        rel = os.path.relpath(path, root)
        setup = "model.new{dim = 2}"
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            mark = MARK.match(before.strip())
            code = m.group(1)
            if mark and mark.group(1) == "skip":
                continue
            if mark and mark.group(1) == "prelude":
                prelude = mark.group(2)
            else:
                prelude = "" if "model.new" in code else setup
            if mark and mark.group(1) == "setup":
                setup = code
            n += 1
            r = run_block(cairn, code, prelude)
            where = "%s:%d" % (rel, line)
            if r.returncode != 0:
                err = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
                fails.append("%s: the block fails: %s" % (where, err))
                continue
            want = promised(code)
            # each promise matches a printed line, in order (other lines may come between:
            # prints in loops, or without a promise)
            got = [l.strip() for l in r.stdout.splitlines()]
            at = 0
            for w in want:
                while at < len(got) and not same_output(got[at], w):
                    at += 1
                if at == len(got):
                    fails.append("%s: no printed line reads '%s' (printed: %s)" % (
                        where, w, " | ".join(got) or "nothing"))
                    break
                at += 1
    return n


def in_order(got, want):
    """The first line of want that is not among got's lines in order, or None."""
    at = 0
    for w in want:
        while at < len(got) and not same_output(got[at], w):
            at += 1
        if at == len(got):
            return w
        at += 1
    return None


def check_outputs(cairn, root, fails):
    """Blocks marked as the output of a cairn command."""
    n = 0
    for path in doc_files(root):
        text = open(path).read()
        for m in OUTPUT.finditer(text):
            n += 1
            where = "%s:%d" % (os.path.relpath(path, root), text.count("\n", 0, m.start()) + 1)
            r = subprocess.run([cairn] + m.group(1).split(), cwd=root, capture_output=True,
                               text=True, timeout=300)
            got = [l.strip() for l in r.stdout.splitlines()]
            want = [l.strip() for l in m.group(2).splitlines() if l.strip()]
            missing = in_order(got, want)
            if r.returncode != 0 or missing is not None:
                fails.append("%s: 'cairn %s' did not print '%s' (exit %d; printed: %s)" % (
                    where, m.group(1), missing, r.returncode, " | ".join(got) or "nothing"))
    return n


def check_functions(cairn, root, fails):
    """Every function the script modules register is named in docs/scripting.md."""
    lister = ("for _, m in ipairs{'" + "','".join(modules(cairn)) + "'} do local t = _G[m] if type(t) == "
              "'table' then for k, v in pairs(t) do if type(v) == 'function' then "
              "print(m .. '.' .. k) end end end end")
    r = run_block(cairn, lister, "")
    doc = open(os.path.join(root, "docs", "scripting.md")).read()
    for name in sorted(set(r.stdout.split())):
        mod, fn = name.split(".", 1)
        method = mod == "measure" and re.search(r"`m:" + re.escape(fn) + r"\b", doc)
        if not method and not re.search(r"\b" + re.escape(name) + r"\b", doc):
            fails.append("docs/scripting.md: %s is not described" % name)


def check_models(cairn, root, fails):
    """`cairn models` and docs/contact-models.md list the same built-in models."""
    r = subprocess.run([cairn, "models"], capture_output=True, text=True)
    names = [l.split()[0] for l in r.stdout.splitlines()[1:] if "built-in:" in l]
    doc = open(os.path.join(root, "docs", "contact-models.md")).read()
    documented = set(re.findall(r"^## `([a-z0-9_]+)`", doc, re.M))
    for name in names:
        if name not in documented:
            fails.append("docs/contact-models.md: no section for the built-in model '%s'" % name)
    for name in sorted(documented - set(names)):
        fails.append("docs/contact-models.md: a section for '%s', which cairn does not have" % name)


def modules(cairn):
    """The script modules: the global tables a cairn script starts with, less Lua's own."""
    lua = {"_G", "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8"}
    r = run_block(cairn, "for k, v in pairs(_G) do if type(v) == 'table' then print(k) end end", "")
    return sorted(set(r.stdout.split()) - lua)


def check_modules_and_packages(cairn, root, fails):
    """The module table of docs/scripting.md lists every module; README.md and
    docs/getting-started.md name every Debian package the Makefile installs."""
    doc = open(os.path.join(root, "docs", "scripting.md")).read()
    table = doc.split("\n## ", 1)[0]
    for mod in modules(cairn):
        if "[`%s`]" % mod not in table:
            fails.append("docs/scripting.md: the module table lacks '%s'" % mod)
    make = open(os.path.join(root, "Makefile")).read()
    m = re.search(r"^DEB_PKGS\s*:=\s*((?:.*\\\n)*.*)$", make, re.M)
    pkgs = m.group(1).replace("\\", " ").split() if m else []
    for name in ("README.md", os.path.join("docs", "getting-started.md")):
        text = open(os.path.join(root, name)).read()
        for p in pkgs:
            if not re.search(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])", text):
                fails.append("%s: the Debian package '%s' (Makefile DEB_PKGS) is not named" % (name,
                                                                                             p))


def main():
    cairn, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    fails = []
    n = check_blocks(cairn, root, fails)
    n += check_outputs(cairn, root, fails)
    check_functions(cairn, root, fails)
    check_models(cairn, root, fails)
    check_modules_and_packages(cairn, root, fails)
    for f in fails:
        print(f)
    print("doc_blocks: %d blocks run, %d failures" % (n, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
