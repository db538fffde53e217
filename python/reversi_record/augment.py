"""Augmentation of datasets: the 8 symmetries of the square board, and planes relative to
the side to move. ``dataset(..., symmetry=, relative=)`` and ``to_numpy(...)`` apply them;
``augment(data, ...)`` applies them to arrays already built.

The symmetries are numbered as numpy writes them, on a board ``b`` (rows x cols):

====  =========================  ====  ==============================
0     ``b`` (identity)           4     ``np.flipud(b)``
1     ``np.rot90(b, 1)``         5     ``np.fliplr(b)``
2     ``np.rot90(b, 2)``         6     ``b.T`` (the a1-h8 diagonal)
3     ``np.rot90(b, 3)``         7     ``np.rot90(b, 2).T`` (the other)
====  =========================  ====  ==============================
"""

from __future__ import annotations

from typing import Any, Iterator, Union

import numpy as np
import numpy.typing as npt

#: The symmetries' count.
SYMMETRIES = 8

Symmetry = Union[int, str, None]


def transform(board: npt.NDArray[Any], k: int) -> npt.NDArray[Any]:
    """Symmetry ``k`` of the board (or boards: the last two axes), as a view."""
    if k < 4:
        return np.rot90(board, k, axes=(-2, -1))
    if k == 4:
        return board[..., ::-1, :]
    if k == 5:
        return board[..., :, ::-1]
    if k == 6:
        return np.swapaxes(board, -1, -2)
    return np.swapaxes(np.rot90(board, 2, axes=(-2, -1)), -1, -2)


def _cells(side: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int16]]:
    """Per symmetry, the old cell of each new cell (``gather``), and the new cell of each old
    cell (``moved``)."""
    cells = np.arange(side * side).reshape(side, side)
    gather = np.stack([transform(cells, k).ravel() for k in range(SYMMETRIES)])
    moved = np.empty_like(gather)
    for k in range(SYMMETRIES):
        moved[k, gather[k]] = np.arange(side * side)
    return gather.astype(np.intp), moved.astype(np.int16)


def augment(
    data: dict[str, Any],
    symmetry: Symmetry = None,
    relative: bool = False,
    seed: Union[int, np.random.Generator, None] = None,
) -> dict[str, Any]:
    """The arrays of ``data`` (from ``dataset`` or ``to_numpy``) with each game's board seen
    through a symmetry, and with ``relative=True`` the planes in turn order from the side to
    move (plane 0 the mover's discs; needs ``planes=True``). ``symmetry`` is a number 0-7
    (every game), ``"random"`` (one drawn per game, from ``seed``) or ``None``; the
    symmetry of each game is in ``data["symmetry"]`` (int8). ``moves`` and ``legal`` are
    transformed with the boards; passes, padding, ``turn`` and the results are not."""
    out = dict(data)
    moves = data["moves"]
    games = moves.shape[0]
    side = int(data["side"])
    if symmetry is not None:
        if symmetry == "random":
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            ks = rng.integers(0, SYMMETRIES, size=games).astype(np.int8)
        elif isinstance(symmetry, (int, np.integer)) and 0 <= int(symmetry) < SYMMETRIES:
            ks = np.full(games, int(symmetry), np.int8)
        else:
            from .errors import UsageError

            raise UsageError(f"symmetry: expected 0-7, 'random' or None, got {symmetry!r}", "usage")
        gather, moved = _cells(side)
        placed = moves >= 0
        new_moves = moves.copy()
        new_moves[placed] = moved[np.broadcast_to(ks[:, None], moves.shape)[placed], moves[placed]]
        out["moves"] = new_moves
        index = gather[ks.astype(np.intp)]  # games x cells
        for name in ("boards", "legal"):
            if name not in data:
                continue
            a = data[name]
            flat = a.reshape(a.shape[:-2] + (side * side,))
            shape = (games,) + (1,) * (flat.ndim - 2) + (side * side,)
            out[name] = np.take_along_axis(flat, index.reshape(shape), axis=-1).reshape(a.shape)
        out["symmetry"] = ks
    if relative:
        boards = out.get("boards")
        if boards is None or boards.ndim != 5:
            from .errors import UsageError

            raise UsageError("relative=True needs the planes (planes=True)", "usage")
        colors = boards.shape[2]
        turn = data["turn"].astype(np.intp)
        first = np.where(turn >= 0, turn, 0)  # after the end: in colour order
        order = (first[..., None] + np.arange(colors)) % colors  # games x positions x colours
        out["boards"] = np.take_along_axis(boards, order[..., None, None], axis=2)
    return out


class Augmented(Iterator[dict[str, Any]]):
    """Chunks of a ``Dataset``, augmented as they come (``dataset(..., chunk=N,
    symmetry=..., relative=...)``); a random symmetry draws from one generator."""

    def __init__(self, chunks: Iterator[dict[str, Any]], symmetry: Symmetry, relative: bool, seed: Union[int, np.random.Generator, None]):
        self._chunks = chunks
        self._symmetry = symmetry
        self._relative = relative
        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def __iter__(self) -> "Augmented":
        return self

    def __next__(self) -> dict[str, Any]:
        return augment(next(self._chunks), self._symmetry, self._relative, self._rng)

    def __repr__(self) -> str:
        return f"<Augmented {self._chunks!r}, symmetry {self._symmetry!r}, relative {self._relative}>"


def check(symmetry: Symmetry, relative: bool, planes: bool) -> None:
    """Refuses options that cannot go together, before any work."""
    from .errors import UsageError

    if relative and not planes:
        raise UsageError("relative=True needs the planes (planes=True)", "usage")
    if symmetry is not None and symmetry != "random":
        if not isinstance(symmetry, (int, np.integer)) or not 0 <= int(symmetry) < SYMMETRIES:
            raise UsageError(f"symmetry: expected 0-7, 'random' or None, got {symmetry!r}", "usage")


__all__ = ["augment", "transform", "SYMMETRIES", "Augmented"]
