"""The README's Python example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_example_runs(tmp_path, monkeypatch, capsys):
    text = README.read_text()
    section = text.split("## Python quick start", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("True ")
    assert (tmp_path / "iris-tree.json").exists()
