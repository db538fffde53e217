"""The WTHOR archive as a games table: reversi_record.games beside a plain `struct` reader.

Both contenders read every game of the WTHOR files with its names (the name files
WTHOR.JOU and WTHOR.TRN) and give a row a game:

* `reversi_record.games`: a pyarrow table (file, index, players, event, date, claimed
  result as numbers, rules, moves as a list of int16), read in Rust from the library's
  views; timed with the replay's columns (`valid`, `finished`, `plies`: every game
  replayed on bitboards) and without them (`replay=False`), on one core (`jobs=1`) and on
  every core;
* `plain struct`: written for this benchmark, no replay: `struct.iter_unpack` over the
  68-byte records, names looked up in lists, the moves decoded to a list of squares per
  game; one Python tuple a game (a list of rows, no table).

The rows of both are checked equal (file, index, names, score, moves) before a time is
printed; each time is the best of `--rounds` runs.

    python bench/games_table.py [--rounds N] [FILE.wtb ...]

Without files: the WTHOR files of the folder `REVERSI_ARCHIVE` names (the whole FFO base,
with its WTHOR.JOU and WTHOR.TRN), else those of `data/wthor` (five years, 14,357 games).
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "data" / "wthor"


def names(path: Path, width: int) -> list[str]:
    raw = path.read_bytes()
    (count,) = struct.unpack_from("<H", raw, 8)
    return [raw[16 + width * i : 16 + width * (i + 1)].split(b"\0", 1)[0].decode("latin-1") for i in range(count)]


def plain_struct(paths: list[Path], folder: Path) -> list[tuple]:
    """One tuple a game: file, index, black, white, event, year, Black's and White's
    discs, the theoretical score, the moves (`row * 8 + col`)."""
    players = names(folder / "WTHOR.JOU", 20)
    events = names(folder / "WTHOR.TRN", 26)
    np_, ne = len(players), len(events)
    record = struct.Struct("<HHHBB60s")
    rows = []
    for path in paths:
        raw = path.read_bytes()
        (count,) = struct.unpack_from("<I", raw, 4)
        (year,) = struct.unpack_from("<H", raw, 10)
        name = str(path)
        for i, (t, b, w, score, theoretical, moves) in enumerate(
            record.iter_unpack(raw[16 : 16 + 68 * count])
        ):
            rows.append(
                (
                    name,
                    i + 1,
                    players[b] if b < np_ else None,
                    players[w] if w < np_ else None,
                    events[t] if t < ne else None,
                    year,
                    score,
                    64 - score,
                    theoretical,
                    [(m // 10 - 1) * 8 + m % 10 - 1 for m in moves.rstrip(b"\0")],
                )
            )
    return rows


def best(rounds: int, f):
    times = []
    out = None
    for _ in range(rounds):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    folder = Path(os.environ["REVERSI_ARCHIVE"]) if os.environ.get("REVERSI_ARCHIVE") else DEFAULT
    paths = args.files or sorted(p for p in folder.iterdir() if p.suffix.lower() == ".wtb")
    if args.files:
        folder = args.files[0].parent
    import reversi_record as rr

    contenders = [
        ("plain struct (no replay)", lambda: plain_struct(paths, folder)),
        ("games(replay=False, jobs=1)", lambda: rr.games(paths, replay=False, jobs=1)),
        ("games(jobs=1)", lambda: rr.games(paths, jobs=1)),
        ("games() every core", lambda: rr.games(paths)),
    ]
    results = {}
    for label, f in contenders:
        results[label] = best(args.rounds, f)
    plain_time, rows = results["plain struct (no replay)"]
    table = results["games(jobs=1)"][1]
    unknown = lambda n: None if n is None or n.strip().strip("?-.") == "" else n  # noqa: E731
    columns = ["file", "index", "black", "white", "event", "black_discs", "white_discs", "moves"]
    got = list(zip(*(table.column(c).to_pylist() for c in columns)))
    want = [(r[0], r[1], unknown(r[2]), unknown(r[3]), unknown(r[4]), r[6], r[7], r[9]) for r in rows]
    if got != want:
        print("the table and the plain reader disagree", file=sys.stderr)
        return 1
    print(f"{len(rows)} games from {len(paths)} WTHOR files in {folder}")
    for label, (t, _) in results.items():
        print(f"{label:30} {t:8.3f} s {len(rows) / t / 1e3:9.1f} K games/s {t / plain_time:6.2f}x the plain reader's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
