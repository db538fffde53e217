"""Games as Arrow tables (pyarrow, when installed): Parquet and Hugging Face datasets follow."""

from __future__ import annotations


def to_arrow(games, boards: bool = False):
    """One row a game: ``moves`` (list<int16>, the plies replayed and the rest as written,
    ``row * side + col``, -2 a pass), ``lengths``, ``valid``, ``over``, ``margin``,
    ``winner`` and, with ``boards=True``, ``boards`` (list of int8 boards, flattened
    rows x cols per position). The arrays come from ``to_numpy``; this only wraps them."""
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_arrow needs pyarrow: pip install pyarrow") from e
    from ._native import to_numpy

    data = to_numpy(games, boards=boards)
    moves = data["moves"]
    n, plies = moves.shape
    written = (moves != -1).sum(axis=1)
    offsets = [0]
    flat = []
    for g in range(n):
        flat.append(moves[g, : written[g]])
        offsets.append(offsets[-1] + int(written[g]))
    import numpy as np

    values = pa.array(np.concatenate(flat) if flat else np.zeros(0, np.int16), type=pa.int16())
    columns = {
        "moves": pa.ListArray.from_arrays(pa.array(offsets, type=pa.int32()), values),
        "lengths": pa.array(data["lengths"]),
        "valid": pa.array(data["valid"]),
        "over": pa.array(data["over"]),
        "margin": pa.array(data["margin"]),
        "winner": pa.array(data["winner"]),
    }
    if boards:
        cells = data["side"] * data["side"]
        b = data["boards"].reshape(n, plies + 1, cells)
        per_game = []
        for g in range(n):
            per_game.append(b[g, : data["lengths"][g] + 1].tolist())
        columns["boards"] = pa.array(per_game, type=pa.list_(pa.list_(pa.int8())))
    return pa.table(columns)
