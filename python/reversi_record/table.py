"""The archive as one table: ``games(paths)`` gives a pyarrow table, a row a game.

The columns are built in Rust from the library's readers (a WTHOR record never becomes a
``Game``) as Arrow buffers; this module only wraps them, without copying. pandas and polars
take the table as it is: ``table.to_pandas()``, ``polars.from_arrow(table)``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

    from ._native import Rules

#: The columns of ``games()``, in order (``valid``, ``finished``, ``plies`` with
#: ``replay=True``, ``tags`` with ``tags=True``).
COLUMNS = (
    "file",
    "index",
    "black",
    "white",
    "event",
    "date",
    "round",
    "board",
    "rules",
    "result",
    "black_discs",
    "white_discs",
    "margin",
    "termination",
    "moves",
    "valid",
    "finished",
    "plies",
    "tags",
)


def _pyarrow():
    try:
        import pyarrow
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "reversi_record.games needs pyarrow: pip install pyarrow (or reversi-record[arrow])"
        ) from e
    return pyarrow


def _bitmap(pa, valid):
    """A validity bitmap of a numpy bool array (``None`` when every value is there)."""
    import numpy as np

    if valid.all():
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def _strings(pa, n, column):
    return pa.LargeStringArray.from_buffers(
        n,
        pa.py_buffer(column["offsets"]),
        pa.py_buffer(column["data"]),
        _bitmap(pa, column["valid"]),
    )


def _numbers(pa, values, valid=None):
    import numpy as np

    if valid is None or valid.all():
        return pa.array(values)
    return pa.array(values, mask=~np.asarray(valid))


def games(
    paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    names: Optional[Union[str, "os.PathLike[str]"]] = None,
    format: Optional[str] = None,
    rules: Optional[Union["Rules", str]] = None,
    jobs: Optional[int] = None,
    replay: bool = True,
    tags: bool = False,
) -> "pyarrow.Table":
    """Every game of the files ``paths`` as a pyarrow table, one row a game, in input
    order (inputs on ``jobs`` threads, default every core).

    ``file`` and ``index`` (1-based in its file) identify a game, as ``dataset()``'s arrays
    of the same names do; ``black``, ``white``, ``event``, ``date``, ``round``, ``board``
    are the identity tags (null when the record does not say them; WTHOR's names through
    its name files, ``names=`` as for ``read``); ``rules`` the rules string; ``result`` the
    claimed result as written (``"41-23"``, ``"B+R"``), ``black_discs`` and
    ``white_discs`` its disc counts, ``margin`` Black's minus White's (a margin claimed
    as such too), ``termination`` how the record says the game ended (``normal``,
    ``resignation``, ``time``, ``unfinished``, ``agreement``); ``moves`` the moves as
    written (list of int16 ``row * side + col``, -2 a pass). With ``replay=True`` the moves
    are replayed (the library's bitboards, no board kept): ``valid`` (every move legal),
    ``finished`` (the last position is over: nobody can move) and ``plies`` (moves
    replayed legally, passes the record leaves out included). ``tags=True`` adds ``tags``,
    every tag as written (a map of name to value).
    """
    pa = _pyarrow()
    from ._native import _games_columns

    c = _games_columns(
        paths, format=format, rules=rules, names=names, jobs=jobs, replay=replay, tags=tags
    )
    n = c["length"]
    columns: dict[str, Any] = {"file": _strings(pa, n, c["file"]), "index": pa.array(c["index"])}
    for name in ("black", "white", "event", "date", "round", "board", "rules", "result"):
        columns[name] = _strings(pa, n, c[name])
    columns["black_discs"] = _numbers(pa, c["black_discs"], c["discs_valid"])
    columns["white_discs"] = _numbers(pa, c["white_discs"], c["discs_valid"])
    columns["margin"] = _numbers(pa, c["margin"], c["margin_valid"])
    columns["termination"] = _strings(pa, n, c["termination"])
    columns["moves"] = pa.LargeListArray.from_arrays(
        pa.array(c["move_offsets"]), pa.array(c["moves"])
    )
    if replay:
        for name in ("valid", "finished", "plies"):
            columns[name] = pa.array(c[name])
    if tags:
        names_ = c["tag_names"]
        values = c["tag_values"]
        count = len(names_["valid"])
        columns["tags"] = pa.MapArray.from_arrays(
            pa.array(c["tag_offsets"].astype("int32")),
            _strings(pa, count, names_).cast(pa.string()),
            _strings(pa, count, values).cast(pa.string()),
        )
    return pa.table(columns)


__all__ = ["games", "COLUMNS"]
