"""Dice as the engine sees them: validated tuples of faces, counted by face."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from .errors import InvalidDice

FACES = (1, 2, 3, 4, 5, 6)


class Dice(Protocol):
    """Where the engine's dice come from. Every face is asked for by where it is
    rolled: the game's turn (turns completed before it), the roll of the turn (1-3)
    and the die's position on the table (0-based; a held die keeps its position).
    A game's committed dice follow from those alone (``fairness.CommittedDice``);
    scripted dice and a seeded generator hand out faces in the order asked."""

    def face(self, turn: int, roll_number: int, position: int) -> int: ...


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


def roll_dice(dice: Dice, turn: int, roll_number: int, positions: Sequence[int]) -> tuple[int, ...]:
    """Fresh faces for the dice at ``positions`` of roll ``roll_number`` of ``turn``."""
    return tuple(dice.face(turn, roll_number, position) for position in positions)


class ScriptedDice:
    """Given faces, handed out in the order asked, wherever they are rolled: for
    replays and tests."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def face(self, turn: int, roll_number: int, position: int) -> int:
        if self._next >= len(self._faces):
            raise LookupError("ScriptedDice ran out of faces")
        face = self._faces[self._next]
        self._next += 1
        if face not in FACES:
            raise ValueError(f"scripted face {face} is not a die's")
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next


class RandomDice:
    """Faces drawn from a generator in the order asked, wherever they are rolled:
    ``random.Random(seed)`` for tests and simulations, ``secrets.SystemRandom()``
    for games made before dice were committed."""

    def __init__(self, generator: random.Random) -> None:
        self._generator = generator

    def face(self, turn: int, roll_number: int, position: int) -> int:
        return self._generator.randint(1, 6)
