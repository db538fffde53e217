"""Paths of the repository's fixtures and of the shared real data (tests on it skip when
it is missing)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared" / "data"
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


def shared(*parts):
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return path
