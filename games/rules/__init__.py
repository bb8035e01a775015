"""The rules engine: rule sets, scoring and the game state machine. No Django here.

>>> from games.rules import get_ruleset
>>> get_ruleset("yatzy").score("two_pairs", (3, 3, 5, 4, 5))
16
"""

from __future__ import annotations

from .actions import (
    JOKER_POINTS,
    MAX_ROLLS,
    Joker,
    declare,
    hold,
    is_joker,
    joker,
    max_points,
    new_game,
    points_for,
    roll,
    score,
    scoring_options,
    skip_turn,
    skipped_category,
)
from .dice import FACES, Dice, RandomDice, ScriptedDice, check_dice, face_counts
from .errors import (
    IllegalMove,
    InvalidDice,
    InvalidOptions,
    RulesError,
    UnknownCategory,
    UnknownRuleSet,
)
from .moves import Move, apply
from .options import TableOptions
from .rulesets import RULESETS, Category, RuleSet, get_ruleset
from .state import MAX_SCORECARDS, GameState, Scorecard, Totals

__all__ = [
    "FACES",
    "JOKER_POINTS",
    "MAX_ROLLS",
    "MAX_SCORECARDS",
    "RULESETS",
    "Category",
    "Dice",
    "GameState",
    "IllegalMove",
    "InvalidDice",
    "InvalidOptions",
    "Joker",
    "Move",
    "RandomDice",
    "RuleSet",
    "RulesError",
    "Scorecard",
    "ScriptedDice",
    "TableOptions",
    "Totals",
    "UnknownCategory",
    "UnknownRuleSet",
    "apply",
    "check_dice",
    "declare",
    "face_counts",
    "get_ruleset",
    "hold",
    "is_joker",
    "joker",
    "max_points",
    "new_game",
    "points_for",
    "roll",
    "score",
    "scoring_options",
    "skip_turn",
    "skipped_category",
]
