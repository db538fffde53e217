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


def notable(game):
    """Whether a game of a convert report has something to say (what Python's `convert`
    lists under `reported`): a finding, a refusal, something dropped, a result derived."""
    return bool(
        game["diagnostics"]
        or game["outcome"] != "written"
        or game["result_derived"]
        or game["dropped"]
    )


@pytest.mark.parametrize("folder", [f for f in FOLDERS if inputs(f)], ids=lambda f: str(f.relative_to(FIXTURES)))
def test_convert_writes_and_reports_alike_from_every_front_end(folder, tmp_path):
    """`reversi convert --format json` and Python's `convert` are one run of the library:
    the same summary, the same report of every game with something to say, the same bytes
    written, on every fixture of every format. The desk's download readies each game as
    the run does (passes written out, results settled): the same bytes, the same count."""
    compared = 0
    desk = Desk(folder)
    try:
        compared = convert_alike(folder, tmp_path, desk)
    finally:
        desk.close()
    assert compared > 0, f"{folder}: no game was compared"


def convert_alike(folder, tmp_path, desk):
    """The comparison above, file by file: the games compared."""
    compared = 0
    for name in inputs(folder):
        source = str(folder / name)
        out_cli, out_py = tmp_path / f"cli-{name}.rgn", tmp_path / f"py-{name}.rgn"
        cli = subprocess.run(
            [reversi_cli(ROOT), "convert", "--format", "json", "--to", "rgn", "-o", str(out_cli), source],
            capture_output=True,
            text=True,
        )
        assert cli.returncode in (0, 1), (name, cli.stderr)
        report = json.loads(cli.stderr)
        from_cli = [e["game"] for e in report["events"] if "game" in e]
        python = rr.convert([source], out_py, format="rgn")
        summary = {k: v for k, v in python.items() if k not in ("refusals", "reported")}
        # The two outputs' names differ by their prefix only.
        for one in (summary, report["summary"]):
            for output in one["outputs"]:
                output["file"] = os.path.basename(output["file"]).split("-", 1)[1]
            one["abandoned"] = [
                a.replace(str(out_cli), "OUT").replace(str(out_py), "OUT") for a in one["abandoned"]
            ]
        assert summary == report["summary"], name
        assert python["reported"] == [g for g in from_cli if notable(g)], name
        refused = [(g["file"], g["index"]) for g in from_cli if g["outcome"] == "refused"]
        assert [(r["file"], r["game"]) for r in python["refusals"]] == refused, name
        assert out_cli.exists() == out_py.exists(), name
        if out_cli.exists():
            assert out_cli.read_bytes() == out_py.read_bytes(), name
            opened, loaded = desk.call("/api/open", {"root": 0, "path": name})
            assert opened == 200, (name, loaded)
            status, exported = desk.call(f"/api/files/{loaded['id']}/export", {"format": "rgn"})
            assert status == 200, (name, exported)
            assert exported["written"] == report["summary"]["written"], name
            download = urllib.request.Request(
                desk.url + f"api/files/{loaded['id']}/download?format=rgn",
                headers={"X-Desk-Token": desk.token},
            )
            with urllib.request.urlopen(download, timeout=60) as answer:
                assert answer.read() == out_cli.read_bytes(), name
        compared += report["summary"]["games"]
    return compared


REPAIRS = FIXTURES / "repair"


def test_repair_reports_alike_from_every_front_end(tmp_path):
    """One game's repair as `reversi repair --format json` reports it, as Python's `repair`
    gives it and as the desk's repair search answers: the library's one shape
    (`RepairReport`), object for object, on every repair fixture (transcript grids too).
    The command line adds the writer's `note`, Python the repaired `Game`, the desk the
    text it shows and the candidates to accept."""
    names = inputs(REPAIRS)
    desk = Desk(REPAIRS)
    compared = 0
    try:
        for name in names:
            source = str(REPAIRS / name)
            cli = subprocess.run(
                [reversi_cli(ROOT), "repair", "--format", "json", "-o", str(tmp_path / name), source],
                capture_output=True,
                text=True,
            )
            assert cli.returncode in (0, 1), (name, cli.stderr)
            from_cli = json.loads(cli.stdout)["games"]
            for game in from_cli:
                game.pop("note")
            from_python = []
            for game in rr.read(source):
                found = rr.repair(game)
                assert found.pop("repaired") is not None, (name, game.index)
                from_python.append(found)
            assert from_python == from_cli, name
            opened, loaded = desk.call("/api/open", {"root": 0, "path": name})
            assert opened == 200, (name, loaded)
            from_desk = []
            for n in range(1, loaded["games"] + 1):
                status, found = desk.call(f"/api/files/{loaded['id']}/games/{n}/repair", {})
                assert status == 200, (name, n, found)
                found.pop("candidates")
                found.pop("report")
                from_desk.append(found)
            # The desk names a file by its path in the folder it serves.
            for game in from_desk + from_cli:
                game["file"] = os.path.basename(game["file"])
                for d in game["diagnostics"] + [game["finding"]] * bool(game["finding"]):
                    d["file"] = os.path.basename(d["file"])
            assert from_desk == from_cli, name
            compared += len(from_cli)
    finally:
        desk.close()
    assert compared >= len(names), "every repair fixture was compared"
    assert {g for g in names if g.endswith(".txt")}, "transcript grids are among them"


def test_the_repair_run_reports_alike_from_the_command_line_and_python(tmp_path):
    """`reversi repair --format json` and Python's `repair_files` are one run of the
    library: the same document (every game's repair with the writer's note, the summary)
    and the same bytes written, on every repair fixture, plain and with `fix_result`."""
    compared = 0
    for name in inputs(REPAIRS):
        source = str(REPAIRS / name)
        for fix in (False, True):
            out_cli, out_py = tmp_path / f"cli-{fix}-{name}", tmp_path / f"py-{fix}-{name}"
            cli = subprocess.run(
                [reversi_cli(ROOT), "repair", "--format", "json", "-o", str(out_cli), source]
                + ["--fix-result"] * fix,
                capture_output=True,
                text=True,
            )
            assert cli.returncode in (0, 1), (name, cli.stderr)
            python = rr.repair_files([source], out_py, fix_result=fix)
            assert python == json.loads(cli.stdout), (name, fix)
            assert out_cli.read_bytes() == out_py.read_bytes(), (name, fix)
            compared += python["summary"]["games"]
    assert compared >= 2 * len(inputs(REPAIRS))
