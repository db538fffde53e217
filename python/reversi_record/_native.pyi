"""Type stubs of the binding (reversi_record._native)."""

from __future__ import annotations

import os
from typing import IO, Any, Iterable, Iterator, Literal, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from .diagnostics import Diagnostic

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, bytes, IO[bytes]]
RulesLike = Union["Rules", str]
Paths = Union[PathLike, Sequence[PathLike]]

class Rules:
    """Rules of a variant and board, from a rules string (``"multi3:octagon"``)."""

    def __init__(self, text: str = "othello") -> None: ...
    @property
    def board(self) -> str: ...
    @property
    def side(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def colors(self) -> list[str]: ...
    @property
    def is_anti(self) -> bool: ...
    def start(self) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """A position of any variant with checked play."""

    def __init__(self, rules: Optional[RulesLike] = None) -> None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> str: ...
    @property
    def must_pass(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def flips(self, square: str) -> list[str]: ...
    def play(self, move_: Optional[str]) -> list[str]: ...
    def pass_(self) -> None: ...
    def outcome(self) -> Optional[dict[str, Any]]: ...
    def perft(self, depth: int, jobs: int = 1) -> int: ...
    def board(self) -> npt.NDArray[np.int8]: ...
    def discs(self, color: str) -> list[str]: ...
    def copy(self) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

class Game:
    """One game as read: rules, tags, moves, claimed result, diagnostics."""

    @staticmethod
    def from_moves(
        moves: Sequence[Optional[str]],
        rules: Optional[RulesLike] = None,
        tags: Optional[Sequence[tuple[str, str]]] = None,
    ) -> Game: ...
    @property
    def index(self) -> int: ...
    @property
    def file(self) -> str: ...
    @property
    def rules(self) -> Optional[Rules]: ...
    @property
    def tags(self) -> dict[str, str]: ...
    def tag(self, name: str) -> Optional[str]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def read_diagnostics(self) -> list[Diagnostic]: ...
    @property
    def is_valid(self) -> bool: ...
    @property
    def identity(self) -> Optional[dict[str, str]]: ...
    @property
    def text(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def positions(self) -> list[Position]: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Reader(Iterator[Game]):
    """The games of one input, read as they are asked for."""

    @property
    def format(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def file_diagnostics(self) -> list[Diagnostic]: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> Reader: ...
    def __exit__(self, kind: object, value: object, traceback: object) -> bool: ...
    def __iter__(self) -> Reader: ...
    def __next__(self) -> Game: ...

class Validation(Iterator[Diagnostic]):
    """A validation under way (``validate(..., stream=True)``): iterating yields each
    game's findings as the validator makes them, then the findings across games (with
    ``games``); ``summary`` is set once the last was taken. Ctrl-C, ``close()`` or leaving a
    ``with`` block stops the run."""

    @property
    def summary(self) -> Optional[dict[str, Any]]: ...
    @property
    def count(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> Validation: ...
    def __exit__(self, kind: object, value: object, traceback: object) -> bool: ...
    def __iter__(self) -> Validation: ...
    def __next__(self) -> Diagnostic: ...

class Findings(Sequence[Diagnostic]):
    """``validate()``'s ``diagnostics``: every game's findings in order, kept on disk (a
    line of JSON each in an unnamed temporary file, 8 bytes each in memory); a
    ``Diagnostic`` is made when it is asked for. ``len``, indexing, slices (lists),
    iteration and ``==`` with any sequence; ``list()`` makes a list, and a pickle or a copy
    is one."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Diagnostic: ...
    @overload
    def __getitem__(self, index: slice) -> list[Diagnostic]: ...
    def __iter__(self) -> Iterator[Diagnostic]: ...

class Dataset(Iterator[dict[str, Any]]):
    """Chunks of games as arrays (``dataset(..., chunk=N)``)."""

    def __iter__(self) -> Dataset: ...
    def __next__(self) -> dict[str, Any]: ...

def read(
    source: Source,
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    names: Optional[PathLike] = None,
) -> Reader: ...
@overload
def write(
    games: Iterable[Game],
    path: None = None,
    format: Optional[str] = None,
    lossy: bool = False,
    year: Optional[int] = None,
) -> bytes: ...
@overload
def write(
    games: Iterable[Game],
    path: PathLike,
    format: Optional[str] = None,
    lossy: bool = False,
    year: Optional[int] = None,
) -> list[str]: ...
@overload
def validate(
    paths: Paths,
    jobs: Optional[int] = None,
    allow: Sequence[str] = (),
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    pairings: Optional[PathLike] = None,
    players: Optional[PathLike] = None,
    names: Optional[PathLike] = None,
    stream: Literal[False] = False,
    output: Optional[PathLike] = None,
) -> dict[str, Any]: ...
@overload
def validate(
    paths: Paths,
    jobs: Optional[int] = None,
    allow: Sequence[str] = (),
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    pairings: Optional[PathLike] = None,
    players: Optional[PathLike] = None,
    names: Optional[PathLike] = None,
    *,
    stream: Literal[True],
    output: None = None,
) -> Validation: ...
@overload
def validate(
    paths: Paths,
    jobs: Optional[int] = None,
    allow: Sequence[str] = (),
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    pairings: Optional[PathLike] = None,
    players: Optional[PathLike] = None,
    names: Optional[PathLike] = None,
    stream: bool = False,
    output: Optional[PathLike] = None,
) -> Union[dict[str, Any], Validation]: ...
def to_numpy(
    games: Union[Reader, Iterable[Game]],
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    jobs: Optional[int] = None,
) -> dict[str, Any]: ...
@overload
def dataset(
    paths: Paths,
    chunk: None = None,
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
) -> dict[str, Any]: ...
@overload
def dataset(
    paths: Paths,
    chunk: int,
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
) -> Dataset: ...
def scenario_run(text: str) -> dict[str, Any]: ...
def standings(
    paths: Sequence[PathLike],
    event: Optional[str] = None,
    withdrawn: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
    pairings: Optional[PathLike] = None,
    players: Optional[PathLike] = None,
) -> dict[str, Any]: ...
def repair(game: Game, max_edits: int = 2) -> dict[str, Any]: ...
def repair_files(
    paths: Sequence[PathLike],
    output: PathLike,
    format: Optional[str] = None,
    lossy: bool = False,
    fix_result: bool = False,
    max_edits: int = 2,
    jobs: Optional[int] = None,
    rules: Optional[RulesLike] = None,
) -> dict[str, Any]: ...
def convert(
    paths: Sequence[PathLike],
    output: PathLike,
    format: Optional[str] = None,
    lossy: bool = False,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
    rules: Optional[RulesLike] = None,
    dedupe: Optional[str] = None,
) -> dict[str, Any]: ...
def _games_columns(
    paths: Paths,
    format: Optional[str] = None,
    rules: Optional[RulesLike] = None,
    names: Optional[PathLike] = None,
    jobs: Optional[int] = None,
    replay: bool = True,
    tags: bool = False,
) -> dict[str, Any]: ...
