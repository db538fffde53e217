"""Paths of the repository's fixtures and of its real data (`data/`, where each file comes
from: `data/SOURCES.md`; part of the repository, so a missing file fails the test)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
DATA = ROOT / "data"
# Fixture folders whose `valid/` and `invalid/` hold inputs of one format.
FORMAT_DIRS = ["ggf", "json", "moves", "obf", "pgn", "rgn", "sgf", "transcript", "wthor"]


def fixture_files(kind):
    """Every input file under fixtures/<format>/<kind>/ (expected outputs left out)."""
    out = []
    for d in FORMAT_DIRS:
        folder = FIXTURES / d / kind
        if not folder.is_dir():
            continue
        for p in sorted(folder.iterdir()):
            if p.is_file() and not (d == "pgn" and p.suffix == ".json") and p.suffix not in (".md", ".snap"):
                out.append(p)
    return out


def data(*parts):
    """A file or folder of `data/`; a missing one fails the test."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"{path} is missing: the real data is part of the repository (data/SOURCES.md)")
    return path


def reversi_cli(root):
    """The command line's binary: `REVERSI_CLI` when it names one (python/test.sh builds it
    before the suite runs without Rust on the PATH), else built here with cargo."""
    import os
    import subprocess

    given = os.environ.get("REVERSI_CLI")
    if given:
        return given
    subprocess.run(
        ["cargo", "build", "--quiet", "--features", "cli", "--bin", "reversi"],
        cwd=root,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path(root) / "target"))
    return str(target / "debug" / "reversi")
