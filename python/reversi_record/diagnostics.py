"""Diagnostics as objects: what a reader or the replay found, with its code, the game it is
in, the move, the place in the text and the help, as attributes. A ``Diagnostic`` is also a
read-only mapping in the JSON shape of ``reversi validate --format json`` (spec/validate.md),
so ``d["code"]``, ``dict(d)`` and ``d.to_dict()`` give what the dicts of earlier versions
gave."""

from __future__ import annotations

from typing import Any, Iterator, Mapping, NamedTuple, Optional


class Span(NamedTuple):
    """Where in the input the finding is: a byte ``offset`` and a ``length``."""

    offset: int
    length: int


class Diagnostic(Mapping[str, Any]):
    """One finding: ``code`` (stable, ``reversi explain CODE`` says what it means),
    ``severity`` (``"error"``, ``"warning"``, ``"advice"``), ``message``, ``help``, the game
    (``file``, ``game`` its 1-based index, ``identity`` its players and event as the tags
    say them), the move (``ply``, inferred passes counted, and ``move``, among the moves
    written) and the place (``span``, ``line``, ``column``); each ``None`` when it does not
    apply."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)

    @property
    def code(self) -> str:
        return str(self._data["code"])

    @property
    def severity(self) -> str:
        return str(self._data["severity"])

    @property
    def message(self) -> str:
        return str(self._data.get("message", ""))

    @property
    def help(self) -> Optional[str]:
        return self._data.get("help")

    @property
    def file(self) -> Optional[str]:
        return self._data.get("file")

    @property
    def game(self) -> Optional[int]:
        return self._data.get("game")

    @property
    def identity(self) -> Optional[dict[str, str]]:
        identity = self._data.get("identity")
        return dict(identity) if identity is not None else None

    @property
    def ply(self) -> Optional[int]:
        return self._data.get("ply")

    @property
    def move(self) -> Optional[int]:
        return self._data.get("move")

    @property
    def span(self) -> Optional[Span]:
        span = self._data.get("span")
        return Span(span["offset"], span["length"]) if span is not None else None

    @property
    def line(self) -> Optional[int]:
        return self._data.get("line")

    @property
    def column(self) -> Optional[int]:
        return self._data.get("column")

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape, as a new dict."""
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in self._data.items()}

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Diagnostic, (self._data,))

    def __repr__(self) -> str:
        where = ""
        if self.file is not None:
            where = f" {self.file}"
            if self.line is not None:
                where += f":{self.line}:{self.column}"
        game = f" game {self.game}" if self.game is not None else ""
        move = f" move {self.move}" if self.move is not None else ""
        return f"<Diagnostic {self.severity} {self.code}{game}{move}{where}: {self.message}>"


__all__ = ["Diagnostic", "Span"]
