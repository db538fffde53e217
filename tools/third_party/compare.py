"""Compares what third-party readers read from reversi-record's output with what it wrote.

For every WTHOR year converted by run.sh (a folder of `YEAR.jsonl`, `YEAR.sgf`, `YEAR.wtb`
and the crates' readings), game by game:

* SGF, read by sgfmill, PyPI `sgf` and the `sgf-parse` crate: `PB`/`PW` equal the names,
  the moves (`PA` a pass) equal the moves, `RE` equals the margin of the original WTHOR
  score (as the `wthor` crate reads the original file);
* WTHOR, read by the `wthor` crate with the name file written beside it: names, moves
  (passes left out, as WTHOR does) and Black's score equal the original's.

The names and moves to match are reversi-record's own JSON of the same games. Prints one
line per reader, "compared N games with READER", and exits 1 on any difference (the first
few are shown) and when a reader compared fewer games than `--min` (default: the
`--sample`, else 1): a run that compares nothing fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def margin_of(result: str | None) -> int | None:
    """`B+4` -> 4, `W+10` -> -10, `0`/`Draw` -> 0."""
    if result is None:
        return None
    r = result.strip()
    if r in ("0", "Draw", "D", "Jigo"):
        return 0
    if len(r) > 2 and r[0] in "BW" and r[1] == "+":
        try:
            n = int(float(r[2:]))
        except ValueError:
            return None
        return n if r[0] == "B" else -n
    return None


def truth(folder: Path, year: str) -> list[dict]:
    games = []
    for line in (folder / f"{year}.jsonl").read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        tags = g.get("tags", {})
        if isinstance(tags, list):  # JSON version 1, or a name that repeats
            tags = {t["name"]: t["value"] for t in tags}
        games.append(
            {
                "black": tags.get("Black"),
                "white": tags.get("White"),
                "moves": [m["move"] for m in g["moves"]],
            }
        )
    return games


def jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def sgfmill_games(path: Path) -> list[dict]:
    from sgfmill import sgf, sgf_grammar

    out = []
    for coarse in sgf_grammar.parse_sgf_collection(path.read_bytes()):
        game = sgf.Sgf_game.from_coarse_game_tree(coarse)
        root = game.get_root()
        moves = []
        for node in game.get_main_sequence()[1:]:
            for colour in ("B", "W"):
                if node.has_property(colour):
                    moves.append(node.get_raw(colour).decode(game.get_charset()))
        out.append(
            {
                "black": root.get("PB") if root.has_property("PB") else None,
                "white": root.get("PW") if root.has_property("PW") else None,
                "moves": moves,
                "result": root.get("RE") if root.has_property("RE") else None,
            }
        )
    return out


def pypi_sgf_games(path: Path) -> list[dict]:
    import sgf

    out = []
    collection = sgf.parse(path.read_text(encoding="utf-8"))
    for game in collection:
        nodes = list(game.nodes)
        root = nodes[0].properties
        moves = []
        for node in nodes[1:]:
            for colour in ("B", "W"):
                if colour in node.properties:
                    moves.append(node.properties[colour][0])
        first = lambda key: root[key][0] if key in root else None  # noqa: E731
        out.append({"black": first("PB"), "white": first("PW"), "moves": moves, "result": first("RE")})
    return out


class Tally:
    def __init__(self, name: str):
        self.name, self.games, self.differences = name, 0, []

    def check(self, index: int, what: str, got, want) -> None:
        if got != want:
            self.differences.append(f"game {index + 1}: {what}: read {got!r}, wrote {want!r}")

    def report(self, minimum: int) -> bool:
        status = "ok" if not self.differences else f"{len(self.differences)} differences"
        if self.games < minimum:
            status = f"too few: at least {minimum} required"
        print(f"compared {self.games} games with {self.name}: {status}")
        for d in self.differences[:5]:
            print(f"    {d}")
        return not self.differences and self.games >= minimum


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--min", type=int, default=None, help="games each reader must compare (default: the sample, else 1)")
    ap.add_argument("--creversi", default="absent")
    args = ap.parse_args()
    minimum = args.min if args.min is not None else (args.sample or 1)
    folder: Path = args.folder
    years = sorted(p.stem for p in folder.glob("*.jsonl") if "." not in p.stem)
    sgf_readers = {
        "sgfmill (SGF)": sgfmill_games,
        "PyPI sgf (SGF)": pypi_sgf_games,
        "sgf-parse crate (SGF)": lambda p: jsonl(p.with_suffix(".sgf.crate.jsonl")),
    }
    tallies = {name: Tally(name) for name in [*sgf_readers, "wthor crate (WTHOR)"]}
    budget = args.sample or None
    for year in years:
        want = truth(folder, year)
        if budget is not None:
            want = want[:budget]
            budget -= len(want)
        original = jsonl(folder / f"{year}.original.crate.jsonl")
        sgf_path = folder / f"{year}.sgf"
        if len(original) < len(want):
            # The results' oracle: without it no result would be compared.
            for t in tallies.values():
                t.differences.append(
                    f"{year}: the wthor crate read {len(original)} of the original's games, {len(want)} needed for the results"
                )
        for name, read in sgf_readers.items():
            t = tallies[name]
            try:
                got = read(sgf_path)
            except Exception as e:  # a reader that fails reads nothing, and says why
                t.differences.append(f"{year}: the reader failed: {e}")
                got = []
            if len(got) < len(want):
                t.differences.append(f"{year}: read {len(got)} games, wrote {len(want)}")
            for i, (g, w) in enumerate(zip(got, want)):
                t.games += 1
                t.check(i, f"{year} black", g["black"], w["black"])
                t.check(i, f"{year} white", g["white"], w["white"])
                moves = ["pass" if m in ("PA", "tt", "") else m for m in g["moves"]]
                t.check(i, f"{year} moves", moves, w["moves"])
                if i < len(original):
                    score = int(original[i]["result"].split()[1])
                    t.check(i, f"{year} result", margin_of(g["result"]), 2 * score - 64)
        t = tallies["wthor crate (WTHOR)"]
        got = jsonl(folder / f"{year}.wthor.crate.jsonl")
        if len(got) < len(want):
            t.differences.append(f"{year}: read {len(got)} games, wrote {len(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            t.games += 1
            t.check(i, f"{year} black", g["black"], w["black"])
            t.check(i, f"{year} white", g["white"], w["white"])
            t.check(i, f"{year} moves", g["moves"], [m for m in w["moves"] if m != "pass"])
            if i < len(original):
                t.check(i, f"{year} result", g["result"], original[i]["result"])
        if budget == 0:
            break
    ok = all([t.report(minimum) for t in tallies.values()])
    if args.creversi == "absent":
        print(f"{'creversi (GGF, move strings)':<34} skipped: its only release (0.0.1) does not build")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
