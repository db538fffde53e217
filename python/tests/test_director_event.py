"""Issue 48's end-to-end event through Python (`fixtures/director-event/README.md`): the
folder the director's fixes make (`fixed/`) ranks as worked out by hand
(`expected-standings.csv`), and `standings(...)["json"]` is what `reversi standings
--format json` writes for the same files, byte for byte."""

import json
import subprocess
from pathlib import Path

import reversi_record as rr
from conftest import FIXTURES, ROOT, reversi_cli

EVENT = FIXTURES / "director-event"
FIXED = EVENT / "fixed"
# The record files of `fixed/`, in the order a folder walk reads them (by path).
SHEETS = [
    "round-1.rgn",
    "round-2.pgn",
    "round-3.rgn",
    "round-4-board-3.txt",
    "round-4-ggs.rgn",
    "round-4.rgn",
    "round-5-board-1-finished.rgn",
    "round-5-board-4.rgn",
    "round-5.rgn",
    "side-10x10.rgn",
]
COLUMNS = ["number", "rank", "name", "points", "bq", "discs", "games", "wins", "draws", "losses", "byes", "black", "white"]


def sheets():
    return [str(FIXED / name) for name in SHEETS]


def ranked(sheet_paths):
    return rr.standings(sheet_paths, players=FIXED / "players.csv", pairings=FIXED / "appariements.csv")


def text(value):
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)


def rows_of(report):
    """Each event's players as `reversi standings --format csv` writes them."""
    tables = []
    for event in report["events"]:
        rows = []
        for p in event["standings"]["players"]:
            row = [event["event"]] + [text(p[c]) for c in COLUMNS]
            row.append("yes" if p["withdrawn"] else "no")
            row += [cell["text"] if cell else "-" for cell in p["rounds"]]
            rows.append(row)
        tables.append(rows)
    return tables


def expected_rows():
    by_hand = (EVENT / "expected-standings.csv").read_text(encoding="utf-8")
    return [[line.split(",") for line in table.splitlines()[1:]] for table in by_hand.split("\n\n")]


def test_the_fixed_event_ranks_as_worked_out_by_hand():
    s = ranked(sheets())
    assert s["problems"] == []
    assert [(e["event"], e["squares"], e["problems"]) for e in s["events"]] == [
        ("Porto Spring Cup 2026 (othello)", 64, []),
        ("Porto Spring Cup 2026 (othello:10x10)", 100, []),
    ]
    assert rows_of(json.loads(s["json"])) == expected_rows()
    assert s["csv"] == (EVENT / "expected-standings.csv").read_text(encoding="utf-8")
    # The adjourned game's first part is left out, and said so.
    (note,) = s["notes"]
    assert "an unfinished record (an adjourned game)" in note and "round-5-board-1-finished.rgn" in note


def test_the_fixed_event_is_the_command_lines_report_byte_for_byte():
    root = Path(ROOT)
    reversi = reversi_cli(root)
    cli = subprocess.run(
        [
            reversi,
            "standings",
            "-q",
            "--format",
            "json",
            "--players",
            str(FIXED / "players.csv"),
            "--pairings",
            str(FIXED / "appariements.csv"),
            *sheets(),
        ],
        capture_output=True,
        check=True,
    )
    assert ranked(sheets())["json"].encode() == cli.stdout
