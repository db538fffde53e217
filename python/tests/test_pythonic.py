"""What Python users expect of the objects: pickling, equality and hashing, context
managers, reprs, errors that say what was expected."""

import copy
import pickle

import pytest

import reversi_record as rr
from conftest import FIXTURES, data


def sample_games():
    paths = [
        FIXTURES / "demo" / "club-night.rgn",
        FIXTURES / "demo" / "mistakes.rgn",
        FIXTURES / "cli" / "pass.wtb",
        FIXTURES / "rgn" / "valid" / "three_players_octagon_anti.rgn",
        data("ggf", "novello_TestGames.ggf"),
    ]
    return [g for p in paths for g in rr.read(p)]


def test_games_pickle_round_trip():
    games = sample_games()
    assert len(games) > 10
    for g in games:
        back = pickle.loads(pickle.dumps(g))
        assert back == g and hash(back) == hash(g)
        assert back is not g
        assert (back.file, back.index, back.text) == (g.file, g.index, g.text)
        assert (back.moves, back.tags, back.result, str(back.rules)) == (g.moves, g.tags, g.result, str(g.rules))
        assert back.is_valid == g.is_valid
        assert [d["code"] for d in back.diagnostics] == [d["code"] for d in g.diagnostics]
        assert [(d["code"], d["message"], d.get("span")) for d in back.read_diagnostics] == [
            (d["code"], d["message"], d.get("span")) for d in g.read_diagnostics
        ]
        # The positions replay the same.
        assert [p.board().tolist() for p in back.positions()] == [p.board().tolist() for p in g.positions()]


def test_game_equality_is_by_value():
    path = FIXTURES / "demo" / "club-night.rgn"
    a, b = list(rr.read(path)), list(rr.read(path))
    assert a == b  # two readings of the same file
    assert a[0] != a[1] and a[0] != "a game"
    assert len({*a, *b}) == len(a)
    other = rr.Game.from_moves(a[0].moves[:3])
    assert other != a[0]


@pytest.mark.parametrize("rules", ["othello", "othello:6x6", "multi3:octagon", "classic", "anti:10x10", "othello,free", "othello,blocked=a1+h8"])
def test_positions_and_rules_pickle_and_hash(rules):
    p = rr.Position(rules)
    seen = {}
    for k in range(12):
        back = pickle.loads(pickle.dumps(p))
        assert back == p and hash(back) == hash(p)
        assert back.turn == p.turn and back.legal_moves() == p.legal_moves()
        assert (back.board() == p.board()).all()
        seen[back] = k
        moves = p.legal_moves()
        if p.is_over:
            break
        if moves:
            p.play(moves[len(moves) // 2])
        else:
            p.pass_()
    assert len(seen) == k + 1  # distinct positions, distinct keys
    r = rr.Rules(rules)
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(p) == p


def test_equal_positions_hash_alike():
    a, b = rr.Position(), rr.Position()
    a.play("f5"), b.play("f5")
    assert a == b and hash(a) == hash(b)
    b.play("d6")
    assert a != b


def test_reader_is_a_context_manager_with_a_repr():
    path = FIXTURES / "demo" / "club-night.rgn"
    with rr.read(path) as reader:
        assert repr(reader) == f"<Reader {path} as rgn>"
        first = next(reader)
        assert first.index == 1
    assert reader.closed and "closed" in repr(reader)
    assert list(reader) == []  # nothing is read after the block


def test_dataset_repr_and_chunk_zero():
    path = str(data("wthor", "WTH_1977.wtb"))
    d = rr.dataset([path, path], chunk=10)
    assert repr(d) == "<Dataset 2 inputs to come, 10 games a chunk>"
    next(d)
    assert repr(d).startswith(f"<Dataset reading {path}, 1 inputs to come")
    with pytest.raises(rr.UsageError, match="chunk"):
        rr.dataset(path, chunk=0)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rr.read(123), "source"),
        (lambda: rr.dataset(123), "paths"),
        (lambda: rr.validate(4.5), "paths"),
        (lambda: rr.read(b"f5", rules=5), "rules"),
        (lambda: rr.Position(3), "rules"),
        (lambda: rr.Game.from_moves([1]), "moves"),
        (lambda: rr.Game.from_moves("f5d6"), "moves"),
        (lambda: rr.read(b"f5", format=5), "format"),
        (lambda: rr.write([], format=5), "format"),
        (lambda: rr.dataset("x.rgn", format=5), "format"),
        (lambda: rr.validate("x.rgn", allow=[1]), "allow"),
        (lambda: rr.Rules(5), "text"),
        (lambda: rr.Position().play(5), "move_"),
        (lambda: rr.Position().flips(5), "square"),
        (lambda: rr.Position().discs(5), "color"),
        (lambda: rr.Game.from_moves([]).tag(5), "name"),
        (lambda: rr.Game.from_moves([], tags=[(1, 2)]), "tags"),
        (lambda: rr.scenario.run(5), "text"),  # type: ignore[arg-type]
        (lambda: rr.standings(["x.rgn"], event=5), "event"),
    ],
)
def test_type_errors_say_what_was_expected(call, name):
    with pytest.raises(TypeError) as e:
        call()
    message = str(e.value)
    assert "PyString" not in message and "Sequence" not in message
    assert message.startswith(f"{name}: expected") or message.startswith(f"argument '{name}': expected")


def test_a_failed_write_names_the_path_once(tmp_path):
    games = list(rr.read(b"f5d6\n"))
    target = tmp_path / "missing" / "x.rgn"
    with pytest.raises(rr.WriteError) as e:
        rr.write(games, target)
    assert str(e.value).count(str(target)) == 1
    assert isinstance(e.value, OSError) and e.value.code == "io"


def test_diagnostics_are_typed_objects_that_are_still_dicts():
    bad = list(rr.read(FIXTURES / "demo" / "mistakes.rgn"))
    found = [d for g in bad for d in g.diagnostics]
    assert len(found) >= 3
    for d in found:
        assert isinstance(d, rr.Diagnostic)
        plain = d.to_dict()
        assert type(plain) is dict and dict(d) == plain and d == plain
        assert (d.code, d.severity, d.message, d.game, d.move, d.ply) == tuple(
            plain.get(k) for k in ["code", "severity", "message", "game", "move", "ply"]
        )
        assert (d.line, d.column, d.help, d.file) == tuple(plain.get(k) for k in ["line", "column", "help", "file"])
        assert d.span == (plain["span"]["offset"], plain["span"]["length"])
        assert d.span.offset == plain["span"]["offset"]
        assert d.identity == plain.get("identity")
        assert d.is_error == (plain["severity"] == "error")
        assert pickle.loads(pickle.dumps(d)) == d
        assert d.code in repr(d) and str(d.game) in repr(d)
    first = bad[0].diagnostics[0]
    assert (first.code, first.game, first.move, first.line, first.column) == ("wrong-result", 1, 61, 5, 10)
    assert first.identity == {"black": "Ann", "white": "Bob", "event": "8x8", "date": "2026.11.30"}
    report = rr.validate([str(FIXTURES / "demo" / "mistakes.rgn")])
    assert [d.code for d in report["diagnostics"]] == [d["code"] for d in report["diagnostics"]]
    assert all(isinstance(d, rr.Diagnostic) for d in report["diagnostics"])
