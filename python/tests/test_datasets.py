import glob

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import reversi_record as rr
from conftest import DATA, FIXTURES


def side_index(square, side):
    col = ord(square[0]) - ord("a")
    row = int(square[1:]) - 1
    return row * side + col


def check_against_engine(games, data):
    """Every board, mask, turn and move of `data` equals the engine's, position by position."""
    side = data["side"]
    for g, game in enumerate(games):
        positions = game.positions()
        n = data["lengths"][g]
        assert n == len(positions) - 1
        for k, pos in enumerate(positions):
            assert (data["boards"][g, k] == pos.board()).all(), (g, k)
            if "legal" in data:
                mask = np.zeros(side * side, bool)
                for sq in pos.legal_moves():
                    mask[side_index(sq, side)] = True
                assert (data["legal"][g, k].ravel() == mask).all(), (g, k)
            expected_turn = -1 if pos.is_over else ["black", "white", "red", "green"].index(pos.turn)
            assert data["turn"][g, k] == expected_turn
        assert (data["turn"][g, n + 1 :] == -1).all()
        assert (data["boards"][g, n + 1 :] == 0).all()
        last = positions[-1]
        assert data["over"][g] == last.is_over
        if last.is_over:
            o = last.outcome()
            assert data["margin"][g] == o["margin"]


def test_to_numpy_equals_the_engine_on_fixtures():
    games = [g for g in rr.read(FIXTURES / "cli" / "mixed.rgn") if g.rules.side == 8]
    data = rr.to_numpy(games, legal=True)
    assert data["boards"].dtype == np.int8 and data["moves"].dtype == np.int16
    assert data["boards"].shape[:2] == (len(games), data["moves"].shape[1] + 1)
    check_against_engine(games, data)


def test_passes_are_written_out_and_invalid_games_stop():
    games = list(rr.read(FIXTURES / "cli" / "pass.wtb")) + list(rr.read(b"f5d6a1\n"))
    data = rr.to_numpy(games)
    assert (data["moves"] == -2).any()  # the WTHOR game's inferred pass
    assert list(data["valid"]) == [True] * (len(games) - 1) + [False]
    assert data["lengths"][-1] == 2
    check_against_engine(games, data)


def test_planes_and_variants():
    games = list(rr.read(FIXTURES / "rgn" / "valid" / "three_players_octagon_anti.rgn"))
    data = rr.to_numpy(games, planes=True)
    assert data["boards"].shape[2:] == (3, 10, 10)
    pos = games[0].positions()[0]
    for c in range(3):
        assert (data["boards"][0, 0, c] == (pos.board() == c + 1)).all()
    mixed = list(rr.read(FIXTURES / "cli" / "six.txt")) + games
    with pytest.raises(rr.UsageError):
        rr.to_numpy(mixed)


@pytest.mark.parametrize(
    "path",
    [
        FIXTURES / "cli" / "pass.wtb",
        DATA / "wthor" / "WTH_2004.wtb",
        DATA / "ggf" / "novello_TestGames.ggf",
        DATA / "pgn" / "playok_sample.pgn",
        DATA / "movestrings" / "nboard_xot-large.txt",
    ],
    ids=lambda p: p.name,
)
def test_to_numpy_of_a_reader_takes_its_views_and_equals_the_games(path):
    """`to_numpy(read(path))` (the reader itself, taken through views) gives the arrays of
    `to_numpy(list(read(path)))`, and leaves the reader at its end."""
    from_games = rr.to_numpy(list(rr.read(path)))
    reader = rr.read(path)
    from_reader = rr.to_numpy(reader)
    assert len(from_reader["lengths"]) > 0
    assert from_games.keys() == from_reader.keys()
    for key, value in from_games.items():
        assert np.array_equal(value, from_reader[key]), key
    assert list(reader) == []


def test_to_numpy_of_a_reader_continues_where_iteration_stopped():
    path = DATA / "wthor" / "WTH_2004.wtb"
    games = list(rr.read(path))
    reader = rr.read(path)
    next(reader), next(reader)
    rest = rr.to_numpy(reader)
    assert np.array_equal(rest["moves"], rr.to_numpy(games[2:])["moves"])


def test_dataset_chunks_equal_the_whole():
    paths = [FIXTURES / "cli" / "mixed.rgn"] * 3
    whole = rr.dataset(paths, rules=None)
    chunks = list(rr.dataset(paths, chunk=4))
    assert sum(len(c["lengths"]) for c in chunks) == len(whole["lengths"]) == 18


def test_data_wthor_tensors_equal_the_engine():
    paths = sorted(glob.glob(str(DATA / "wthor" / "*.wtb")))
    assert len(paths) == 5, f"the five WTHOR years of {DATA / 'wthor'}: {paths}"
    data = rr.dataset(paths[:1])
    games = list(rr.read(paths[0]))
    assert len(games) == len(data["lengths"])
    check_against_engine(games[:300], {k: (v[:300] if hasattr(v, "shape") else v) for k, v in data.items()})


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["othello", "othello:6x6", "othello:10x10", "anti", "multi3", "othello:4x4"]), st.randoms(use_true_random=False))
def test_random_legal_games(rules, rnd):
    """Random legal games: the engine agrees with itself through play, records, formats
    and arrays."""
    pos = rr.Position(rules)
    moves = []
    while not pos.is_over and len(moves) < 200:
        legal = pos.legal_moves()
        if not legal:
            pos.pass_()
            moves.append("--")
            continue
        sq = rnd.choice(legal)
        flips = pos.flips(sq)
        assert pos.play(sq) == flips
        moves.append(sq)
    game = rr.Game.from_moves(moves, rules=rules)
    assert game.is_valid, game.diagnostics
    assert len(game.positions()) == len(moves) + 1
    assert game.positions()[-1] == pos
    back = list(rr.read(rr.write([game], format="rgn"), format="rgn"))
    assert back[0].positions()[-1] == pos
    data = rr.to_numpy([game], legal=True)
    assert data["valid"][0] and data["lengths"][0] == len(moves)
    assert (data["boards"][0, len(moves)] == pos.board()).all()
    check_against_engine([game], data)


def test_threads_give_the_same_arrays_and_the_benchmark_agrees():
    """jobs=2 equals jobs=1; the benchmark's plain Python reader (an independent replay)
    equals the dataset on the fixtures' WTHOR files."""
    import sys

    paths = sorted(glob.glob(str(FIXTURES / "wthor" / "valid" / "*.wtb")))
    assert paths
    one, two = rr.dataset(paths, jobs=1), rr.dataset(paths, jobs=2)
    for key in ("moves", "boards", "turn", "lengths", "valid", "over", "margin", "winner"):
        assert (one[key] == two[key]).all(), key
    sys.path.insert(0, str(FIXTURES.parent / "python" / "bench"))
    import wthor_tensors

    moves, boards = wthor_tensors.plain_python(wthor_tensors.read_all(paths))
    plies = moves.shape[1]
    assert (moves == one["moves"][:, :plies]).all()
    assert (boards == one["boards"][:, : plies + 1]).all()


def test_a_resigned_game_takes_its_claimed_winner_and_counts_its_discs():
    """Club night's game 3 ends with `W+R` before the board is over: White is the winner,
    and the margin counts the discs on the board (the empty squares go to nobody)."""
    games = [g for g in rr.read(FIXTURES / "demo" / "club-night.rgn") if g.rules.players == 2]
    data = rr.to_numpy(games, boards=False)
    for g, game in enumerate(games):
        last = game.positions()[-1]
        board = last.board()
        if last.is_over:
            assert data["margin"][g] == last.outcome()["margin"]
            continue
        assert data["margin"][g] == (board == 1).sum() - (board == 2).sum()
        expected = {"W+R": 1, "B+R": 0}.get(game.result or "", -2)
        assert data["winner"][g] == expected, game.result
    assert "W+R" in [g.result for g in games]
