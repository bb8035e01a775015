"""The scorecard as one viewer sees it: its rows and cells, and its table rendered once
per content and language. Between two rolls it reads the same for everyone but the
player to move, whose column offers the scores, and it is most of a table's rendering."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, gettext_noop

from games import rules
from games.bidi import team
from games.bounded import Bounded

HEAD_TEMPLATE = "games/table.html#scorecard-head"


class Cell(NamedTuple):
    """One category's cell of one column. A named tuple and not a dataclass: a new
    scorecard makes a hundred of them, each the key of a cached ``<td>``, and a tuple
    is made and hashed in C."""

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


class Row(NamedTuple):
    """One row of the scorecard; a named tuple, like its cells, to key the cache of
    its HTML."""

    key: str
    name: str
    kind: str  # "category", "subtotal", "bonus", "yahtzee_bonus", "total"
    cells: tuple[Cell | str, ...]


def column_heads(state: rules.GameState, names: dict[int, str]) -> list[SafeString]:
    """Each scorecard's name as markup, its players' names isolated (``bidi.team``):
    wherever it is shown (a column's head, the ranking, the history) a name in a
    right-to-left script or with a bidi control leaves the text beside it as it is."""
    return [team(names.get(p, "?") for p in card.players) for card in state.scorecards]


class Turn(NamedTuple):
    """What the column of the scorecard to move shows beyond its points."""

    target: str | None  # the declared target of this turn
    options: tuple[tuple[str, int], ...]  # scores offered to the player to move, viewing
    declaring: bool  # the player to move, viewing, may declare a target
    bonus: int  # the Yahtzee bonus any of the scores offered earns besides


@dataclass(frozen=True, eq=False)
class Layout:
    """The rows of a table's scorecard: its categories, then where the sums go. One
    per rule set and table option (``_layout``), so that a layout is its own key in
    the caches: hashed by identity, not by its fifteen categories."""

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
    columns = [
        _column(layout, card, state.totals(i), turn if i == current else None)
        for i, card in enumerate(state.scorecards)
    ]
    return [
        Row(key, gettext(name), kind, tuple(column[r] for column in columns))
        for r, (key, name, kind) in enumerate(_row_heads(layout))
    ]


def _row_heads(layout: Layout) -> list[tuple[str, str, str]]:
    """(key, untranslated name, kind) of each row."""
    upper = [c for c in layout.categories if c.is_upper]
    lower = [c for c in layout.categories if not c.is_upper]
    heads = [(c.key, c.name, "category") for c in upper]
    heads += [
        ("subtotal", gettext_noop("Subtotal"), "subtotal"),
        ("bonus", gettext_noop("Bonus"), "bonus"),
    ]
    heads += [(c.key, c.name, "category") for c in lower]
    if layout.yahtzee_bonus:
        heads.append(("yahtzee_bonus", gettext_noop("Yahtzee bonus"), "yahtzee_bonus"))
    heads.append(("total", gettext_noop("Total"), "total"))
    return heads


def _column(
    layout: Layout, card: rules.Scorecard, totals: rules.Totals, turn: Turn | None
) -> list[Cell | str]:
    """One scorecard's cells, top to bottom; ``turn`` for the scorecard to move."""
    points_of = card.points()
    offered = dict(turn.options) if turn else {}
    current = turn is not None
    bonus = turn.bonus if turn else 0

    def cell(category: rules.Category) -> Cell:
        points = points_of.get(category.key)
        return Cell(
            points,
            offered.get(category.key),
            current and turn.target == category.key,
            current and turn.declaring and points is None,
            current,
            bonus if category.key in offered else 0,
        )

    upper = [cell(c) for c in layout.categories if c.is_upper]
    lower = [cell(c) for c in layout.categories if not c.is_upper]
    upper_complete = all(c.points is not None for c in upper)
    sums = [str(totals.yahtzee_bonus)] if layout.yahtzee_bonus else []
    return [
        *upper,
        _subtotal(totals),
        _bonus(totals, upper_complete),
        *lower,
        *sums,
        str(totals.total),
    ]


def _subtotal(totals: rules.Totals) -> str:
    pace = f"{totals.bonus_pace:+d}" if totals.bonus_pace else "±0"
    return f"{totals.upper} ({pace})"


def _bonus(totals: rules.Totals, upper_complete: bool) -> str:
    if totals.bonus or upper_complete:
        return str(totals.bonus)
    return gettext("%(points)s to go") % {"points": totals.bonus_to_go}


_SCORECARDS: Bounded[str, SafeString] = Bounded(256)


def scorecard_table(
    state: rules.GameState, columns: list[str], live: bool, declaring: bool
) -> SafeString:
    """The scorecard's table, rendered once per content and language, under
    ``columns``' heads (``column_heads``). A new one is joined from its columns' cells,
    each column cached by what it shows: between two rolls only the column to move
    changes, and only for the player to move."""
    key = _content_key(state, columns, live, declaring)
    html = _SCORECARDS.get(key)
    if html is None:
        html = _SCORECARDS[key] = _build(state, columns, live, declaring)
    return html


def _build(state: rules.GameState, columns: list[str], live: bool, declaring: bool) -> SafeString:
    options = rules.scoring_options(state) if live and not declaring else {}
    current_column = None if state.is_finished else state.current_index
    language = get_language()
    layout = _layout(state)
    turn = _turn_of(state, options, live, declaring)
    cells = [
        _column_html(layout, card, state.totals(i), turn if i == current_column else None, language)
        for i, card in enumerate(state.scorecards)
    ]
    body = "".join(
        f"{head}{''.join(column[r] for column in cells)}</tr>"
        for r, head in enumerate(_row_html(layout, language))
    )
    head = _head(tuple(columns), current_column, language)
    # safe: the head is a rendered template, the rows escape what they show
    return mark_safe(f'<table class="scorecard">{head}<tbody>{body}</tbody></table>')


@lru_cache(maxsize=64)
def _row_html(layout: Layout, language: str) -> tuple[str, ...]:
    """Each row's start: its class and its head cell (``language`` keys the cache)."""
    return tuple(
        f'<tr class="row-{kind}"><th scope="row">{escape(gettext(name))}</th>'
        for _key, name, kind in _row_heads(layout)
    )


@lru_cache(maxsize=1024)  # a column changes with its own scores, or when it is to move
def _column_html(
    layout: Layout, card: rules.Scorecard, totals: rules.Totals, turn: Turn | None, language: str
) -> tuple[str, ...]:
    """One scorecard's ``<td>`` cells, top to bottom (``language`` keys the cache: the
    buttons' names are in it)."""
    heads = _row_heads(layout)
    css = "current" if turn is not None else ""
    return tuple(
        _category_cell(cell, key, gettext(name), language)
        if kind == "category"
        else f'<td class="{css}">{escape(cell)}</td>'
        for cell, (key, name, kind) in zip(_column(layout, card, totals, turn), heads, strict=True)
    )


def _content_key(state: rules.GameState, columns: list[str], live: bool, declaring: bool) -> str:
    """Everything the scorecard's table is made of, as one string: the written scores,
    whose turn, the target, and for the player to move (``live``) the dice their scores
    are offered for (with the scorecards and the options, they decide the Yahtzee bonus
    the offers carry); not the dice for the others, so that their scorecard is found again
    after each roll. A string and not a tuple: the garbage collector walks every tuple a
    cache keeps (256 scorecards' keys were most of what its young generations held),
    never a string. ``repr`` quotes every name, so no name can make two keys equal."""
    return repr(
        (
            get_language(),
            columns,
            live,
            declaring,
            state.ruleset_key,
            state.options,
            state.scorecards,
            state.turn,
            state.target,
            (state.dice, state.roll_number) if live else None,
        )
    )


@lru_cache(maxsize=256)
def _head(columns: tuple[str, ...], current_column: int | None, language: str) -> str:
    """The table's caption and column heads, rendered once per players, turn and
    ``language`` (which keys the cache): they change only when the turn does."""
    return render_to_string(HEAD_TEMPLATE, {"columns": columns, "current_column": current_column})


@lru_cache(maxsize=1024)  # most cells read the same from one rendering to the next
def _category_cell(cell: Cell, category: str, name: str, language: str) -> SafeString:
    """Points written, the button that scores them, or the one that declares the
    category (its translated ``name``) as this turn's target; ``language`` keys the
    cache, the buttons' names are in it. Buttons have ids, so that keyboard focus
    survives a new table."""
    if cell.points is not None:
        content = str(cell.points)
    elif cell.option is not None:
        values = {"points": cell.option, "category": name, "bonus": cell.bonus}
        if cell.bonus:  # the joker rule's extra Yahtzee: said before it is scored
            label = gettext("Score %(points)s in %(category)s and a Yahtzee bonus of %(bonus)s")
            shown = format_html('{}<span class="option-bonus"> +{}</span>', cell.option, cell.bonus)
        else:
            label, shown = gettext("Score %(points)s in %(category)s"), str(cell.option)
        content = format_html(
            '<button type="submit" id="score-{}" name="category" value="{}"'
            ' class="score-option{}" aria-label="{}">{}</button>',
            category,
            category,
            " zero" if cell.option == 0 else "",
            label % values,
            shown,
        )
    elif cell.declarable:
        content = format_html(
            '<button type="submit" id="declare-{}" name="category" value="{}" class="declare"'
            ' aria-label="{}">{}</button>',
            category,
            category,
            gettext("Declare %(category)s as target") % {"category": name},
            gettext("Target"),
        )
    else:
        content = ""
    return format_html('<td class="{}">{}</td>', cell.css, content)
