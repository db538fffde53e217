"""``dataset`` and ``to_numpy``: the native calls (``_native``), with the augmentation
options (``symmetry``, ``relative``: ``reversi_record.augment``) applied to their arrays."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Optional, Sequence, Union, overload

import numpy as np

from . import _native
from .augment import Augmented, Symmetry, augment, check

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]
Seed = Union[int, np.random.Generator, None]


@overload
def dataset(
    paths: Paths,
    chunk: None = None,
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    format: Optional[str] = None,
    rules: Optional[Union[_native.Rules, str]] = None,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
    symmetry: Symmetry = None,
    relative: bool = False,
    seed: Seed = None,
) -> dict[str, Any]: ...
@overload
def dataset(
    paths: Paths,
    chunk: int,
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    format: Optional[str] = None,
    rules: Optional[Union[_native.Rules, str]] = None,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
    symmetry: Symmetry = None,
    relative: bool = False,
    seed: Seed = None,
) -> Iterator[dict[str, Any]]: ...
def dataset(
    paths: Paths,
    chunk: Optional[int] = None,
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    format: Optional[str] = None,
    rules: Optional[Union[_native.Rules, str]] = None,
    jobs: Optional[int] = None,
    names: Optional[PathLike] = None,
    symmetry: Symmetry = None,
    relative: bool = False,
    seed: Seed = None,
) -> Union[dict[str, Any], Iterator[dict[str, Any]]]:
    """The games of the files ``paths`` as ``to_numpy``'s arrays: one dict of every game,
    or with ``chunk`` an iterator of dicts of at most ``chunk`` games (a ``Dataset``).
    ``symmetry`` (0-7 or ``"random"``, drawn per game from ``seed``) and ``relative``
    (planes from the side to move) augment the arrays (``reversi_record.augment``)."""
    check(symmetry, relative, planes)
    data = _native.dataset(paths, chunk, boards, planes, legal, format, rules, jobs, names)
    if symmetry is None and not relative:
        return data
    if isinstance(data, dict):
        return augment(data, symmetry, relative, seed)
    return Augmented(data, symmetry, relative, seed)


dataset.__doc__ = (dataset.__doc__ or "") + "\n\n" + (_native.dataset.__doc__ or "")


def to_numpy(
    games: Union[_native.Reader, Iterable[_native.Game]],
    boards: bool = True,
    planes: bool = False,
    legal: bool = False,
    jobs: Optional[int] = None,
    symmetry: Symmetry = None,
    relative: bool = False,
    seed: Seed = None,
) -> dict[str, Any]:
    """The games (a ``Reader``, taken through its views, or ``Game``s) as numpy arrays;
    ``symmetry`` and ``relative`` as for ``dataset``."""
    check(symmetry, relative, planes)
    data = _native.to_numpy(games, boards, planes, legal, jobs)
    if symmetry is None and not relative:
        return data
    return augment(data, symmetry, relative, seed)


to_numpy.__doc__ = (to_numpy.__doc__ or "") + "\n\n" + (_native.to_numpy.__doc__ or "")

__all__ = ["dataset", "to_numpy"]
