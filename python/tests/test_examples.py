"""The Python examples and docs run: pour_post.py (small), the notebook as a script, the
3-disk example, and every Python block of docs/python.md in order."""
import json
import os
import re
import subprocess
import sys



def run_script(path, cwd, env=None):
    e = dict(os.environ, **(env or {}))
    r = subprocess.run([sys.executable, path], cwd=cwd, capture_output=True, text=True, env=e)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_pour_post(root, tmp_path):
    out = run_script(os.path.join(root, "examples", "python", "pour_post.py"), tmp_path,
                     {"POUR_SIZE": "small"})
    assert "settled: ratio" in out and "coordination" in out
    for f in ("settling.png", "rose.png", "fabric.txt", "settling.csv", "pour.sav"):
        assert os.path.getsize(tmp_path / "pour_post_out" / f) > 0, f
    z = float(re.search(r"coordination ([0-9.]+)", out).group(1))
    assert 3.0 < z < 6.0  # a settled frictional packing of spheres
    bad = subprocess.run([sys.executable, os.path.join(root, "examples", "python",
                                                        "pour_post.py")],
                         cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ, POUR_SIZE="huge"))
    assert bad.returncode != 0 and "POUR_SIZE must be" in bad.stderr


def notebook_code(path):
    nb = json.load(open(path))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs", []) == [] and cell.get("execution_count") is None, \
                "store the notebook without outputs"
            yield "".join(cell["source"])


def test_notebook_runs_as_a_script(root, tmp_path):
    path = os.path.join(root, "examples", "python", "walkthrough_2d.ipynb")
    script = tmp_path / "notebook.py"
    script.write_text("import matplotlib\nmatplotlib.use('Agg')\n" +
                      "\n\n".join(notebook_code(path)) + "\n")
    run_script(str(script), tmp_path)
    assert os.path.getsize(tmp_path / "walkthrough_2d.png") > 0


def doc_blocks(path):
    """The ```python blocks of a Markdown file, with the output lines they promise
    ('#--> text' under a print)."""
    text = open(path).read()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_docs_python_blocks(root, tmp_path):
    """Every Python block of docs/python.md runs, in order, in one process (as a reader
    would type them), and what a block says it prints ('# --> ...') is printed."""
    blocks = doc_blocks(os.path.join(root, "docs", "python.md"))
    assert len(blocks) >= 5
    for k, b in enumerate(blocks):
        if b.startswith("# doctest: skip"):
            continue
        script = tmp_path / f"block{k}.py"
        script.write_text("import matplotlib\nmatplotlib.use('Agg')\n" + b)
        out = run_script(str(script), tmp_path)
        for want in re.findall(r"# --> (.*)", b):
            assert want.strip() in out, f"docs/python.md block {k + 1}: '{want}' not in:\n{out}"
