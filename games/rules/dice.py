"""Dice as the engine sees them: validated tuples of faces, counted by face."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from .errors import InvalidDice

FACES = (1, 2, 3, 4, 5, 6)


class DiceRandom(Protocol):
    """What the engine needs from a random generator (``random.Random``,
    ``secrets.SystemRandom``)."""

    def randint(self, a: int, b: int) -> int: ...


def check_dice(dice: Iterable[object], count: int) -> tuple[int, ...]:
    """Return ``dice`` as a tuple, or raise ``InvalidDice`` if it is not ``count`` faces."""
    try:
        values = tuple(dice)
    except TypeError:
        raise InvalidDice(count=count) from None
    if len(values) != count or not all(type(value) is int and 1 <= value <= 6 for value in values):
        raise InvalidDice(count=count)
    return values  # type: ignore[return-value]


def face_counts(dice: Sequence[int]) -> tuple[int, ...]:
    """Counts indexed by face: ``counts[f]`` is how many dice show ``f`` (index 0 unused)."""
    counts = [0] * 7
    for value in dice:
        counts[value] += 1
    return tuple(counts)


@runtime_checkable
class KeyedDice(Protocol):
    """Dice whose every face is fixed by where it is rolled: the game's turn (turns
    completed before it), the roll of the turn (1-3) and the die's position on the
    table (0-based; a held die keeps its position). ``games.rules.fairness``."""

    def randint(self, a: int, b: int) -> int: ...

    def face(self, turn: int, roll_number: int, position: int) -> int: ...


def roll_dice(
    rng: DiceRandom, turn: int, roll_number: int, positions: Sequence[int]
) -> tuple[int, ...]:
    """Fresh faces for the dice at ``positions`` of roll ``roll_number`` of ``turn``:
    asked of ``rng`` by position where it keys its dice so (``KeyedDice``), else drawn
    from it in position order."""
    if isinstance(rng, KeyedDice):
        return tuple(rng.face(turn, roll_number, position) for position in positions)
    return tuple(rng.randint(1, 6) for _ in positions)


class ScriptedDice:
    """A generator that hands out given faces in order: for replays and tests."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def randint(self, a: int, b: int) -> int:
        if self._next >= len(self._faces):
            raise LookupError("ScriptedDice ran out of faces")
        face = self._faces[self._next]
        self._next += 1
        if not a <= face <= b:
            raise ValueError(f"scripted face {face} outside {a}..{b}")
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next
