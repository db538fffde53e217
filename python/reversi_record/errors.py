"""The exceptions of reversi_record; each carries the diagnostic ``code``."""

from __future__ import annotations


class ReversiError(Exception):
    """Base class: ``message``, ``code`` (a diagnostic code such as ``"illegal-move"``)."""

    def __init__(self, message: str, code: str, **extra):
        super().__init__(message)
        self.message = message
        self.code = code
        for key, value in extra.items():
            setattr(self, key, value)

    def __str__(self) -> str:
        return self.message


class UsageError(ReversiError, ValueError):
    """An argument the call cannot take."""


class RulesError(ReversiError, ValueError):
    """A rules string that names no rules (``code`` ``"bad-rules"``)."""


class IllegalMoveError(ReversiError, ValueError):
    """A move the rules do not allow (``"illegal-move"``, ``"illegal-pass"``) or a square
    name that is not one (``"syntax-bad-move"``)."""


class FormatError(ReversiError, ValueError):
    """A format name that names none, or an input whose format is not recognised
    (``"unknown-format"``)."""


class ReadError(ReversiError, OSError):
    """An input that could not be read (``"io"``), or a game that could not be read at all
    (``code`` is its first diagnostic's)."""

    def __init__(self, message: str, code: str, **extra):
        OSError.__init__(self, message)
        self.message = message
        self.code = code
        for key, value in extra.items():
            setattr(self, key, value)


class WriteError(ReversiError, OSError):
    """A file that could not be written (``"io"``); the message names its path once."""

    def __init__(self, message: str, code: str, **extra):
        OSError.__init__(self, message)
        self.message = message
        self.code = code
        for key, value in extra.items():
            setattr(self, key, value)


class WriteRefused(ReversiError):
    """A format that cannot hold part of a game: ``lost`` names the parts, ``code`` says
    why (``"cannot-hold"``: ``lossy=True`` would drop them; ``"changes-meaning"``,
    ``"needs-setting"``, ``"hides-errors"``: refused even so), ``lossy_helps`` whether
    ``lossy=True`` writes the game."""

    lost: list[str]
    lossy_helps: bool


class ScenarioError(ReversiError, ValueError):
    """A rule scenario that does not parse or run."""


class StandingsError(ReversiError, ValueError):
    """Games that give no standings."""


__all__ = [
    "ReversiError",
    "UsageError",
    "RulesError",
    "IllegalMoveError",
    "FormatError",
    "ReadError",
    "WriteError",
    "WriteRefused",
    "ScenarioError",
    "StandingsError",
]
