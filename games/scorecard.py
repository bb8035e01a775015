"""The scorecard as one viewer sees it, as data: its column heads, its rows and their
cells (the ``scorecard`` partial of ``games/table.html`` shows it; the review shows its
rows too). Only the player to move, viewing, is offered scores in their column."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, gettext_noop

from games import rules
from games.bidi import team, team_text
from games.bounded import Bounded
from games.rules.state import YAHTZEE_BONUS_POINTS


class Cell(NamedTuple):
    """One category's cell of one column. A named tuple and not a dataclass: a new
    scorecard makes a hundred of them, and a tuple is made in C."""

    points: int | None  # what is written, None while open
    option: int | None = None  # what scoring here would give now, for the player to move
    target: bool = False  # the declared target of this turn
    declarable: bool = False  # may be declared as the target now
    current: bool = False  # in the column of the scorecard to move
    bonus: int = 0  # the Yahtzee bonus scoring here would earn too (the joker rule)

    @property
    def css(self) -> str:
        """The cell's class attribute."""
        return ("current" if self.current else "") + (" target" if self.target else "")


RowHead = tuple[str, str, str, str]  # key, untranslated name, kind, untranslated rule


class Row(NamedTuple):
    """One row of the scorecard: a category's (its cells are ``Cell``) or a sum's (its
    cells are what is written)."""

    key: str
    name: str
    kind: str  # "category", "subtotal", "bonus", "yahtzee_bonus", "total"
    cells: tuple[Cell | str, ...]


def column_heads(state: rules.GameState, names: dict[int, str]) -> list[SafeString]:
    """Each scorecard's name as markup, its players' names isolated (``bidi.team``):
    wherever it is shown (a column's head, the ranking, the history) a name in a
    right-to-left script or with a bidi control leaves the text beside it as it is."""
    return [team(names.get(p, "?") for p in card.players) for card in state.scorecards]


def column_titles(state: rules.GameState, names: dict[int, str]) -> list[str]:
    """Each scorecard's name in plain text, its players' names isolated: the title of a
    column's head, whose name is cut short for the eye where it is longer than the
    column."""
    return [team_text(names.get(p, "?") for p in card.players) for card in state.scorecards]


SHORT_HEAD = 3  # letters of a name a short column head starts from
# the isolates of ``column_titles`` and any embedding, override or mark a name holds: a
# short head is a few letters, in <bdi> of its own, with no control to carry over
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def short_heads(titles: Iterable[str]) -> list[str]:
    """A short head for each column (``column_titles``), for a narrow screen with many
    players: the first word's first letters and the digits of the name ("Ali",
    "Com1", "Com2"), as many letters as it takes to tell the columns apart.
    Cut names showed "Co..." four times over a table of computer players (issue 46)."""
    plain = [BIDI_CONTROLS.sub("", title) for title in titles]
    for letters in range(SHORT_HEAD, max(map(len, plain), default=0) + 1):
        heads = [_short(name, letters) for name in plain]
        if len(set(heads)) == len(heads):
            return heads
    return [f"{n}. {_short(name, SHORT_HEAD)}" for n, name in enumerate(plain, start=1)]


def _short(name: str, letters: int) -> str:
    first, _space, rest = name.strip().partition(" ")
    return first[:letters] + "".join(c for c in rest if c.isdigit())


class Turn(NamedTuple):
    """What the column of the scorecard to move shows beyond its points."""

    target: str | None  # the declared target of this turn
    options: tuple[tuple[str, int], ...]  # scores offered to the player to move, viewing
    declaring: bool  # the player to move, viewing, may declare a target
    bonus: int  # the Yahtzee bonus any of the scores offered earns besides


@dataclass(frozen=True, eq=False)
class Layout:
    """The rows of a table's scorecard: its categories, then where the sums go. One
    per rule set and table option (``_layout``)."""

    categories: tuple[rules.Category, ...]
    yahtzee_bonus: bool  # a row for the Yahtzee bonus


def _layout(state: rules.GameState) -> Layout:
    options = state.options
    return _layout_of(state.ruleset_key, options.upper_only, options.yahtzee_bonus)


@cache  # three rule sets, with and without the lower section and the Yahtzee bonus
def _layout_of(ruleset_key: str, upper_only: bool, yahtzee_bonus: bool) -> Layout:
    ruleset = rules.get_ruleset(ruleset_key)
    categories = ruleset.upper_categories if upper_only else ruleset.categories
    # no row for a bonus the table plays without (RULES.md 2.2: an option)
    return Layout(categories, ruleset.yahtzee_rules and not upper_only and yahtzee_bonus)


def _turn_of(state: rules.GameState, options: dict[str, int], live: bool, declaring: bool) -> Turn:
    offered = live and not declaring
    joker = rules.joker(state) if offered else None
    return Turn(
        state.target,
        tuple(options.items()) if offered else (),
        live and declaring,
        joker.bonus if joker else 0,
    )


def scorecard_rows(
    state: rules.GameState, options: dict[str, int], live: bool, declaring: bool
) -> list[Row]:
    """The scorecard as rows: upper six, subtotal, bonus, lower rows, total."""
    layout = _layout(state)
    current = state.current_index if not state.is_finished else None
    turn = _turn_of(state, options, live, declaring)
    language = get_language()
    columns = [
        _column_of(state, layout, i, turn if i == current else None, language)
        for i in range(len(state.scorecards))
    ]
    return [
        Row(key, gettext(name), kind, tuple(column[r] for column in columns))
        for r, (key, name, kind, _rule) in enumerate(_row_heads(layout))
    ]


def rule_tips(state: rules.GameState) -> tuple[tuple[str, str, str], ...]:
    """(key, untranslated name, untranslated rule) of each category of ``state``'s card:
    the tips its names open on the table page (``_category_rule.html``)."""
    return tuple((key, name, rule) for key, name, _kind, rule in _row_heads(_layout(state)) if rule)


@cache  # one per layout
def _row_heads(layout: Layout) -> tuple[RowHead, ...]:
    """(key, untranslated name, kind, untranslated rule) of each row: a category's rule
    (``Category.rule``), its name's tip on the table; none for the sums."""
    upper = [c for c in layout.categories if c.is_upper]
    lower = [c for c in layout.categories if not c.is_upper]
    heads = [(c.key, c.name, "category", c.rule) for c in upper]
    heads += [
        ("subtotal", gettext_noop("Subtotal"), "subtotal", ""),
        ("bonus", gettext_noop("Bonus"), "bonus", ""),
    ]
    heads += [(c.key, c.name, "category", c.rule) for c in lower]
    if layout.yahtzee_bonus:
        heads.append(("yahtzee_bonus", gettext_noop("Yahtzee bonus"), "yahtzee_bonus", ""))
    heads.append(("total", gettext_noop("Total"), "total", ""))
    return tuple(heads)


# a column changes with its own scores, or when it is to move
_COLUMN_CELLS: Bounded[tuple, tuple[Cell | str, ...]] = Bounded(1024)


def _column_of(
    state: rules.GameState, layout: Layout, index: int, turn: Turn | None, language: str
) -> tuple[Cell | str, ...]:
    """The cells of scorecard ``index`` (``_column``), kept per what they follow from:
    its totals are worked out only for a column not kept (four a table, every move)."""
    card = state.scorecards[index]
    key = (layout, state.options, card, turn, language)
    return _COLUMN_CELLS.made(
        key, lambda: _column(layout, card, state.totals(index), turn, language)
    )


def _column(
    layout: Layout, card: rules.Scorecard, totals: rules.Totals, turn: Turn | None, language: str
) -> tuple[Cell | str, ...]:
    """One scorecard's cells, top to bottom; ``turn`` for the scorecard to move
    (``language`` keys the cache: the bonus row's words are in it)."""
    points_of = card.points()
    offered = dict(turn.options) if turn else {}
    current = turn is not None
    bonus = turn.bonus if turn else 0

    def cell(category: rules.Category) -> Cell:
        points = points_of.get(category.key)
        return Cell(
            points,
            offered.get(category.key),
            turn is not None and turn.target == category.key,
            turn is not None and turn.declaring and points is None,
            current,
            bonus if category.key in offered else 0,
        )

    upper = [cell(c) for c in layout.categories if c.is_upper]
    lower = [cell(c) for c in layout.categories if not c.is_upper]
    upper_complete = all(c.points is not None for c in upper)
    sums = [str(totals.yahtzee_bonus)] if layout.yahtzee_bonus else []
    return (
        *upper,
        _subtotal(totals),
        _bonus(totals, upper_complete),
        *lower,
        *sums,
        str(totals.total),
    )


def _subtotal(totals: rules.Totals) -> str:
    pace = f"{totals.bonus_pace:+d}" if totals.bonus_pace else "±0"
    return f"{totals.upper} ({pace})"


def _bonus(totals: rules.Totals, upper_complete: bool) -> str:
    if totals.bonus or upper_complete:
        return str(totals.bonus)
    return gettext("%(points)s to go") % {"points": totals.bonus_to_go}


class Key(NamedTuple):
    """What the key under the scorecard explains its sums with: the card's own rows
    and the table's own numbers, never an example."""

    first: str  # the untranslated name of the first upper row ("Ones")
    last: str  # and of the last ("Sixes")
    bonus_line: int  # the upper points that earn the bonus
    bonus: int  # what the bonus gives at this table (RULES.md 4.7)
    yahtzee_bonus: int  # what each further Yahtzee gives, 0 without that row
    all_alike: int  # what the Yahtzee row holds for the Yahtzee bonus to count


def scorecard_key(state: rules.GameState) -> Key:
    """The key of ``state``'s scorecard."""
    return _key_of(state.ruleset_key, state.options)


@cache  # three rule sets, a few options
def _key_of(ruleset_key: str, options: rules.TableOptions) -> Key:
    ruleset = rules.get_ruleset(ruleset_key)
    layout = _layout_of(ruleset_key, options.upper_only, options.yahtzee_bonus)
    upper = ruleset.upper_categories
    return Key(
        upper[0].name,
        upper[-1].name,
        ruleset.bonus_threshold,
        options.bonus_value(ruleset),
        YAHTZEE_BONUS_POINTS if layout.yahtzee_bonus else 0,
        ruleset.score(ruleset.all_alike_key, (1,) * ruleset.dice_count),
    )


class Scorecard(NamedTuple):
    """The scorecard's table as one viewer sees it, column by column."""

    columns: tuple[SafeString, ...]  # each scorecard's name, as markup (``column_heads``)
    titles: tuple[str, ...]  # and in plain text (``column_titles``)
    current_column: int | None  # the scorecard to move, none once the game is over
    rows: tuple[RowHead, ...]  # (key, untranslated name, kind, untranslated rule) per row
    cells: tuple[tuple[Cell | str, ...], ...]  # each column's cells, top to bottom
    key: Key  # what the key under it explains its sums with


def scorecard(
    state: rules.GameState, names: dict[int, str], live: bool, declaring: bool
) -> Scorecard:
    """The scorecard under its players' ``names`` (by player index); ``live``: the viewer
    is to move, and is offered the scores (or, ``declaring``, the targets)."""
    options = rules.scoring_options(state) if live and not declaring else {}
    layout = _layout(state)
    current = None if state.is_finished else state.current_index
    turn = _turn_of(state, options, live, declaring)
    language = get_language()
    return Scorecard(
        tuple(column_heads(state, names)),
        tuple(column_titles(state, names)),
        current,
        _row_heads(layout),
        tuple(
            _column_of(state, layout, i, turn if i == current else None, language)
            for i in range(len(state.scorecards))
        ),
        scorecard_key(state),
    )
