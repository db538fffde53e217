import pytest

import reversi_record as rr
from conftest import FIXTURES


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
    assert s["players"] and s["players"][0]["name"]
    assert "Rank" in s["text"] and s["html"].startswith("<!")
    assert isinstance(s["notes"], list)


def test_repair_finds_the_swap():
    game = next(iter(rr.read(FIXTURES / "repair" / "swap-adjacent.rgn")))
    assert not game.is_valid
    r = rr.repair(game)
    assert r["status"] == "repaired" and r["edits"]
    assert r["game"].is_valid and r["report"]["code"]
    valid = next(iter(rr.read(b"f5d6c3d3c4\n")))
    assert rr.repair(valid)["status"] == "valid"


def test_convert_writes_and_refuses(tmp_path):
    out = tmp_path / "out.rgn"
    t = rr.convert([FIXTURES / "cli" / "mixed.rgn"], out)
    assert t["games"] == 6 and t["written"] + t["refused"] + t["unreadable"] == 6
    assert len(list(rr.read(out))) == t["written"]
    t = rr.convert([FIXTURES / "cli" / "mixed.rgn"], tmp_path / "out.wtb")
    assert t["refused"] and all("wthor cannot hold" in r["message"] for r in t["refusals"])


def test_to_arrow():
    pytest.importorskip("pyarrow")
    games = list(rr.read(FIXTURES / "cli" / "mixed.rgn"))
    table = rr.to_arrow([g for g in games if g.rules.side == 8], boards=True)
    assert table.num_rows == 6
    data = rr.to_numpy([g for g in games if g.rules.side == 8])
    first = table.column("moves")[0].as_py()
    assert first == [m for m in data["moves"][0].tolist() if m != -1]
    assert len(table.column("boards")[0].as_py()) == data["lengths"][0] + 1
