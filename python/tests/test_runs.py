import json
import subprocess
from pathlib import Path

import pytest

import reversi_record as rr
from conftest import DATA, FIXTURES, reversi_cli


def test_scenario_run_and_errors():
    t = rr.scenario.run("rules: othello:6x6\nmoves: b3")
    assert t["rules"] == "othello:6x6"
    assert t["moves"][0]["flips"] == ["c3"]
    assert "b3" in t["text"]
    with pytest.raises(rr.ScenarioError) as e:
        rr.scenario.run("rules: nonsense")
    assert e.value.code == "scenario-bad-rules" and e.value.line == 1


def test_standings_of_the_event_fixtures():
    rounds = sorted((FIXTURES / "event").glob("round[12].rgn"))
    s = rr.standings(rounds)
    (event,) = s["events"]
    assert event["squares"] == 64 and event["problems"] == []
    assert event["standings"]["players"][0]["name"] == "Greta Lindqvist"
    assert "Rank" in s["text"] and s["html"].startswith("<!")
    assert json.loads(s["json"]) == {k: s[k] for k in ("events", "notes", "problems")}


def test_standings_read_names_through_the_register_and_take_the_pairings(tmp_path):
    folder = FIXTURES / "register"
    rounds = sorted(folder.glob("round-*.rgn"))
    s = rr.standings(rounds, players=folder / "players.csv")
    names = [p["name"] for p in s["events"][0]["standings"]["players"]]
    assert names == ["Jean Dupont", "Lucía Fernández", "Anna Mueller", "Kees de Vries", "Anna Müller"]
    assert any("Anna Mueller is not in the player register" in n for n in s["notes"])
    pairings = tmp_path / "pairings.csv"
    pairings.write_text("round,board,black,white,result\n3,,Jean Dupont,bye,\n")
    s = rr.standings(rounds, players=folder / "players.csv", pairings=pairings)
    jean = s["events"][0]["standings"]["players"][0]
    assert (jean["name"], jean["points"], jean["byes"]) == ("Jean Dupont", 3.0, 1)


def test_standings_are_the_command_lines_byte_for_byte():
    """One report: `rr.standings(...)["json"]` is what `reversi standings --format json`
    writes for the same files."""
    rounds = [str(p) for p in sorted((FIXTURES / "event").glob("round[1-4].*"))]
    assert len(rounds) == 4
    root = Path(__file__).resolve().parents[2]
    reversi = reversi_cli(root)
    cli = subprocess.run(
        [reversi, "standings", "-q", "--format", "json", *rounds],
        capture_output=True,
        check=True,
    )
    assert rr.standings(rounds)["json"].encode() == cli.stdout


EVENING = """\
[Event "Open"]\n[Round "1"]\n[Black "Ann"]\n[White "Bob"]\n[Result "40-24"]\n
[Event "Open"]\n[Rules "othello:10x10"]\n[Round "1"]\n[Black "Bob"]\n[White "Ann"]\n[Result "55-45"]\n
"""


def test_standings_rank_each_event_and_board_and_choose_one_by_name(tmp_path):
    path = tmp_path / "evening.rgn"
    path.write_text(EVENING)
    s = rr.standings([path])
    assert [(e["event"], e["squares"]) for e in s["events"]] == [
        ("Open (othello)", 64),
        ("Open (othello:10x10)", 100),
    ]
    one = rr.standings([path], event="open (othello:10x10)")
    assert [e["standings"]["players"][0]["name"] for e in one["events"]] == ["Bob"]
    with pytest.raises(rr.UsageError):
        rr.standings([path], event="Blitz")
    with pytest.raises(rr.StandingsError) as e:
        rr.standings([path], withdrawn=["Eve"])
    assert e.value.problems == ["Eve is given as withdrawn but plays no game"]


def test_repair_finds_the_swap():
    game = next(iter(rr.read(FIXTURES / "repair" / "swap-adjacent.rgn")))
    assert not game.is_valid
    r = rr.repair(game)
    assert r["status"] == "repaired" and r["edits"][0]["kind"] == "swap"
    assert r["edits"][0]["text"].startswith("swapped moves")
    assert r["repaired"].is_valid and r["finding"]["code"] == "repaired"
    assert r["game"] == game.index and r["diagnostics"] == []
    valid = next(iter(rr.read(b"f5d6c3d3c4\n")))
    assert rr.repair(valid)["status"] == "valid"


def test_convert_writes_and_refuses(tmp_path):
    out = tmp_path / "out.rgn"
    t = rr.convert([FIXTURES / "cli" / "mixed.rgn"], out)
    assert t["games"] == 6 and t["written"] + t["refused"] + t["unreadable"] == 6
    assert len(list(rr.read(out))) == t["written"]
    t = rr.convert([FIXTURES / "cli" / "mixed.rgn"], tmp_path / "out.wtb")
    assert t["refused"] and all("wthor cannot hold" in r["message"] for r in t["refusals"])


def test_convert_reads_back_into_every_format_and_leaves_nothing_beside(tmp_path):
    # The real WTHOR games of 2004 through every text target: each output is read back
    # before it is put in place (a difference would raise), and the spools and staged
    # files are gone.
    source = DATA / "wthor" / "WTH_2004.wtb"
    for ext in ["rgn", "pgn", "ggf", "sgf", "json", "txt"]:
        out = tmp_path / f"out.{ext}"
        t = rr.convert([source], out, lossy=True)
        assert t["written"] > 1000 and t["refused"] == 0, t
        assert len(list(rr.read(out))) == t["written"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"out.{ext}" for ext in ["rgn", "pgn", "ggf", "sgf", "json", "txt"]
    )


def test_to_arrow():
    pytest.importorskip("pyarrow")
    games = list(rr.read(FIXTURES / "cli" / "mixed.rgn"))
    table = rr.to_arrow([g for g in games if g.rules.side == 8], boards=True)
    assert table.num_rows == 6
    data = rr.to_numpy([g for g in games if g.rules.side == 8])
    first = table.column("moves")[0].as_py()
    assert first == [m for m in data["moves"][0].tolist() if m != -1]
    assert len(table.column("boards")[0].as_py()) == data["lengths"][0] + 1


def test_validate_checks_the_games_against_the_pairings_and_the_register(tmp_path):
    """`validate(pairings=, players=)` gives the findings `reversi validate --pairings
    --players` gives: names the register does not hold, games the pairings miss."""
    folder = FIXTURES / "register"
    rounds = sorted(folder.glob("round-*.rgn"))
    plain = rr.validate(rounds)
    registered = rr.validate(rounds, players=folder / "players.csv")
    codes = lambda report: sorted({f["code"] for f in report["findings"]})
    assert "unknown-player" not in codes(plain)
    assert "unknown-player" in codes(registered)
    pairings = tmp_path / "pairings.csv"
    pairings.write_text("ronde;table;noir;blanc\n9;1;Jean Dupont;Kees de Vries\n")
    paired = rr.validate(rounds, players=folder / "players.csv", pairings=pairings)
    missing = [f for f in paired["findings"] if f["code"] == "missing-game"]
    assert len(missing) == 1 and "line 2 of the pairings" in missing[0]["message"]
    with pytest.raises(rr.UsageError):
        rr.validate(rounds, pairings=folder / "round-1.rgn")
