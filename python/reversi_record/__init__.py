"""Read, write, validate and convert Reversi/Othello game records of every variant.

A thin layer over the Rust library ``reversi-record``: every rule and format is the
library's.

>>> import reversi_record as rr
>>> games = list(rr.read(b"f5d6c3d3c4\\n"))
>>> games[0].moves
['f5', 'd6', 'c3', 'd3', 'c4']
>>> rr.Position().play("f5")
['e5']
"""

from __future__ import annotations

from . import errors, scenario
from ._native import (
    Dataset,
    Findings,
    Game,
    Position,
    Reader,
    Rules,
    Validation,
    convert,
    read,
    repair,
    repair_files,
    standings,
    validate,
    write,
)
from .augment import augment
from .diagnostics import Diagnostic
from .datasets import dataset, to_numpy
from .arrow import to_arrow
from .table import games
from .errors import (
    FormatError,
    IllegalMoveError,
    ReadError,
    ReversiError,
    RulesError,
    ScenarioError,
    StandingsError,
    UsageError,
    WriteError,
    WriteRefused,
)

__all__ = [
    "convert",
    "repair",
    "repair_files",
    "standings",
    "scenario",
    "to_arrow",
    "games",
    "Dataset",
    "dataset",
    "to_numpy",
    "augment",
    "Diagnostic",
    "Game",
    "Position",
    "Reader",
    "Rules",
    "Validation",
    "Findings",
    "read",
    "write",
    "validate",
    "errors",
    "FormatError",
    "IllegalMoveError",
    "ReadError",
    "ReversiError",
    "RulesError",
    "ScenarioError",
    "StandingsError",
    "UsageError",
    "WriteError",
    "WriteRefused",
]
