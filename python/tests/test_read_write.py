import io

import pytest

import reversi_record as rr
from conftest import DATA, FIXTURES, data, fixture_files


@pytest.mark.parametrize("path", fixture_files("valid"), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_valid_fixture_reads_without_errors(path):
    reader = rr.read(path)
    games = list(reader)
    assert games or "empty" in path.name, path
    for g in games:
        assert g.rules is not None
        errors = [d for d in g.read_diagnostics if d["severity"] == "error"]
        assert not errors, errors
        assert all(d["code"] for d in g.diagnostics)
    assert reader.format


@pytest.mark.parametrize("path", fixture_files("invalid"), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_invalid_fixture_reports_an_error(path):
    try:
        reader = rr.read(path)
        games = list(reader)
    except (rr.ReadError, rr.FormatError) as e:
        assert e.code
        return
    found = list(reader.file_diagnostics) + [d for g in games for d in g.diagnostics]
    assert any(d["code"] != "unfinished" for d in found), found


def test_diagnostics_have_the_json_shape():
    games = list(rr.read(FIXTURES / "cli" / "illegal.rgn"))
    d = next(d for g in games for d in g.diagnostics if d["severity"] == "error")
    assert {"code", "severity", "file", "game", "ply", "move", "span", "line", "column", "message", "help"} <= set(d)
    assert d["code"] == "illegal-move"
    assert d["file"].endswith("illegal.rgn")


def test_read_bytes_file_and_rules():
    games = list(rr.read(b"f5d6c3d3c4\nf5f5\n"))
    assert [len(g) for g in games] == [5, 2]
    assert games[0].is_valid and not games[1].is_valid
    assert [d["code"] for d in games[1].diagnostics if d["severity"] == "error"] == ["illegal-move"]
    games = list(rr.read(io.BytesIO(b"b3\n"), format="moves", rules="othello:6x6"))
    assert str(games[0].rules) == "othello:6x6"
    with open(FIXTURES / "cli" / "mixed.rgn", "rb") as f:
        assert len(list(rr.read(f))) == 6


def test_game_fields():
    g = next(iter(rr.read(FIXTURES / "cli" / "mixed.rgn")))
    assert g.index == 1 and g.tags["Black"] == "Ann" and g.tag("White") == "Bob"
    assert g.identity["black"] == "Ann"
    assert g.result == "44-20"
    positions = g.positions()
    assert len(positions) == len(g.moves) + 1
    assert positions[-1].is_over
    assert positions[-1].outcome()["discs"] == [44, 20]
    assert "<svg" in g._repr_svg_() and "Ann" in g._repr_html_()
    assert g.to_dict()["rules"]


def test_wthor_names_and_passes():
    games = list(rr.read(FIXTURES / "cli" / "pass.wtb"))
    assert games and all(g.is_valid for g in games)


def test_round_trip_rgn_and_ggf():
    games = [g for g in rr.read(FIXTURES / "cli" / "mixed.rgn") if str(g.rules) == "othello"]
    for fmt in ["rgn", "json", "ggf", "pgn"]:
        data = rr.write(games, format=fmt, lossy=True)
        back = list(rr.read(data, format=fmt))
        assert [g.moves for g in back] == [g.moves for g in games], fmt
        if fmt != "ggf":  # GGF writes Black's margin
            assert [g.result for g in back] == [g.result for g in games], fmt


def test_write_to_a_path_is_atomic_and_by_extension(tmp_path):
    games = list(rr.read(b"f5d6c3d3c4\n"))
    out = tmp_path / "out.rgn"
    assert rr.write(games, out) == []
    assert [g.moves for g in rr.read(out)] == [games[0].moves]
    with pytest.raises(rr.FormatError):
        rr.write(games, tmp_path / "out.unknown")


def test_refusals_name_what_is_lost():
    tagged = [g for g in rr.read(FIXTURES / "cli" / "mixed.rgn")][:1]
    with pytest.raises(rr.WriteRefused) as e:
        rr.write(tagged, format="moves")
    assert e.value.code == "cannot-hold" and e.value.lost and e.value.lossy_helps
    assert "lossy=True" in str(e.value)
    assert rr.write(tagged, format="moves", lossy=True).startswith(tagged[0].moves[0].encode())
    three = list(rr.read(FIXTURES / "rgn" / "valid" / "three_players.rgn"))
    with pytest.raises(rr.WriteRefused) as e:
        rr.write(three, format="wthor", lossy=True)
    assert e.value.code == "changes-meaning" and not e.value.lossy_helps


def test_error_mapping():
    with pytest.raises(rr.RulesError) as e:
        rr.Rules("multi3:6x6")
    assert e.value.code == "bad-rules" and isinstance(e.value, ValueError)
    with pytest.raises(rr.FormatError):
        rr.read(b"x", format="nonsense")
    with pytest.raises(rr.ReadError) as e:
        rr.read("no/such/file.rgn")
    assert isinstance(e.value, OSError) and e.value.code == "io"
    with pytest.raises(rr.FormatError) as e:
        rr.read(b"@@@ %%%")
    assert e.value.code == "unknown-format"


def test_validate_gives_the_json_summary():
    out = rr.validate([FIXTURES / "cli" / "mixed.rgn"], jobs=1)
    assert out["summary"]["games"] == 6 and out["summary"]["invalid"] == 2
    # The totals by code add up to the errors and warnings.
    codes = out["summary"]["codes"]
    assert sum(codes.values()) == out["summary"]["errors"] + out["summary"]["warnings"]
    assert all("code" in d for d in out["diagnostics"])
    allowed = rr.validate(str(FIXTURES / "cli" / "mixed.rgn"), allow=["unfinished"])
    assert allowed["summary"]["warnings"] < out["summary"]["warnings"]


def test_every_data_format_reads():
    # The record files of data/, by folder; the first two of each read (200 games at most).
    read = 0
    for sub, pattern, count in [("wthor", "*.wtb", 5), ("pgn", "*.pgn", 3), ("ggf", "*.ggf", 3), ("obf", "*.obf", 4), ("movestrings", "*.txt", 1)]:
        paths = sorted(data(sub).glob(pattern))
        assert len(paths) == count, (sub, paths)
        for path in paths[:2]:
            n = 0
            for g in rr.read(path):
                n += 1
                if n > 200:
                    break
            assert n > 0, path
            read += 1
    assert read == 9


def test_wthor_names_come_from_names_and_their_absence_is_a_warning(tmp_path):
    """A WTHOR file away from its name files warns (its players are indexes); `names=`
    (the folder, or the two files) gives the players the file beside them gives."""
    import shutil
    import warnings

    source = DATA / "wthor" / "WTH_2004.wtb"
    alone = tmp_path / "WTH_2004.wtb"
    shutil.copy(source, alone)
    with pytest.warns(UserWarning, match="names=DIR"):
        away = next(iter(rr.read(alone)))
    in_place = next(iter(rr.read(source)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        by_folder = next(iter(rr.read(alone, names=DATA / "wthor")))
        by_files = next(iter(rr.read(alone, names=f"{DATA / 'wthor' / 'WTHOR.JOU'},{DATA / 'wthor' / 'WTHOR.TRN'}")))
    black = lambda g: g.tag("Black")
    assert black(by_folder) == black(by_files) == black(in_place)
    assert black(in_place) and black(away) != black(in_place)
    with pytest.raises(rr.UsageError):
        rr.read(alone, names=tmp_path / "nowhere")
