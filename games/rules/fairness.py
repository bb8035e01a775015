"""Committed dice: every face of a game follows from a secret seed drawn when the game
is made, and the seed's SHA-256 (the "dice fingerprint") is shown before the first
roll. Once the game is over the seed is shown too, and anyone can check that it gives
the fingerprint and every roll of the game. docs/fairness.md gives the byte layout.

No Django here: ``verify`` checks a game as exported (the review's JSON download),
and ``python -m games.rules.fairness GAME.json`` does it from a file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .dice import Dice, RandomDice

FORMAT = "yatzy-dice-1"
SEED_BYTES = 32
# A byte of the MAC at or above this would favour the low faces (256 = 6 * 42 + 4):
# it is rejected and the next counter tried.
_ACCEPTED_BYTES = 6 * (256 // 6)


def new_seed() -> str:
    """A fresh secret seed, as 64 hexadecimal digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_bytes(seed: str) -> bytes:
    """The 32 bytes of a seed written as 64 hexadecimal digits; ``ValueError`` if not."""
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES:
        raise ValueError("a seed is 64 hexadecimal digits")
    return bytes.fromhex(seed)


def commitment(seed: str) -> str:
    """The seed's fingerprint: SHA-256 of its 32 bytes, in lowercase hexadecimal."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def message(turn: int, roll_number: int, position: int, counter: int) -> bytes:
    """What the MAC of one draw covers: four unsigned 32-bit big-endian integers."""
    return b"".join(n.to_bytes(4, "big") for n in (turn, roll_number, position, counter))


def face(key: bytes, turn: int, roll_number: int, position: int) -> int:
    """The face of the die at ``position`` in roll ``roll_number`` of ``turn``: the
    first byte of HMAC-SHA256(seed, message) for counter 0, 1, ... that is below 252,
    modulo 6, plus 1."""
    counter = 0
    while True:
        mac = hmac.digest(key, message(turn, roll_number, position, counter), "sha256")
        drawn = face_of_byte(mac[0])
        if drawn is not None:
            return drawn
        counter += 1


def face_of_byte(byte: int) -> int | None:
    """The face a MAC's first byte gives, or None for the four bytes that are drawn
    again: each face has 42 of the 252 bytes kept, so none is favoured."""
    return byte % 6 + 1 if byte < _ACCEPTED_BYTES else None


class CommittedDice:
    """A game's dice, drawn from its seed by where they are rolled (``dice.Dice``)."""

    def __init__(self, seed: str) -> None:
        self._key = seed_bytes(seed)

    def face(self, turn: int, roll_number: int, position: int) -> int:
        return face(self._key, turn, roll_number, position)


def dice_of_seed(seed: str) -> Dice:
    """The dice of a game committed to ``seed``; a game made before dice were
    committed has none, and its dice come from the system's secure generator."""
    return CommittedDice(seed) if seed else RandomDice(secrets.SystemRandom())


@dataclass(frozen=True)
class Roll:
    """One roll as the game logged it: the dice on the table after it, those held."""

    turn: int
    roll_number: int
    held: tuple[int, ...]
    dice: tuple[int, ...]

    def as_dict(self) -> dict:
        return {
            "turn": self.turn,
            "roll_number": self.roll_number,
            "held": list(self.held),
            "dice": list(self.dice),
        }


@dataclass(frozen=True)
class Verdict:
    """What a check found: ``ok`` when the seed gives the fingerprint and every roll;
    else ``problem`` says what did not match and ``bad_roll`` which roll (1-based in
    the game's order; None when the seed or the export itself is wrong)."""

    ok: bool
    rolls: int
    problem: str = ""
    bad_roll: int | None = None


def export(code: str, seed: str, fingerprint: str, rolls: Sequence[Roll]) -> dict:
    """A finished game's dice as the review's download holds them."""
    return {
        "format": FORMAT,
        "game": code,
        "commitment": fingerprint,
        "seed": seed,
        "rolls": [roll.as_dict() for roll in rolls],
    }


def verify(exported: object) -> Verdict:
    """Check an exported game (``export``): that its seed gives its commitment, and
    that every die rolled is the face the seed gives for its turn, roll and position
    (a held die keeps the face it had)."""
    try:
        seed, fingerprint, rolls = _parse(exported)
    except (KeyError, TypeError, ValueError) as error:
        return Verdict(False, 0, f"not an export of committed dice: {error}")
    key = seed_bytes(seed)
    if not hmac.compare_digest(hashlib.sha256(key).hexdigest(), fingerprint.lower()):
        return Verdict(False, len(rolls), "the seed does not give the dice fingerprint")
    previous: Roll | None = None
    for number, roll in enumerate(rolls, start=1):
        if roll.roll_number > 1:
            if previous is None or (previous.turn, previous.roll_number, len(previous.dice)) != (
                roll.turn,
                roll.roll_number - 1,
                len(roll.dice),
            ):
                return Verdict(False, len(rolls), f"roll {number} follows no roll", number)
        elif roll.held:
            return Verdict(False, len(rolls), f"roll {number} holds dice on a first roll", number)
        for position, value in enumerate(roll.dice):
            if position in roll.held:
                expected = previous.dice[position] if previous else 0
            else:
                expected = face(key, roll.turn, roll.roll_number, position)
            if value != expected:
                return Verdict(
                    False,
                    len(rolls),
                    f"roll {number} (turn {roll.turn + 1}, roll {roll.roll_number}):"
                    f" die {position + 1} shows {value}, the seed gives {expected}",
                    number,
                )
        previous = roll
    return Verdict(True, len(rolls))


def _parse(exported: object) -> tuple[str, str, list[Roll]]:
    if not isinstance(exported, dict) or exported.get("format") != FORMAT:
        raise ValueError(f"the format is not {FORMAT}")
    seed, fingerprint = exported["seed"], exported["commitment"]
    seed_bytes(seed)
    if not isinstance(fingerprint, str):
        raise TypeError("the commitment is not text")
    rolls = []
    for item in exported["rolls"]:
        numbers = [item["turn"], item["roll_number"], *item["held"], *item["dice"]]
        if not all(type(n) is int and n >= 0 for n in numbers):
            raise ValueError("a roll holds something other than counts")
        if not 1 <= item["roll_number"] <= 3 or not item["dice"]:
            raise ValueError("a roll has no dice or a roll number outside 1-3")
        if any(p >= len(item["dice"]) for p in item["held"]):
            raise ValueError("a roll holds a die it does not have")
        rolls.append(
            Roll(item["turn"], item["roll_number"], tuple(item["held"]), tuple(item["dice"]))
        )
    return seed, fingerprint, rolls


def verify_file(path: str | Path) -> Verdict:
    """``verify`` of an exported game saved as a JSON file."""
    try:
        exported = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return Verdict(False, 0, f"cannot read {path}: {error}")
    return verify(exported)


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m games.rules.fairness GAME.json", file=sys.stderr)
        return 2
    verdict = verify_file(argv[0])
    if verdict.ok:
        print(f"All {verdict.rolls} rolls match the seed, and the seed the fingerprint.")
        return 0
    print(f"The dice do not match: {verdict.problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
