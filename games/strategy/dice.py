"""Dice as multisets for the solver: every roll and keep of n dice, and the moves
between them, as index arrays numpy can gather with."""

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
    rolls: np.ndarray  # (R,) keep index of every full roll
    children: np.ndarray  # (K, 6) index of keep + face; -1 for full keeps
    parents: np.ndarray  # (K, 6) index of keep - face, or K (an always-minus-infinity slot)
    roll_probability: np.ndarray  # (R,) chance of each roll of all dice
    index: dict[Multiset, int]

    @property
    def roll_multisets(self) -> list[Multiset]:
        return [self.keeps[k] for k in self.rolls]


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
    rolls = np.array([i for i, keep in enumerate(keeps) if len(keep) == count])
    return DiceSpace(
        count=count,
        keeps=tuple(keeps),
        size=np.array([len(k) for k in keeps]),
        rolls=rolls,
        children=children,
        parents=parents,
        roll_probability=np.array([probability(keeps[r]) for r in rolls]),
        index=index,
    )


def expect(space: DiceSpace, roll_values: np.ndarray) -> np.ndarray:
    """Expected value of every keep, rolling the missing dice: (B, R) -> (B, K).

    A keep's value is the mean over the next die of the keep with that die added,
    from full keeps (the rolls themselves) down to the empty keep.
    """
    values = np.empty((roll_values.shape[0], len(space.keeps)), dtype=roll_values.dtype)
    values[:, space.rolls] = roll_values
    for size in range(space.count - 1, -1, -1):
        keeps = _of_size(space, size)
        total = values[:, space.children[keeps, 0]]
        for face in range(1, 6):
            total += values[:, space.children[keeps, face]]
        values[:, keeps] = total / 6
    return values


def best_keep(space: DiceSpace, keep_values: np.ndarray) -> np.ndarray:
    """For every roll, the value of its best sub-keep: (B, K) -> (B, R).

    The best keep inside a multiset is itself or the best inside one die fewer.
    """
    batch = keep_values.shape[0]
    best = np.empty((batch, len(space.keeps) + 1), dtype=keep_values.dtype)
    best[:, -1] = -np.inf
    best[:, 0] = keep_values[:, 0]
    for size in range(1, space.count + 1):
        keeps = _of_size(space, size)
        level = keep_values[:, keeps]
        for j in range(min(size, 6)):  # a keep of n dice has at most n distinct faces
            np.maximum(level, best[:, space.parents[keeps, j]], out=level)
        best[:, keeps] = level
    return best[:, space.rolls]


@cache
def _keeps_of_size(count: int, size: int) -> np.ndarray:
    space = dice_space(count)
    return np.flatnonzero(space.size == size)


def _of_size(space: DiceSpace, size: int) -> np.ndarray:
    return _keeps_of_size(space.count, size)


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
