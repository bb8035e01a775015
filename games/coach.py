"""The coach: the best move for the player to move, and the runners-up, in words.

Advice comes from the solved tables (``games.strategy.advice``): every choice is
priced by the final score it leads to on average under best play from there on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from games import rules
from games.strategy import advice, tables
from games.strategy.solver import Variant

ALTERNATIVES = 3


@dataclass(frozen=True)
class Line:
    text: str
    expected: float  # the expected final score
    behind: float = 0.0  # how much less than the best

    @property
    def as_good(self) -> bool:
        """Whether it is as good as the best to the tenth of a point the page shows:
        said so, not "(0.0 less)"."""
        return self.behind < 0.05


@dataclass(frozen=True)
class Hint:
    best: Line | None = None
    alternatives: tuple[Line, ...] = ()
    unavailable: str = ""
    pending: bool = False  # its tables are being built: the page asks again by itself


def hint(state: rules.GameState) -> Hint:
    if state.roll_number == 0:
        return Hint(unavailable=gettext("Roll the dice first: the coach advises on what you roll."))
    result = advice.advise(state)
    if result is None:
        variant = Variant.of(state.ruleset_key, state.options)
        return Hint(unavailable=_no_tables(variant), pending=tables.builds_by_itself(variant))
    best = result.best
    lines = [_line(state, best, result)]
    seen = {describe(state, best)}
    for choice in result.choices[1:]:
        text = describe(state, choice)
        if text in seen:
            continue
        seen.add(text)
        lines.append(_line(state, choice, result))
        if len(lines) > ALTERNATIVES:
            break
    return Hint(best=lines[0], alternatives=tuple(lines[1:]))


def _no_tables(variant: Variant) -> str:
    """Why the coach cannot advise yet: its tables are being built, or nothing builds
    them here ("ask again in a minute" would never come true) and this says what does."""
    if tables.builds_by_itself(variant):
        return gettext(
            "The coach is still working out this table's strategy: ask again in a minute."
        )
    return gettext(
        "The coach cannot advise at this table: this site has not worked out perfect"
        " play for these rules."
    )


def _line(state: rules.GameState, choice: advice.Choice, result: advice.Advice) -> Line:
    loss = result.loss(choice)
    return Line(
        text=describe(state, choice),
        expected=choice.expected,
        behind=max(loss, 0.0),
    )


def describe(state: rules.GameState, choice: advice.Choice) -> str:
    if choice.target is not None:
        name = gettext(state.ruleset.category(choice.target).name)
        return gettext("Declare %(category)s as target") % {"category": name}
    if choice.category is not None:
        points = rules.points_for(state, choice.category)
        name = gettext(state.ruleset.category(choice.category).name)
        joker = rules.joker(state)
        bonus = joker.bonus if joker else 0  # an extra Yahtzee's, as the score buttons say
        if bonus:
            words = gettext("Score %(points)s in %(category)s and a Yahtzee bonus of %(bonus)s")
        else:
            words = gettext("Score %(points)s in %(category)s")
        return words % {"points": points, "category": name, "bonus": bonus}
    if not choice.hold:
        return gettext("Roll all the dice again")
    faces = ", ".join(str(state.dice[i]) for i in sorted(choice.hold, key=lambda i: state.dice[i]))
    return gettext("Hold %(faces)s and roll the rest") % {"faces": faces}
