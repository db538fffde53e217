"""`write` refuses, with the reason, a game its target's readers would refuse (more tags or
moves than a game may hold, a game over the size of one), before anything is written: the
file named is neither made nor changed (issue 50)."""

import pytest

import reversi_record as rr

LINE = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7"
MOVES = [LINE[i : i + 2] for i in range(0, len(LINE), 2)]
TEXT_FORMATS = ["rgn", "pgn", "ggf", "sgf", "json", "moves", "transcript"]


def plain():
    return rr.Game.from_moves(MOVES, tags=[("Black", "Ann"), ("White", "Bob")])


@pytest.mark.parametrize("format", TEXT_FORMATS + ["wthor", "obf"])
@pytest.mark.parametrize(
    "game, said",
    [
        (lambda: rr.Game.from_moves(MOVES, tags=[(f"T{i}", "x") for i in range(2000)]), "2000 tags"),
        (lambda: rr.Game.from_moves(["f5", "--"] * 1500 + ["d6"]), "3001 moves"),
    ],
    ids=["2000 tags", "3001 moves"],
)
def test_a_game_over_the_readers_limits_is_refused_and_nothing_written(tmp_path, format, game, said):
    path = tmp_path / "out.rec"
    with pytest.raises(rr.WriteRefused) as e:
        rr.write([plain(), game()], path, format=format, lossy=True, year=2026)
    assert said in str(e.value) and "1000" in str(e.value), str(e.value)
    assert not e.value.lossy_helps
    assert not path.exists() and list(tmp_path.iterdir()) == []
    # Over a file already there: left as it was.
    path.write_bytes(b"before")
    with pytest.raises(rr.WriteRefused):
        rr.write([plain(), game()], path, format=format, lossy=True, year=2026)
    assert path.read_bytes() == b"before" and list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("format", ["rgn", "pgn", "json", "transcript"])
def test_a_game_over_the_size_of_a_game_is_refused(tmp_path, format):
    # 2 MiB in one tag: the readers take a game of 1 MiB at most.
    big = rr.Game.from_moves(MOVES, tags=[("Black", "Ann"), ("Annotator", "y" * (2 << 20))])
    path = tmp_path / "big.rec"
    with pytest.raises(rr.WriteRefused) as e:
        rr.write([plain(), big, plain()], path, format=format)
    message = str(e.value)
    assert e.value.code == "syntax-too-long", message
    assert "game 2" in message and "would not read back" in message and "1 MiB" in message, message
    assert e.value.lost == [] and not e.value.lossy_helps
    assert not path.exists()
    # Alone in its file too.
    with pytest.raises(rr.WriteRefused) as e:
        rr.write([big], format=format)
    assert e.value.code in ("syntax-too-long", "not-read-back"), str(e.value)


@pytest.mark.parametrize("format", TEXT_FORMATS + ["wthor", "obf"])
def test_games_within_the_limits_are_written_and_read_back(tmp_path, format):
    near = rr.Game.from_moves(MOVES, tags=[("Black", "Ann"), ("Annotator", "y" * 100_000)])
    many = rr.Game.from_moves(MOVES, tags=[(f"T{i}", "x") for i in range(900)])
    data = rr.write([plain(), near, many], format=format, lossy=True, year=2026)
    back = list(rr.read(data, format=format))
    assert len(back) == 3
    if format != "obf":
        assert [g.moves for g in back] == [MOVES] * 3
