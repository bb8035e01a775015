"""A move at the table as data, and the one place that turns it into an engine call.

The web's actions, the computer players and the replay of a game's log all play a
``Move`` through ``apply``; only where the dice come from differs (a secure generator
at the table, the logged dice in a replay).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import declare, hold, roll, score, skip_turn
from .dice import Dice
from .state import GameState

ROLL, HOLD, DECLARE, SCORE, SKIP = "roll", "hold", "declare", "score", "skip"


@dataclass(frozen=True)
class Move:
    """What the player to move does. ``held``: for a hold, the dice to hold; for a roll,
    the dice kept (``None``: those held now). ``category``: what is declared or scored."""

    kind: str
    held: tuple[int, ...] | None = None
    category: str = ""


def apply(state: GameState, player: int, move: Move, dice: Dice | None) -> GameState:
    """``move`` played by ``player`` on ``state``; ``dice`` rolls what it rolls (a
    score or a skip rolls the next turn's first roll on automatic-first-roll tables)."""
    if move.kind == ROLL:
        if dice is None:
            raise ValueError("a roll needs dice")
        return roll(state, player, dice, move.held)
    if move.kind == HOLD:
        return hold(state, player, move.held or ())
    if move.kind == DECLARE:
        return declare(state, player, move.category)
    if move.kind == SCORE:
        return score(state, player, move.category, dice)
    if move.kind == SKIP:
        return skip_turn(state, dice)
    raise ValueError(f"unknown move {move.kind!r}")
