"""WTHOR years into move arrays and board tensors: reversi_record beside its Python peers.

Every contender does the same work on the same games: read the WTHOR files, replay every
game (passes inferred, as WTHOR leaves them out) and fill

* `moves`: games x plies, int16 (`row * 8 + col`, -2 a pass, -1 padding), and
* `boards`: games x (plies + 1) x 8 x 8, int8 (0 empty, 1 black, 2 white),

the arrays `reversi_record.dataset` returns. The contenders:

* `reversi_record`: `dataset(paths)`, in Rust with the GIL released;
* `numba`: the same bitboard replay as the plain reader below, compiled by numba (the fastest
  loop Python code can have; a reference, not a published package);
* `rust-reversi` (PyPI `rust-reversi`): its `Board` replays, its `get_board()` gives the
  bitboards, numpy expands them;
* `plain Python`: a reader written for this benchmark: `struct`-free slicing of the 68-byte
  records, bitboards as Python integers, boards expanded by numpy at the end (no per-square
  Python loop);
* `creversi-python` (PyPI `creversi-python`, imported as `creversi`): the pure-Python port
  of creversi's `Board` (PyPI's `creversi` 0.0.1 is a source package that does not build:
  `utils.hpp` is missing from it), driven move by move, its `to_bitboard` per position.

`rust-reversi` and `creversi-python` are engines driven from Python, not records readers: the
script reads the WTHOR records for them and feeds them the moves.
Every contender's arrays are checked equal to reversi_record's before a time is printed.
Then the per-game cost of `read` (every game a `Game`, diagnostics included) on the PGN and
GGF files of `data/`.

    python bench/wthor_tensors.py [--repeat N] [--only NAME,...] [FILE.wtb ...]

Without files, the WTHOR files of the folder the environment variable `REVERSI_ARCHIVE` names
(such as the whole FFO base), and when it is unset the five years the repository carries
(`data/wthor/*.wtb`; `data/SOURCES.md`), each once: the archive as it is (`--repeat N`
reads the same files N times, for a size test only).
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "data"
WTHOR = Path(os.environ["REVERSI_ARCHIVE"]) if os.environ.get("REVERSI_ARCHIVE") else DATA / "wthor"

# Bitboards: bit `row * 8 + col`. The eight directions as shifts with edge masks.
FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # no disc may arrive on column a after a shift east
NOT_H = 0x7F7F7F7F7F7F7F7F
DIRECTIONS = (
    (1, NOT_A),  # east: << 1
    (-1, NOT_H),  # west: >> 1
    (8, FULL),  # south
    (-8, FULL),  # north
    (9, NOT_A),
    (7, NOT_H),
    (-7, NOT_A),
    (-9, NOT_H),
)
START_BLACK = (1 << 28) | (1 << 35)  # e4, d5
START_WHITE = (1 << 27) | (1 << 36)  # d4, e5


def wthor_games(path: str) -> list[bytes]:
    """The 60 move bytes of every game of a WTHOR file (16-byte header, 68-byte records)."""
    data = Path(path).read_bytes()
    count = int.from_bytes(data[4:8], "little")
    return [data[16 + 68 * i + 8 : 16 + 68 * (i + 1)] for i in range(count)]


def read_all(paths: list[str]) -> list[bytes]:
    out: list[bytes] = []
    for p in paths:
        out.extend(wthor_games(p))
    return out


# ---------------------------------------------------------------------------------------
# The plain Python reader.


def shift(b: int, s: int, mask: int) -> int:
    return ((b << s) & FULL & mask) if s > 0 else ((b >> -s) & mask)


def flips(me: int, opp: int, sq: int) -> int:
    bit = 1 << sq
    total = 0
    for s, mask in DIRECTIONS:
        line = 0
        x = shift(bit, s, mask)
        while x & opp:
            line |= x
            x = shift(x, s, mask)
        if x & me:
            total |= line
    return total


def has_move(me: int, opp: int) -> bool:
    empty = ~(me | opp) & FULL
    for s, mask in DIRECTIONS:
        x = shift(me, s, mask) & opp
        for _ in range(5):
            x |= shift(x, s, mask) & opp
        if shift(x, s, mask) & empty:
            return True
    return False


def plain_python(games: list[bytes]):
    """Replays with Python-integer bitboards; numpy expands the bitboards into boards."""
    plies = 0
    per_game = []
    for raw in games:
        black, white, black_to_move = START_BLACK, START_WHITE, True
        moves, bits = [], [(black, white)]
        for m in raw:
            if m == 0:
                break
            sq = (m // 10 - 1) * 8 + (m % 10 - 1)
            me, opp = (black, white) if black_to_move else (white, black)
            f = flips(me, opp, sq)
            if f == 0:
                # No flip from here: the side to move has no move, so it passes first.
                if has_move(me, opp):
                    break  # an illegal move: the game stops here
                moves.append(-2)
                bits.append((black, white))
                black_to_move = not black_to_move
                me, opp = opp, me
                f = flips(me, opp, sq)
                if f == 0:
                    break
            me |= f | (1 << sq)
            opp &= ~f
            black, white = (me, opp) if black_to_move else (opp, me)
            black_to_move = not black_to_move
            moves.append(sq)
            bits.append((black, white))
        per_game.append((moves, bits))
        plies = max(plies, len(moves))
    n = len(games)
    move_array = np.full((n, plies), -1, np.int16)
    bitboards = np.zeros((n, plies + 1, 2), np.uint64)
    for g, (moves, bits) in enumerate(per_game):
        move_array[g, : len(moves)] = moves
        bitboards[g, : len(bits)] = bits
    return move_array, expand(bitboards)


def expand(bitboards: np.ndarray, a1_high: bool = False) -> np.ndarray:
    """games x positions x 2 bitboards (black, white) -> games x positions x 8 x 8 int8.

    Bit `row * 8 + col` is the square, or with `a1_high` bit `63 - (row * 8 + col)`."""
    if a1_high:
        as_bytes = bitboards.astype(">u8").view(np.uint8)
        bits = np.unpackbits(as_bytes, axis=-1, bitorder="big")
    else:
        as_bytes = bitboards.astype("<u8").view(np.uint8)
        bits = np.unpackbits(as_bytes, axis=-1, bitorder="little")
    bits = bits.reshape(bitboards.shape[:-1] + (2, 64)).astype(np.int8)
    boards = bits[..., 0, :] + 2 * bits[..., 1, :]
    return boards.reshape(bitboards.shape[:-1] + (8, 8))


# ---------------------------------------------------------------------------------------
# The same loop compiled by numba.


def numba_contender():
    import numba

    shifts = np.array([d[0] for d in DIRECTIONS], np.int64)
    masks = np.array([d[1] for d in DIRECTIONS], np.uint64)

    @numba.njit(cache=False)
    def nshift(b, s, mask):
        if s > 0:
            return (b << np.uint64(s)) & mask
        return (b >> np.uint64(-s)) & mask

    @numba.njit(cache=False)
    def nflips(me, opp, sq):
        bit = np.uint64(1) << np.uint64(sq)
        total = np.uint64(0)
        for d in range(8):
            s, mask = shifts[d], masks[d]
            line = np.uint64(0)
            x = nshift(bit, s, mask)
            while x & opp:
                line |= x
                x = nshift(x, s, mask)
            if x & me:
                total |= line
        return total

    @numba.njit(cache=False)
    def nhas_move(me, opp):
        empty = ~(me | opp)
        for d in range(8):
            s, mask = shifts[d], masks[d]
            x = nshift(me, s, mask) & opp
            for _ in range(5):
                x |= nshift(x, s, mask) & opp
            if nshift(x, s, mask) & empty:
                return True
        return False

    @numba.njit(cache=False)
    def replay(raw, moves, boards, lengths):
        n = raw.shape[0]
        for g in range(n):
            black = np.uint64(START_BLACK)
            white = np.uint64(START_WHITE)
            black_to_move = True
            k = 0
            write_board(boards, g, 0, black, white)
            for i in range(60):
                m = raw[g, i]
                if m == 0:
                    break
                sq = (m // 10 - 1) * 8 + (m % 10 - 1)
                me, opp = (black, white) if black_to_move else (white, black)
                f = nflips(me, opp, sq)
                if f == 0:
                    if nhas_move(me, opp):
                        break
                    moves[g, k] = -2
                    k += 1
                    write_board(boards, g, k, black, white)
                    black_to_move = not black_to_move
                    me, opp = opp, me
                    f = nflips(me, opp, sq)
                    if f == 0:
                        break
                me |= f | (np.uint64(1) << np.uint64(sq))
                opp &= ~f
                if black_to_move:
                    black, white = me, opp
                else:
                    black, white = opp, me
                black_to_move = not black_to_move
                moves[g, k] = sq
                k += 1
                write_board(boards, g, k, black, white)
            lengths[g] = k

    @numba.njit(cache=False)
    def write_board(boards, g, k, black, white):
        for sq in range(64):
            bit = np.uint64(1) << np.uint64(sq)
            v = 1 if black & bit else (2 if white & bit else 0)
            boards[g, k, sq // 8, sq % 8] = v

    def run(games: list[bytes], plies: int):
        raw = np.frombuffer(b"".join(games), np.uint8).reshape(len(games), 60)
        moves = np.full((len(games), plies), -1, np.int16)
        boards = np.zeros((len(games), plies + 1, 8, 8), np.int8)
        lengths = np.zeros(len(games), np.int32)
        replay(raw, moves, boards, lengths)
        return moves, boards

    # Compile outside the timing.
    run(games_for_warmup(), 61)
    return run


def games_for_warmup() -> list[bytes]:
    return [bytes([56, 64, 0]) + bytes(57)]


# ---------------------------------------------------------------------------------------
# rust-reversi.


def rust_reversi_contender(games: list[bytes]):
    import rust_reversi

    plies = 0
    per_game = []
    for raw in games:
        board = rust_reversi.Board()
        moves, bits = [], []
        black_to_move = True

        def snap():
            player, opponent, _ = board.get_board()
            bits.append((player, opponent) if black_to_move else (opponent, player))

        snap()
        for m in raw:
            if m == 0:
                break
            sq = (m // 10 - 1) * 8 + (m % 10 - 1)
            if board.is_pass():
                board.do_pass()
                black_to_move = not black_to_move
                moves.append(-2)
                snap()
            try:
                board.do_move(rust_bit_index(sq))
            except Exception:
                break
            black_to_move = not black_to_move
            moves.append(sq)
            snap()
        per_game.append((moves, bits))
        plies = max(plies, len(moves))
    n = len(games)
    move_array = np.full((n, plies), -1, np.int16)
    bitboards = np.zeros((n, plies + 1, 2), np.uint64)
    for g, (moves, bits) in enumerate(per_game):
        move_array[g, : len(moves)] = moves
        bitboards[g, : len(bits)] = bits
    return move_array, expand(bitboards, a1_high=True)


# ---------------------------------------------------------------------------------------
# creversi-python (PyPI `creversi-python`, imported as `creversi`): the pure-Python port of
# creversi's `Board` (player and opponent bitboards as Python integers).


def creversi_contender(games: list[bytes]):
    import creversi

    plies = 0
    per_game = []
    bitboard = np.zeros(16, np.uint8)
    for raw in games:
        board = creversi.Board()
        moves, bits = [], []

        def snap():
            board.to_bitboard(bitboard)
            player, opponent = bitboard.view("<u8")
            bits.append((player, opponent) if board.turn else (opponent, player))

        snap()
        for m in raw:
            if m == 0:
                break
            sq = (m // 10 - 1) * 8 + (m % 10 - 1)
            if not board.is_legal(sq):
                # The side to move has no move: it passes first (WTHOR leaves passes out).
                if board.puttable_num() != 0:
                    break
                board.move_pass()
                moves.append(-2)
                snap()
                if not board.is_legal(sq):
                    break
            board.move(sq)
            moves.append(sq)
            snap()
        per_game.append((moves, bits))
        plies = max(plies, len(moves))
    n = len(games)
    move_array = np.full((n, plies), -1, np.int16)
    bitboards = np.zeros((n, plies + 1, 2), np.uint64)
    for g, (moves, bits) in enumerate(per_game):
        move_array[g, : len(moves)] = moves
        bitboards[g, : len(bits)] = bits
    return move_array, expand(bitboards)


def rust_bit_index(sq: int) -> int:
    # rust-reversi numbers moves a1 = 0 ... h8 = 63, row by row, as we do (its bitboards put
    # a1 in the most significant bit: `expand(a1_high=True)`).
    return sq




# ---------------------------------------------------------------------------------------


def ours(paths: list[str]):
    import reversi_record as rr

    data = rr.dataset(paths, jobs=1)
    return data["moves"], data["boards"]


# What each contender does, printed before the times.
WHAT = [
    "  reversi_record   a records library: dataset(paths) reads the files and replays in Rust",
    "  numba            this script's bitboard loop compiled by numba (no package: a reference)",
    "  rust-reversi     an engine driven from Python: Board.do_move per move, get_board per position",
    "  creversi-python  an engine driven from Python (pure Python): Board.move, to_bitboard",
    "  plain Python     this script's reader: Python-integer bitboards, numpy expands them",
    "  (the Python contenders on the first --sample games when given; every contender's arrays",
    "  are checked equal to reversi_record's before its time is printed)",
]


def timed(name, fn, reference=None, games=0):
    start = time.perf_counter()
    moves, boards = fn()
    seconds = time.perf_counter() - start
    if reference is not None:
        ref_moves, ref_boards = reference
        same = (
            moves.shape == ref_moves.shape
            and (moves == ref_moves).all()
            and boards.shape == ref_boards.shape
            and (boards == ref_boards).all()
        )
        if not same:
            print(f"{name}: arrays differ from reversi_record's", file=sys.stderr)
            sys.exit(1)
    positions = int(((moves != -1).sum(axis=1) + 1).sum())
    print(
        f"{name:<16} {seconds:8.3f} s  {games / seconds / 1e3:9.1f} K games/s  "
        f"{positions / seconds / 1e6:7.2f} M positions/s",
        flush=True,
    )
    return (moves, boards), seconds


def read_costs() -> None:
    """Per-game cost of `read` (every game a `Game`, diagnostics included) on the PGN and GGF
    files of `data/`."""
    import reversi_record as rr

    for pattern in ("pgn/*.pgn", "ggf/*.ggf"):
        for path in sorted(glob.glob(str(DATA / pattern))):
            start = time.perf_counter()
            games = list(rr.read(path))
            seconds = time.perf_counter() - start
            if games:
                print(
                    f"read {Path(path).name:<24} {len(games):7} games  "
                    f"{seconds / len(games) * 1e6:8.1f} us per game",
                    flush=True,
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", default="reversi_record,numba,rust-reversi,creversi,plain")
    ap.add_argument("--sample", type=int, default=0, help="the Python contenders on the first N games only")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(str(WTHOR / "*.wtb")))
    if not files:
        sys.exit(f"no WTHOR files in {WTHOR} (give some, or set REVERSI_ARCHIVE to a folder of them)")
    print(f"{len(files)} WTHOR files from {WTHOR if not args.files else 'the command line'}", flush=True)
    paths = files * args.repeat
    games = read_all(paths)
    only = set(args.only.split(","))
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    print(f"{len(games)} games from {len(paths)} inputs, one core", flush=True)
    for line in WHAT:
        print(line)
    import reversi_record  # noqa: F401  (imported outside the timing, as numba compiles outside it)
    reference, ours_s = timed("reversi_record", lambda: ours(paths), games=len(games))
    sample = games[: args.sample] if args.sample else games
    sample_ref = (reference[0][: len(sample)], reference[1][: len(sample)])
    # Trim the padding to the sample's longest game.
    plies = int((sample_ref[0] != -1).sum(axis=1).max()) if len(sample) else 0
    sample_ref = (sample_ref[0][:, :plies], sample_ref[1][:, : plies + 1])
    results = {"reversi_record": ours_s / len(games)}
    if "numba" in only:
        try:
            run = numba_contender()
        except ImportError:
            print("numba           not installed")
        else:
            _, s = timed("numba", lambda: run(games, reference[0].shape[1]), reference, len(games))
            results["numba"] = s / len(games)
    if "rust-reversi" in only:
        try:
            import rust_reversi  # noqa: F401
        except ImportError:
            print("rust-reversi    not installed")
        else:
            _, s = timed("rust-reversi", lambda: rust_reversi_contender(sample), sample_ref, len(sample))
            results["rust-reversi"] = s / len(sample)
    if "plain" in only:
        _, s = timed("plain Python", lambda: plain_python(sample), sample_ref, len(sample))
        results["plain Python"] = s / len(sample)
    if "creversi" in only:
        try:
            import creversi  # noqa: F401
        except ImportError:
            print("creversi        not installed (pip install creversi-python; PyPI's creversi 0.0.1 does not build)")
        else:
            _, s = timed("creversi-python", lambda: creversi_contender(sample), sample_ref, len(sample))
            results["creversi-python"] = s / len(sample)
    read_costs()
    print()
    for name, per_game in results.items():
        if name != "reversi_record":
            print(f"reversi_record is {per_game / results['reversi_record']:6.1f}x {name}")


if __name__ == "__main__":
    main()
