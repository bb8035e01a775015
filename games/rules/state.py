"""The game state: scorecards, whose turn it is, and the dice of the turn.

A ``GameState`` is immutable; the actions in ``actions.py`` return new states. Turn
order is derived from the number of turns played: scorecard ``turn % n`` moves, and on
a team scorecard its members take the turns in rotation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .errors import RulesError
from .i18n import gettext_noop as _
from .options import TableOptions
from .rulesets import Category, RuleSet, get_ruleset

MAX_SCORECARDS = 16
MAX_PLAYERS_PER_SCORECARD = 8
YAHTZEE_BONUS_POINTS = 100


@dataclass(frozen=True)
class Scorecard:
    players: tuple[int, ...]  # seat indices; more than one on a team scorecard
    entries: tuple[tuple[str, int], ...] = ()  # (category key, points) in the order written
    yahtzee_bonuses: int = 0  # extra Yahtzees that earned +100

    def points(self) -> dict[str, int]:
        return dict(self.entries)

    def is_used(self, key: str) -> bool:
        return any(entry_key == key for entry_key, _points in self.entries)


@dataclass(frozen=True)
class Totals:
    upper: int  # subtotal of the upper section
    bonus: int
    bonus_to_go: int  # points still needed for the bonus (0 once reached)
    bonus_pace: int  # upper points against the bonus's pace (three of each face at 63)
    yahtzee_bonus: int
    lower: int
    total: int


@dataclass(frozen=True)
class GameState:
    ruleset_key: str
    options: TableOptions
    scorecards: tuple[Scorecard, ...]
    turn: int = 0  # turns completed in the whole game
    dice: tuple[int, ...] = ()  # empty before the first roll of a turn
    held: tuple[int, ...] = ()  # sorted indices of held dice
    roll_number: int = 0  # rolls made this turn, 0..3
    target: str | None = None  # the declared category (declared-target tables)
    _ruleset: RuleSet = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_ruleset", get_ruleset(self.ruleset_key))

    # -- what the rules say about this table -------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        return self._ruleset

    @property
    def categories(self) -> tuple[Category, ...]:
        """The categories in play, in scorecard order."""
        if self.options.upper_only:
            return self.ruleset.upper_categories
        return self.ruleset.categories

    @property
    def category_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.categories)

    @property
    def rounds(self) -> int:
        return len(self.categories)

    @property
    def dice_count(self) -> int:
        return self.ruleset.dice_count

    @property
    def player_count(self) -> int:
        return sum(len(card.players) for card in self.scorecards)

    # -- whose turn -----------------------------------------------------------------------

    @property
    def is_finished(self) -> bool:
        return self.turn >= self.rounds * len(self.scorecards)

    @property
    def round(self) -> int:
        """The round being played, counted from 0."""
        return self.turn // len(self.scorecards)

    @property
    def current_index(self) -> int:
        """The index of the scorecard whose turn it is."""
        return self.turn % len(self.scorecards)

    @property
    def current_scorecard(self) -> Scorecard:
        return self.scorecards[self.current_index]

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None when the game is over."""
        if self.is_finished:
            return None
        players = self.current_scorecard.players
        return players[self.round % len(players)]

    @property
    def to_move(self) -> int:
        """The seat to move in a game that is not over (``current_player``)."""
        player = self.current_player
        if player is None:
            raise ValueError("the game is over: no one is to move")
        return player

    def scorecard_of(self, player: int) -> int:
        for index, card in enumerate(self.scorecards):
            if player in card.players:
                return index
        raise ValueError(f"no seat {player} at this table")

    def open_categories(self, index: int | None = None) -> tuple[str, ...]:
        card = self.scorecards[self.current_index if index is None else index]
        return tuple(key for key in self.category_keys if not card.is_used(key))

    # -- scores -----------------------------------------------------------------------------

    def totals(self, index: int) -> Totals:
        card = self.scorecards[index]
        points = card.points()
        upper_keys = [c.key for c in self.categories if c.is_upper]
        upper = sum(points.get(key, 0) for key in upper_keys)
        threshold = self.ruleset.bonus_threshold
        bonus = self.options.bonus_value(self.ruleset) if upper >= threshold else 0
        # Against the pace that reaches the bonus exactly: three of each face where the
        # line is 63 (RULES.md), 75/21 of each face in Maxi Yatzy, whose line is 75;
        # rounded to a whole point, and exact once every upper row is filled.
        filled = [(face, key) for face, key in enumerate(upper_keys, start=1) if key in points]
        behind = sum(points[key] for _face, key in filled) * 21 - threshold * sum(
            face for face, _key in filled
        )
        pace = (behind + 10) // 21  # behind / 21, to the nearest whole point
        yahtzee_bonus = YAHTZEE_BONUS_POINTS * card.yahtzee_bonuses
        lower = sum(points.values()) - upper
        return Totals(
            upper=upper,
            bonus=bonus,
            bonus_to_go=max(0, threshold - upper),
            bonus_pace=pace,
            yahtzee_bonus=yahtzee_bonus,
            lower=lower,
            total=upper + bonus + lower + yahtzee_bonus,
        )

    def ranking(self) -> list[tuple[int, int, int]]:
        """(rank, scorecard index, total), best first; equal totals share a rank (1, 1, 3)."""
        totals = sorted(
            ((self.totals(i).total, i) for i in range(len(self.scorecards))),
            key=lambda pair: (-pair[0], pair[1]),
        )
        ranked: list[tuple[int, int, int]] = []
        for position, (total, index) in enumerate(totals):
            rank = ranked[-1][0] if ranked and ranked[-1][2] == total else position + 1
            ranked.append((rank, index, total))
        return ranked

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset_key,
            "options": self.options.to_dict(),
            "scorecards": [
                {
                    "players": list(card.players),
                    "entries": [[key, points] for key, points in card.entries],
                    "yahtzee_bonuses": card.yahtzee_bonuses,
                }
                for card in self.scorecards
            ],
            "turn": self.turn,
            "dice": list(self.dice),
            "held": list(self.held),
            "roll_number": self.roll_number,
            "target": self.target,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        try:
            return cls(
                ruleset_key=data["ruleset"],
                options=TableOptions.from_dict(data["options"]),
                scorecards=tuple(
                    Scorecard(
                        players=tuple(card["players"]),
                        entries=tuple((key, points) for key, points in card["entries"]),
                        yahtzee_bonuses=card["yahtzee_bonuses"],
                    )
                    for card in data["scorecards"]
                ),
                turn=data["turn"],
                dice=tuple(data["dice"]),
                held=tuple(data["held"]),
                roll_number=data["roll_number"],
                target=data["target"],
            )
        except (KeyError, TypeError) as error:
            raise RulesError(_("The saved game is damaged.")) from error

    def evolve(self, **changes: Any) -> GameState:
        return replace(self, **changes)
