"""`mypy --strict` accepts every documented use: the examples of docs/python.md (the
`>>>` and `...` lines of its Python blocks, one session in order) type-check against the
package's stubs."""

import re
import subprocess
import sys

import pytest

from conftest import ROOT


def examples():
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith((">>> ", "... ")):
                lines.append(line[4:])
            elif line in (">>>", "..."):
                lines.append("")
    return "\n".join(lines) + "\n"


def test_the_docs_examples_pass_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    code = examples()
    # The extraction found the session: the calls the docs show are all there.
    for call in ["rr.read(", "rr.write(", "rr.dataset(", "rr.to_numpy(", "rr.games(", "rr.validate(", "pickle.loads("]:
        assert call in code, call
    path = tmp_path / "docs_examples.py"
    path.write_text(code, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_sees_the_overloads(tmp_path):
    """The stubs' overloads say what each documented form returns: a misuse is an error."""
    pytest.importorskip("mypy")
    path = tmp_path / "misuse.py"
    path.write_text(
        "import reversi_record as rr\n"
        "d = rr.dataset('x.wtb', chunk=10)\n"
        "d['moves']\n"  # a Dataset is an iterator of dicts, not a dict
        "b: bytes = rr.write([], 'out.rgn')\n"  # with a path, the dropped parts: list[str]
        "rr.validate('x.rgn', stream=True)['summary']\n",  # a Validation is an iterator
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 1
    assert run.stdout.count("error:") == 3, run.stdout
    assert "misuse.py:3" in run.stdout and "misuse.py:4" in run.stdout, run.stdout
