"""The games table (`games()`) against an independent reader of the WTHOR format written
here from its published layout, and `dataset()`'s identity columns against the table."""

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import reversi_record as rr
from conftest import DATA, FIXTURES, data

pa = pytest.importorskip("pyarrow")


# ---------------------------------------------------------------------------------------
# An independent WTHOR reader: a 16-byte header (creation date as century, year, month,
# day; N1 records as u32; N2 records as u16; the games' year as u16; board size, game type,
# depth, reserved), then N1 records of 68 bytes for 8x8 (tournament, black, white as u16,
# Black's score, the theoretical score, 60 move bytes 10 * row + col from 11). The name
# files WTHOR.JOU (players, 20 bytes each) and WTHOR.TRN (tournaments, 26 bytes each) have
# the same header, N2 giving the count; names end at the first zero byte.


def header(raw):
    century, year, month, day, n1, n2, games_year, size, kind, depth, _ = struct.unpack_from(
        "<BBBBIHHBBBB", raw, 0
    )
    return {
        "created": f"{century * 100 + year:04}-{month:02}-{day:02}",
        "n1": n1,
        "n2": n2,
        "year": games_year,
        "size": size or 8,
        "depth": depth,
    }


def name_file(path, width):
    raw = Path(path).read_bytes()
    n = header(raw)["n2"]
    return [raw[16 + width * i : 16 + width * (i + 1)].split(b"\0", 1)[0].decode("latin-1") for i in range(n)]


def known(name):
    """A name that says something (the table leaves `?`, `-`, `.` and empty out, as
    `Game.identity` does)."""
    if name is None or name.strip().strip("?-.") == "":
        return None
    return name


def wthor_rows(path, players, tournaments):
    raw = Path(path).read_bytes()
    h = header(raw)
    assert h["size"] == 8
    rows = []
    for i in range(h["n1"]):
        t, b, w, score, theoretical = struct.unpack_from("<HHHBB", raw, 16 + 68 * i)
        move_bytes = raw[16 + 68 * i + 8 : 16 + 68 * (i + 1)]
        moves = []
        for m in move_bytes:
            if m == 0:
                break
            moves.append((m // 10 - 1) * 8 + (m % 10 - 1))

        def name(table, k):
            return table[k] if k < len(table) else None

        rows.append(
            {
                "file": str(path),
                "index": i + 1,
                "black": name(players, b),
                "white": name(players, w),
                "event": name(tournaments, t),
                "year": h["year"],
                "score": score,
                "theoretical": theoretical,
                "indexes": (t, b, w),
                "moves": moves,
                "header": h,
            }
        )
    return rows


# ---------------------------------------------------------------------------------------
# An independent replay (Python integers as bitboards, bit row * 8 + col), for `finished`
# and `plies`.

FULL = (1 << 64) - 1
STEPS = ((1, 0xFEFEFEFEFEFEFEFE), (-1, 0x7F7F7F7F7F7F7F7F), (8, FULL), (-8, FULL),
         (9, 0xFEFEFEFEFEFEFEFE), (7, 0x7F7F7F7F7F7F7F7F), (-7, 0xFEFEFEFEFEFEFEFE),
         (-9, 0x7F7F7F7F7F7F7F7F))


def shift(b, s, mask):
    return ((b << s) & FULL & mask) if s > 0 else ((b >> -s) & mask)


def flips(me, opp, sq):
    if (me | opp) >> sq & 1:
        return 0
    total = 0
    for s, mask in STEPS:
        line, x = 0, shift(1 << sq, s, mask)
        while x & opp:
            line |= x
            x = shift(x, s, mask)
        if x & me:
            total |= line
    return total


def can_move(me, opp):
    return any(flips(me, opp, sq) for sq in range(64) if not (me | opp) >> sq & 1)


def replay(moves):
    """(plies played legally, passes the record leaves out counted; whether the position
    reached is over)."""
    me, opp = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)  # Black to move
    plies = 0
    for sq in moves:
        f = flips(me, opp, sq)
        if not f:
            if can_move(me, opp) or not flips(opp, me, sq):
                return plies, False
            me, opp = opp, me  # a pass the record leaves out
            plies += 1
            f = flips(me, opp, sq)
        me, opp = opp & ~f, me | f | (1 << sq)
        plies += 1
    return plies, not can_move(me, opp) and not can_move(opp, me)


# ---------------------------------------------------------------------------------------


def wthor_years():
    return sorted(data("wthor").glob("*.wtb"))


def test_the_games_table_of_the_wthor_years_equals_an_independent_reader():
    paths = wthor_years()
    assert len(paths) >= 5
    players = name_file(data("wthor", "WTHOR.JOU"), 20)
    tournaments = name_file(data("wthor", "WTHOR.TRN"), 26)
    expected = [row for p in paths for row in wthor_rows(p, players, tournaments)]
    table = rr.games([str(p) for p in paths], tags=True)
    assert table.num_rows == len(expected) > 10_000
    got = table.to_pylist()
    for e, g in zip(expected, got):
        where = (e["file"], e["index"])
        assert (g["file"], g["index"]) == where
        assert (g["black"], g["white"], g["event"]) == tuple(
            known(e[k]) for k in ("black", "white", "event")
        ), where
        assert g["date"] == (str(e["year"]) if e["year"] else None), where
        assert (g["round"], g["board"]) == (None, None)
        assert g["rules"] == "othello"
        # WTHOR holds Black's discs; White's are the rest of the 64 (empties to the winner).
        assert (g["black_discs"], g["white_discs"]) == (e["score"], 64 - e["score"]), where
        assert g["margin"] == 2 * e["score"] - 64
        assert g["result"] == f"{e['score']}-{64 - e['score']}"
        assert g["termination"] == "normal"
        assert g["moves"] == e["moves"], where
        tags = dict(g["tags"])
        h = e["header"]
        assert tags["TheoreticalScore"] == str(e["theoretical"])
        assert (tags["WthorTournament"], tags["WthorBlack"], tags["WthorWhite"]) == tuple(
            str(k) for k in e["indexes"]
        )
        assert tags["WthorCreated"] == h["created"]
        assert tags["WthorBoardSize"] == str(h["size"])
        assert tags["WthorDepth"] == str(h["depth"])
        # Names as the name files write them, unknown ones included.
        assert (tags.get("Black"), tags.get("White"), tags.get("Event")) == (
            e["black"],
            e["white"],
            e["event"],
        )
    # The replay's columns, against the independent replay: every game the table calls
    # unfinished, and a sample of the others.
    unfinished = [i for i, g in enumerate(got) if not g["finished"]]
    for i in unfinished + list(range(0, len(got), 97)):
        plies, over = replay(expected[i]["moves"])
        assert (got[i]["plies"], got[i]["finished"]) == (plies, over), i
        assert got[i]["valid"] == (plies >= len(expected[i]["moves"]))


def test_names_elsewhere_give_the_same_table(tmp_path):
    year = data("wthor", "WTH_2004.wtb")
    shutil.copy(year, tmp_path / "y.wtb")
    shutil.copy(data("wthor", "WTHOR.JOU"), tmp_path / "players.jou")
    shutil.copy(data("wthor", "WTHOR.TRN"), tmp_path / "events.trn")
    beside = rr.games(year)
    with pytest.warns(UserWarning):
        without = rr.games(tmp_path / "y.wtb")
    assert without.column("black").null_count == without.num_rows  # indexes only
    named = rr.games(tmp_path / "y.wtb", names=f"{tmp_path / 'players.jou'},{tmp_path / 'events.trn'}")
    for column in ["black", "white", "event", "moves", "black_discs", "finished"]:
        assert named.column(column).to_pylist() == beside.column(column).to_pylist()
    # validate and convert take names= too: no warning, and the names in what they write.
    names = f"{tmp_path / 'players.jou'},{tmp_path / 'events.trn'}"
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = rr.validate(tmp_path / "y.wtb", names=names)
        rr.convert([tmp_path / "y.wtb"], tmp_path / "y.pgn", names=names, lossy=True)
    assert report["summary"]["games"] == beside.num_rows
    written = rr.games(tmp_path / "y.pgn")
    assert written.column("black").to_pylist() == beside.column("black").to_pylist()


@pytest.mark.parametrize(
    "path",
    [
        FIXTURES / "cli" / "mixed.rgn",
        FIXTURES / "demo" / "club-night.rgn",
        DATA / "pgn" / "playok_sample.pgn",
        DATA / "ggf" / "novello_TestGames.ggf",
    ],
    ids=lambda p: p.name,
)
def test_the_table_of_text_formats_equals_the_games_read(path):
    """The table (from the readers' views) says what `read()`'s `Game`s (records) say."""
    games = [g for g in rr.read(path) if g.rules is not None]
    table = rr.games(path).to_pylist()
    assert len(table) == len(games) > 0
    for g, row in zip(games, table):
        ident = g.identity or {}
        assert (row["file"], row["index"]) == (g.file, g.index)
        for k in ["black", "white", "event", "date", "round", "board"]:
            assert row[k] == ident.get(k), (g.index, k)
        assert row["rules"] == str(g.rules)
        assert row["result"] == g.result
        side = g.rules.side
        written = [-2 if m == "--" else (int(m[1:]) - 1) * side + ord(m[0]) - 97 for m in g.moves]
        assert row["moves"] == written
        data_ = rr.to_numpy([g], boards=False)
        assert row["valid"] == bool(data_["valid"][0])
        assert row["finished"] == bool(data_["over"][0])


def test_dataset_identity_is_aligned_with_the_table():
    paths = [str(p) for p in wthor_years()]
    table = rr.games(paths)
    d = rr.dataset(paths, boards=False)
    assert list(d["file"]) == table.column("file").to_pylist()
    assert d["index"].tolist() == table.column("index").to_pylist()
    assert d["index"].dtype == np.int32 and d["file"].dtype == object
    # In chunks, the identity follows each chunk's rows.
    files, index = [], []
    for part in rr.dataset(paths, chunk=1000, boards=False):
        assert len(part["file"]) == len(part["index"]) == part["moves"].shape[0]
        files.extend(part["file"])
        index.extend(part["index"].tolist())
    assert files == list(d["file"]) and index == d["index"].tolist()
    # The table's replay (one walk a game) says what the arrays' replay says.
    assert table.column("plies").to_pylist() == d["lengths"].tolist()
    assert table.column("finished").to_pylist() == d["over"].tolist()
    assert table.column("valid").to_pylist() == d["valid"].tolist()
    # And the margins of the arrays are the table's claims where the game finished.
    finished = np.array(table.column("finished").to_pylist())
    claimed = np.array(table.column("margin").to_pylist())
    assert (d["margin"][finished] == claimed[finished]).mean() > 0.95


def test_to_numpy_gives_identity_from_a_reader_and_from_games():
    path = FIXTURES / "demo" / "club-night.rgn"
    games = [g for g in rr.read(path) if g.rules.side == 8 and g.rules.players == 2]
    d = rr.to_numpy(games, boards=False)
    assert list(d["file"]) == [g.file for g in games]
    assert d["index"].tolist() == [g.index for g in games]
    year = data("wthor", "WTH_1977.wtb")
    d = rr.to_numpy(rr.read(year), boards=False)
    assert d["index"].tolist() == list(range(1, len(d["index"]) + 1))
    assert set(d["file"]) == {str(year)}


def test_polars_and_pandas_take_the_table():
    table = rr.games(data("wthor", "WTH_1977.wtb"))
    pl = pytest.importorskip("polars")
    frame = pl.from_arrow(table)
    assert frame.shape == (table.num_rows, table.num_columns)
    assert frame["black"].to_list() == table.column("black").to_pylist()
    assert frame["moves"].to_list() == table.column("moves").to_pylist()
