"""Every Python block of the README and of the guide's pages (``docs/*.md``) runs as written:
each as a script of its own (``python FILE``, in a fresh directory holding the bundled
``datasets/``), which must exit 0, unless the line before it marks it
``<!-- not run in tests: reason -->``. The README's quick start prints a proven optimum and
writes its tree file. (The command blocks run in ``tests/it/readme.rs``.)"""

import pathlib
import re
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- not run in tests:"


def python_blocks(page):
    """The Python blocks of ``page``: (line of the fence, code), those marked not run left out."""
    lines = page.read_text().split("\n")
    found = []
    for match in re.finditer(r"^```python\n(.*?)^```", page.read_text(), re.S | re.M):
        line = page.read_text()[: match.start()].count("\n")
        if line > 0 and lines[line - 1].strip().startswith(NOT_RUN):
            continue
        found.append((line + 1, match.group(1)))
    return found


BLOCKS = [(page, line, code) for page in PAGES for line, code in python_blocks(page)]


def run_block(code, directory):
    script = directory / "block.py"
    script.write_text(code)
    (directory / "datasets").symlink_to(ROOT / "datasets")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(script)], cwd=directory, capture_output=True,
                          text=True, timeout=300)
    return done, time.perf_counter() - started


def test_the_guide_has_python_blocks():
    pages = {page.name for page, _, _ in BLOCKS}
    assert {"README.md", "python.md", "distributed.md"} <= pages, pages


@pytest.mark.parametrize(
    "page, line, code", BLOCKS, ids=[f"{page.name}:{line}" for page, line, _ in BLOCKS]
)
def test_a_python_block_runs(page, line, code, tmp_path):
    done, seconds = run_block(code, tmp_path)
    print(f"\n{page.name} line {line}: {seconds:.1f} s")
    assert done.returncode == 0, f"{page.name} line {line}:\n{done.stderr}"
    if page.name == "README.md":
        assert done.stdout.startswith("True "), done.stdout
        assert (tmp_path / "iris-tree.json").exists()
