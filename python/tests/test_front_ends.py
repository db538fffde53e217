"""One report, three front ends: every game's diagnostics as the command line
(`reversi validate --format json`), the Python package (`validate`) and the desk
(`reversi serve`, one game at a time) give them, on every fixture of every format, compared
object for object. Each is the library's one shape of a diagnostic (spec/validate.md); the
desk adds only the text it shows (`text`)."""

import json
import os
import re
import subprocess
import urllib.request
from collections import defaultdict

import pytest

import reversi_record as rr
from conftest import FIXTURES, FORMAT_DIRS, ROOT, reversi_cli

FOLDERS = [FIXTURES / d / kind for d in FORMAT_DIRS for kind in ("valid", "invalid")]
FOLDERS = [f for f in FOLDERS if f.is_dir()] + [FIXTURES / "cli"]


def inputs(folder):
    """The record files of `folder` (expected outputs and notes left out), by name."""
    return sorted(
        p.name
        for p in folder.iterdir()
        if p.is_file()
        and p.suffix not in (".md", ".snap", ".out", ".expected")
        and not (folder.parent.name == "pgn" and p.suffix == ".json")
        and p.name.upper() not in ("WTHOR.JOU", "WTHOR.TRN")
    )


class Desk:
    """`reversi serve` on one folder, spoken to as the page speaks to it."""

    def __init__(self, folder):
        self.child = subprocess.Popen(
            [reversi_cli(ROOT), "serve", "--port", "0", str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self.child.stdout.readline()
        match = re.match(r"listening on (http://127\.0\.0\.1:\d+/)", line)
        assert match, f"the desk's first line gives its address: {line!r}"
        self.url = match.group(1)
        page = urllib.request.urlopen(self.url, timeout=30).read().decode()
        self.token = re.search(r'name="desk-token" content="([0-9a-f]{32})"', page).group(1)

    def call(self, path, body=None):
        request = urllib.request.Request(
            self.url + path.lstrip("/"),
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-Desk-Token": self.token, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")

    def close(self):
        self.child.kill()
        self.child.wait()


def by_game(diagnostics):
    """Diagnostics grouped by their game's number (across-games findings left out: the desk
    shows one game at a time)."""
    out = defaultdict(list)
    for d in diagnostics:
        if "code" in d and d.get("game") is not None:
            out[d["game"]].append(d)
    return dict(out)


@pytest.mark.parametrize("folder", [f for f in FOLDERS if inputs(f)], ids=lambda f: str(f.relative_to(FIXTURES)))
def test_every_front_end_gives_the_same_diagnostics(folder):
    names = inputs(folder)
    desk = Desk(folder)
    compared = 0
    try:
        for name in names:
            cli = subprocess.run(
                [reversi_cli(ROOT), "validate", "--format", "json", str(folder / name)],
                capture_output=True,
                text=True,
            )
            # Every fixture here is readable (the unreadable are below): 0 or 1, never 2.
            assert cli.returncode in (0, 1), (name, cli.stderr)
            report = json.loads(cli.stdout)
            opened, loaded = desk.call("/api/open", {"root": 0, "path": name})
            from_cli = by_game(report["diagnostics"])
            from_python = by_game(rr.validate(str(folder / name))["diagnostics"])
            assert from_python == from_cli, name
            assert opened == 200, (name, loaded)
            from_desk = {}
            for n in range(1, loaded["games"] + 1):
                status, game = desk.call(f"/api/files/{loaded['id']}/games/{n}")
                assert status == 200, (name, n, game)
                shown = []
                for d in game["diagnostics"]:
                    assert d.pop("text").strip(), (name, n, d)
                    shown.append(d)
                if shown:
                    from_desk[n] = shown
            assert from_desk == from_cli, name
            compared += loaded["games"]
    finally:
        desk.close()
    assert compared > 0, f"{folder}: no game was compared"


def test_an_input_no_front_end_can_read_is_refused_by_each(tmp_path):
    """Bytes no format reads: the command line exits 2 naming the file, Python raises its
    `FormatError`, the desk refuses to open it; none reports games."""
    junk = tmp_path / "junk.dat"
    junk.write_bytes(bytes(range(256)) * 4)
    cli = subprocess.run(
        [reversi_cli(ROOT), "validate", "--format", "json", str(junk)],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 2, cli.stderr
    assert "junk.dat" in cli.stderr and json.loads(cli.stdout)["summary"]["games"] == 0
    with pytest.raises(rr.FormatError):
        rr.validate(str(junk))
    desk = Desk(tmp_path)
    try:
        opened, answer = desk.call("/api/open", {"root": 0, "path": "junk.dat"})
    finally:
        desk.close()
    assert 400 <= opened < 500, (opened, answer)


def test_the_comparison_covers_every_format():
    """Every format's valid and invalid fixtures are compared (a folder left out by mistake
    would make the comparison above prove less)."""
    compared = {f.parent.name for f in FOLDERS if inputs(f)}
    assert compared >= set(FORMAT_DIRS) - {"pgn"}, compared
