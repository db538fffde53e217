import numpy as np
import pytest

import reversi_record as rr
from conftest import FIXTURES


def test_rules():
    r = rr.Rules("multi3:octagon")
    assert (r.board, r.side, r.players) == ("octagon", 10, 3)
    assert r.colors == ["black", "white", "red"]
    assert rr.Rules("Othello:10X10, anti") == rr.Rules("anti:10x10")
    assert str(rr.Rules()) == "othello"


def test_play_flips_pass_and_outcome():
    p = rr.Position()
    assert p.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert p.flips("f5") == ["e5"]
    assert p.play("f5") == ["e5"] and p.turn == "white"
    before = p.copy()
    with pytest.raises(rr.IllegalMoveError) as e:
        p.play("a1")
    assert e.value.code == "illegal-move" and p == before
    with pytest.raises(rr.IllegalMoveError) as e:
        p.pass_()
    assert e.value.code == "illegal-pass"
    assert p.outcome() is None
    b = p.board()
    assert b.dtype == np.int8 and b.shape == (8, 8)
    assert b[4, 5] == 1 and b[3, 3] == 2  # f5 Black, d4 White


def test_board_codes_octagon():
    b = rr.Position("multi3:octagon").board()
    assert b[0, 0] == -2 and (b == 5).sum() == 1 and (b == 3).sum() == 1


def test_perft_matches_the_fixture_table():
    for line in (FIXTURES / "perft" / "standard.perft").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rules, depth, leaves = line.split()[:3]
        depth = int(depth)
        if leaves == "-" or depth > 6:
            continue
        assert rr.Position(rules).perft(depth, jobs=2) == int(leaves), line


def test_reprs():
    p = rr.Position("othello:6x6")
    assert p._repr_svg_().startswith("<svg") and "<svg" in p._repr_html_()
    assert "to move" in repr(p)
