"""The scorecard as one viewer sees it: its rows and cells, and its table rendered once
per content and language. Between two rolls it reads the same for everyone but the
player to move, whose column offers the scores, and it is most of a table's rendering."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from games import rules
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


def column_names(state: rules.GameState, names: dict[int, str]) -> list[str]:
    return [" & ".join(names.get(p, "?") for p in card.players) for card in state.scorecards]


def scorecard_rows(
    state: rules.GameState, options: dict[str, int], live: bool, declaring: bool
) -> list[Row]:
    """The scorecard as rows: upper six, subtotal, bonus, lower rows, total."""
    current = state.current_index if not state.is_finished else None
    totals = [state.totals(i) for i in range(len(state.scorecards))]
    written = [card.points() for card in state.scorecards]
    rows: list[Row] = []

    def category_row(category: rules.Category) -> Row:
        cells = []
        for index, points_of in enumerate(written):
            points = points_of.get(category.key)
            mine_now = live and index == current
            cells.append(
                Cell(
                    points,
                    options.get(category.key) if mine_now and not declaring else None,
                    index == current and state.target == category.key,
                    mine_now and declaring and points is None,
                    index == current,
                )
            )
        return Row(category.key, gettext(category.name), "category", tuple(cells))

    upper = [c for c in state.categories if c.is_upper]
    lower = [c for c in state.categories if not c.is_upper]
    rows += [category_row(c) for c in upper]
    rows.append(
        Row("subtotal", gettext("Subtotal"), "subtotal", tuple(_subtotal(t) for t in totals))
    )
    upper_keys = [c.key for c in upper]
    complete = [all(card.is_used(k) for k in upper_keys) for card in state.scorecards]
    bonus_cells = tuple(_bonus(t, done) for t, done in zip(totals, complete, strict=True))
    rows.append(Row("bonus", gettext("Bonus"), "bonus", bonus_cells))
    rows += [category_row(c) for c in lower]
    if state.ruleset.yahtzee_rules and not state.options.upper_only:
        rows.append(
            Row(
                "yahtzee_bonus",
                gettext("Yahtzee bonus"),
                "yahtzee_bonus",
                tuple(str(t.yahtzee_bonus) for t in totals),
            )
        )
    rows.append(Row("total", gettext("Total"), "total", tuple(str(t.total) for t in totals)))
    return rows


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
    """The scorecard's table, rendered once per content and language: the rows are built
    only when it is not in the cache."""
    key = _content_key(state, columns, live, declaring)
    html = _SCORECARDS.get(key)
    if html is None:
        options = rules.scoring_options(state) if live and not declaring else {}
        rows = scorecard_rows(state, options, live, declaring)
        current_column = None if state.is_finished else state.current_index
        language = get_language()
        body = "".join(_row(row, current_column, language) for row in rows)
        head = _head(tuple(columns), current_column, get_language())
        # safe: the head is a rendered template, the rows escape what they show
        html = mark_safe(f'<table class="scorecard">{head}<tbody>{body}</tbody></table>')
        _SCORECARDS[key] = html
    return html


def _content_key(state: rules.GameState, columns: list[str], live: bool, declaring: bool) -> str:
    """Everything the scorecard's table is made of, as one string: the written scores,
    whose turn, the target, and for the player to move (``live``) the dice their scores
    are offered for; not the dice for the others, so that their scorecard is found again
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


@lru_cache(maxsize=2048)  # most rows read the same from one roll to the next
def _row(row: Row, current_column: int | None, language: str) -> str:
    """One row of the table (``language`` keys the cache: the buttons' names are in
    it). The rows and their cells are built here and not in the template: a scorecard
    has up to twenty rows and a hundred cells, the template's loops over them were
    most of its rendering, and the player to move gets a new scorecard on every roll."""
    # f-strings with escape() and not format_html: this runs for every row of every
    # new scorecard, and format_html's lazy-string checks were half its cost.
    return (
        f'<tr class="row-{row.kind}"><th scope="row">{escape(row.name)}</th>'
        f"{_cells(row, current_column, language)}</tr>"
    )


def _cells(row: Row, current_column: int | None, language: str) -> str:
    """The ``<td>`` cells of one row."""
    if row.kind == "category":
        return "".join(_category_cell(cell, row.key, row.name, language) for cell in row.cells)
    return "".join(
        f'<td class="{"current" if i == current_column else ""}">{escape(cell)}</td>'
        for i, cell in enumerate(row.cells)
    )


@lru_cache(maxsize=1024)  # most cells read the same from one rendering to the next
def _category_cell(cell: Cell, category: str, name: str, language: str) -> SafeString:
    """Points written, the button that scores them, or the one that declares the
    category (its translated ``name``) as this turn's target; ``language`` keys the
    cache, the buttons' names are in it. Buttons have ids, so that keyboard focus
    survives a new table."""
    if cell.points is not None:
        content = str(cell.points)
    elif cell.option is not None:
        content = format_html(
            '<button type="submit" id="score-{}" name="category" value="{}"'
            ' class="score-option{}" aria-label="{}">{}</button>',
            category,
            category,
            " zero" if cell.option == 0 else "",
            gettext("Score %(points)s in %(category)s") % {"points": cell.option, "category": name},
            cell.option,
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
