"""Augmentation: each of the 8 symmetries against numpy's own transforms of each board,
moves against the transformed one-hot board of their square, and side-to-move planes
against the cell codes of the same positions."""

import numpy as np
import pytest

import reversi_record as rr
from conftest import FIXTURES, data

# The symmetries as numpy writes them (the oracle: per board, no index tables).
OPS = [
    lambda b: b,
    lambda b: np.rot90(b, 1),
    lambda b: np.rot90(b, 2),
    lambda b: np.rot90(b, 3),
    np.flipud,
    np.fliplr,
    lambda b: b.T,
    lambda b: np.rot90(b, 2).T,
]


def check_symmetry(plain, moved, ks):
    side = plain["side"]
    games = plain["moves"].shape[0]
    for g in range(games):
        op = OPS[int(ks[g])]
        n = plain["lengths"][g]
        for k in range(n + 1):
            if plain["boards"].ndim == 5:
                for c in range(plain["boards"].shape[2]):
                    assert (moved["boards"][g, k, c] == op(plain["boards"][g, k, c])).all()
            else:
                assert (moved["boards"][g, k] == op(plain["boards"][g, k])).all(), (g, k)
            if "legal" in plain:
                assert (moved["legal"][g, k] == op(plain["legal"][g, k])).all()
        for t, m in enumerate(plain["moves"][g]):
            if m < 0:
                assert moved["moves"][g, t] == m  # a pass or padding stays
                continue
            onehot = np.zeros((side, side), int)
            onehot[m // side, m % side] = 1
            r, c = np.argwhere(op(onehot))[0]
            assert moved["moves"][g, t] == r * side + c
    assert (moved["turn"] == plain["turn"]).all() and (moved["margin"] == plain["margin"]).all()


@pytest.mark.parametrize("k", range(8))
def test_each_symmetry_equals_numpys_transform(k):
    path = data("wthor", "WTH_1977.wtb")
    plain = rr.dataset(path, legal=True)
    moved = rr.dataset(path, legal=True, symmetry=k)
    assert (moved["symmetry"] == k).all()
    check_symmetry(plain, moved, moved["symmetry"])
    if k:
        assert not (moved["boards"] == plain["boards"]).all()


def test_random_symmetries_are_recorded_and_reproducible():
    games = [g for g in rr.read(FIXTURES / "rgn" / "valid" / "three_players_octagon_anti.rgn")]
    path = data("wthor", "WTH_2004.wtb")
    plain = rr.dataset(path, boards=True)
    a = rr.dataset(path, symmetry="random", seed=7)
    b = rr.dataset(path, symmetry="random", seed=7)
    assert (a["symmetry"] == b["symmetry"]).all() and len(set(a["symmetry"].tolist())) == 8
    sample = np.arange(0, plain["moves"].shape[0], 211)
    sub = lambda d: {k: (v[sample] if isinstance(v, np.ndarray) and v.shape[:1] == (plain["moves"].shape[0],) else v) for k, v in d.items()}  # noqa: E731
    check_symmetry(sub(plain), sub(a), a["symmetry"][sample])
    # Off-board squares and planes of a variant move with the board too.
    octagon = rr.to_numpy(games, planes=True)
    turned = rr.to_numpy(games, planes=True, symmetry=3)
    check_symmetry(octagon, turned, turned["symmetry"])
    # Chunks draw from one generator: the chunks' symmetries are the whole call's.
    chunks = list(rr.dataset(path, chunk=4000, boards=False, symmetry="random", seed=7))
    assert np.concatenate([c["symmetry"] for c in chunks]).tolist() == a["symmetry"].tolist()


def test_relative_planes_put_the_mover_first():
    path = data("wthor", "WTH_1977.wtb")
    codes = rr.dataset(path)
    rel = rr.dataset(path, planes=True, relative=True)
    boards, turn = codes["boards"], codes["turn"]
    for g in range(boards.shape[0]):
        for k in range(codes["lengths"][g] + 1):
            t = turn[g, k]
            mover = t if t >= 0 else 0
            assert (rel["boards"][g, k, 0] == (boards[g, k] == mover + 1)).all(), (g, k)
            assert (rel["boards"][g, k, 1] == (boards[g, k] == 2 - mover)).all(), (g, k)
    games = list(rr.read(FIXTURES / "rgn" / "valid" / "three_players_octagon_anti.rgn"))
    three = rr.to_numpy(games)
    rel3 = rr.to_numpy(games, planes=True, relative=True)
    for k in range(three["lengths"][0] + 1):
        t = max(int(three["turn"][0, k]), 0)
        for c in range(3):
            assert (rel3["boards"][0, k, c] == (three["boards"][0, k] == (t + c) % 3 + 1)).all()
    with pytest.raises(rr.UsageError):
        rr.dataset(path, relative=True)
    with pytest.raises(rr.UsageError):
        rr.dataset(path, symmetry=8)
