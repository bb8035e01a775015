"""The par of a daily challenge: what perfect play scores on given dice.

No Django here: the dice come in as a ``rules.Dice`` (a day's committed dice follow
from the turn, the roll and the die's position alone, so the Perfect computer player
meets exactly the dice a player who held as it did would meet).
"""

from __future__ import annotations

import random

from games import rules
from games.strategy import bots


def perfect_total(ruleset: str, options: rules.TableOptions, dice: rules.Dice) -> int | None:
    """The final score of the Perfect computer player alone at a table of ``ruleset``
    rolling ``dice``; None where it could not play perfectly (no solver tables yet)."""
    state = rules.new_game(ruleset, [[0]], options, dice)
    chance = random.Random(0)  # (Perfect leaves nothing to chance: never drawn from)
    while not state.is_finished:
        move = bots.choose_move(state, "perfect", chance)
        if move.level != "perfect":
            return None
        state = rules.apply(state, 0, move, dice)
    return state.totals(0).total
