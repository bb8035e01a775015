"""Dice as multisets for the solver: every roll and keep of n dice, and the moves
between them, as index arrays numpy can gather with.

Keeps are ordered by size, then faces, so the keeps of one size are one block of rows
and the rolls (keeps of every die) the last block. The turn's two passes, ``expect``
and ``best_keep``, work on arrays with a row per keep and a column per position: every
gather then copies whole contiguous rows, the fastest thing numpy does, a block of
keeps at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

Multiset = tuple[int, ...]  # sorted faces


@dataclass(frozen=True)
class DiceSpace:
    count: int
    keeps: tuple[Multiset, ...]  # every multiset of 0..count dice, by size then faces
    size: np.ndarray  # (K,) dice in each keep
    rolls: np.ndarray  # (R,) keep index of every full roll: the last block
    starts: tuple[int, ...]  # keeps of size s are rows starts[s]:starts[s + 1]
    children: np.ndarray  # (K, 6) index of keep + face; -1 for full keeps
    parents: np.ndarray  # (K, 6) index of keep - face, or K (an always-minus-infinity row)
    roll_probability: np.ndarray  # (R,) chance of each roll of all dice
    index: dict[Multiset, int]

    @property
    def roll_multisets(self) -> list[Multiset]:
        return [self.keeps[k] for k in self.rolls]

    @property
    def rows(self) -> int:
        """Rows of a work array: one per keep, and the minus-infinity row."""
        return len(self.keeps) + 1


def probability(faces: Multiset) -> float:
    """The chance of rolling exactly the multiset ``faces`` with len(faces) dice."""
    arrangements = factorial(len(faces))
    for face in set(faces):
        arrangements //= factorial(faces.count(face))
    return arrangements / 6 ** len(faces)


@cache
def dice_space(count: int) -> DiceSpace:
    keeps = [
        combo
        for size in range(count + 1)
        for combo in combinations_with_replacement(range(1, 7), size)
    ]
    index = {keep: i for i, keep in enumerate(keeps)}
    total = len(keeps)
    children = np.full((total, 6), -1, dtype=np.int64)
    parents = np.full((total, 6), total, dtype=np.int64)
    for i, keep in enumerate(keeps):
        if len(keep) < count:
            for face in range(1, 7):
                children[i, face - 1] = index[tuple(sorted((*keep, face)))]
        for j, face in enumerate(sorted(set(keep))):
            smaller = list(keep)
            smaller.remove(face)
            parents[i, j] = index[tuple(smaller)]
    sizes = np.array([len(k) for k in keeps])
    rolls = np.flatnonzero(sizes == count)
    return DiceSpace(
        count=count,
        keeps=tuple(keeps),
        size=sizes,
        rolls=rolls,
        starts=tuple(int(np.searchsorted(sizes, s)) for s in range(count + 2)),
        children=children,
        parents=parents,
        roll_probability=np.array([probability(keeps[r]) for r in rolls]),
        index=index,
    )


def work_array(space: DiceSpace, positions: int, dtype: type = np.float32) -> np.ndarray:
    """(K + 1, B) rows for ``expect_rows`` and ``best_keep_rows``: the rolls' block is
    where a pass starts and ends, the last row stays minus infinity."""
    work: np.ndarray = np.empty((space.rows, positions), dtype=dtype)
    work[-1] = -np.inf
    return work


def roll_block(space: DiceSpace, work: np.ndarray) -> np.ndarray:
    """The rows of ``work`` that hold the rolls (a view)."""
    return work[space.starts[space.count] : space.starts[space.count + 1]]


def expect_rows(space: DiceSpace, work: np.ndarray) -> None:
    """Fill every smaller keep's row of ``work`` with its expected value, rolling the
    missing dice, from the rolls' rows: a keep is worth the mean over the next die of
    the keep with that die added. In place.

    A child at a time (each a gather of whole rows, added into the block): one
    (keeps, 6, columns) gather summed over its middle axis took 2.4 times as long, its
    temporary six times the block and out of the caches."""
    for size in range(space.count - 1, -1, -1):
        low, high = space.starts[size], space.starts[size + 1]
        children = _children_of_size(space.count, size)
        block = work[low:high]
        np.add(work[children[0]], work[children[1]], out=block)
        for face in children[2:]:
            block += work[face]
        block /= 6  # not * (1 / 6): a float32 sixth is rounded up, a bias every layer adds up


def best_keep_rows(space: DiceSpace, work: np.ndarray) -> None:
    """Turn every keep's row of ``work`` (its value) into the value of its best
    sub-keep: itself or the best inside one die fewer. In place, smallest first, so the
    rolls' rows end up holding the value of standing on each roll. A parent at a time,
    as ``expect_rows`` takes the children."""
    for size in range(1, space.count + 1):
        low, high = space.starts[size], space.starts[size + 1]
        parents = _parents_of_size(space.count, size)
        block = work[low:high]
        for face in parents:
            np.maximum(block, work[face], out=block)


def expect(space: DiceSpace, roll_values: np.ndarray) -> np.ndarray:
    """Expected value of every keep, rolling the missing dice: (B, R) -> (B, K)."""
    work = work_array(space, roll_values.shape[0], roll_values.dtype.type)
    roll_block(space, work)[:] = roll_values.T
    expect_rows(space, work)
    return work[:-1].T.copy()


def best_keep(space: DiceSpace, keep_values: np.ndarray) -> np.ndarray:
    """For every roll, the value of its best sub-keep: (B, K) -> (B, R)."""
    work = work_array(space, keep_values.shape[0], keep_values.dtype.type)
    work[:-1] = keep_values.T
    best_keep_rows(space, work)
    return roll_block(space, work).T.copy()


@cache
def _children_of_size(count: int, size: int) -> np.ndarray:
    """(6, n) the children of the n keeps of ``size``, a row per face added."""
    space = dice_space(count)
    return np.ascontiguousarray(space.children[space.starts[size] : space.starts[size + 1]].T)


@cache
def _parents_of_size(count: int, size: int) -> np.ndarray:
    """(m, n) the parents of the n keeps of ``size``, a row per face taken away: a
    keep of that many dice has at most min(size, 6) distinct faces, so as many parents."""
    space = dice_space(count)
    rows = space.parents[space.starts[size] : space.starts[size + 1], : min(size, 6)]
    return np.ascontiguousarray(rows.T)


def sub_multisets(dice: Multiset) -> list[Multiset]:
    """Every keep inside ``dice``, smallest first."""
    keeps: set[Multiset] = {()}
    for face in dice:
        keeps |= {tuple(sorted((*keep, face))) for keep in keeps}
    return sorted(keeps, key=lambda keep: (len(keep), keep))


def positions_of(keep: Multiset, dice: tuple[int, ...]) -> tuple[int, ...]:
    """Positions (0-based) of dice showing ``keep``, first matching die first."""
    remaining = list(keep)
    positions = []
    for index, face in enumerate(dice):
        if face in remaining:
            remaining.remove(face)
            positions.append(index)
    return tuple(positions)
