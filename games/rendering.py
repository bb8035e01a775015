"""The table rendered once per move, the same bytes for every browser at it.

A move's table is rendered in the request that made it, from the state the move
committed, once per language in use at the table (``Game.languages``), and those bytes
are the mover's answer and every socket's push (``games/broadcast.py``). Nothing in
them depends on who looks: the controls of the player to move are in them, and each
page shows them only where its viewer holds that seat (``tableview.Me``, carried by
the page as it loads). A page loaded whole renders the table for itself, with its
forms' CSRF fields, from the same macros.

The table is Jinja2's (``jinja_templates/games/table.html``, a macro a part), the page
around it Django's (``templates/games/table.html``): Jinja2 compiles a template to
Python, and the table's rendering was 42 % of a move's work in Django (with Django's
template language, docs/performance.md). Its parts (a scorecard's cell, row and head, a
die, the roll button, the presence list, the banner) are each rendered once per what
they are given and kept (``fragment``): between two rolls most of a table reads as it
did, and a hundred cells rendered afresh cost more than looking them up, in Jinja2 too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar, cast

from django.conf import settings
from django.core.signals import setting_changed
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext
from markupsafe import Markup

from games.bounded import Bounded
from games.models import Game, Seat
from games.presence import SPECTATORS
from games.reactions import REACTIONS
from games.scorecard import Cell, Scorecard, rule_tips, short_heads
from games.tableview import Confirm, Me, Table, handed_over, lobby_context, table_urls, table_view
from games.viewer import Viewer

PAGE = "games/table.html"  # the page, in Django's template language (templates/)
TABLE = "games/table.html"  # the table, in Jinja2's (jinja_templates/)


def table_macros() -> Any:
    """The macros of the table's template, each a part of the table: Jinja2's own
    template through Django's backend (``settings.TEMPLATES``)."""
    return cast(Jinja2, engines["jinja2"]).env.get_template(TABLE).module


# How many renderings of each partial a process keeps (``fragment``): a scorecard's
# cells and rows come in hundreds per rule set and language, the rest in tens.
_FRAGMENT_SIZES = {"scorecard_cell": 8192, "scorecard_sum": 4096, "scorecard_row": 8192}
_FRAGMENTS: dict[str, Bounded[tuple, Markup]] = {}
_FRAGMENTS_LOCK = threading.Lock()

Kept = TypeVar("Kept")


class RenderCache:
    """Whether the parts are kept (``YATZY_RENDER_CACHE``): the setting read once, and
    again when a test changes it. A setting read through ``django.conf.settings`` at each
    of the fifty parts of a table cost more than the part's lookup."""

    on: bool = True

    def follow(self, *, setting: str, value: object, **_kwargs: object) -> None:
        if setting == "YATZY_RENDER_CACHE":
            self.on = bool(value)


RENDER_CACHE = RenderCache()
RENDER_CACHE.on = settings.YATZY_RENDER_CACHE
setting_changed.connect(RENDER_CACHE.follow)


def kept(cache: Bounded[tuple, Kept], key: tuple, make: Callable[[], Kept]) -> Kept:
    """``cache[key]``, made by ``make`` the first time; made afresh every time when the
    render caches are off (``YATZY_RENDER_CACHE``, for the test that a table from the
    caches reads as one rendered afresh). Moves of different tables render in different
    threads at once: ``Bounded`` locks its writes, and two threads that both make a
    missing value make the same one."""
    if not RENDER_CACHE.on:
        return make()
    # ``Bounded.made`` written out: this runs fifty times a table, and the call cost
    # 0.04 M instructions a move (bench.movecost --instructions)
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
    return value


def fragment(partial: str, language: str, /, **context: object) -> Markup:
    """The macro ``partial`` of the table's template called with ``context`` in the
    active language, ``language`` (given by the caller, who asks ``get_language`` once
    for a whole table: each asking is a walk through asgiref's context-local storage),
    kept per process under the language and ``context`` itself: a key cannot forget
    something its partial is shown. A value must always be given as one type (a name
    as ``str``, never ``SafeString``): equal values render the same."""
    cache = _FRAGMENTS.get(partial)
    if cache is None:
        with _FRAGMENTS_LOCK:
            cache = _FRAGMENTS.setdefault(partial, Bounded(_FRAGMENT_SIZES.get(partial, 1024)))
    key = (language, *context.items())
    return kept(cache, key, lambda: getattr(table_macros(), partial)(**context))


class Pieces(NamedTuple):
    """The parts of one table rendered (``fragment``), for the ``table`` macro to put
    the version's forms around. Not a dict: Jinja2 looks ``pieces.heading`` up as an
    attribute first, and in a dict that first try raises and is caught."""

    heading: Markup  # the title, the turn banner, the target and joker lines
    banner: Markup
    turn_line: Markup  # whose turn it is, in the dice's bar
    joker: Markup
    dice: tuple[Markup, ...]  # each die's button, or the line saying none is rolled
    roll_button: Markup
    presence: Markup
    scorecard: Markup
    legend: SafeString  # the scorecard's key (Django's: the lobby and review show it too)
    fingerprint: SafeString  # the dice's commitment (and seed, once revealed)


def pieces(view: Table, mine: bool | None = None) -> Pieces:
    """The parts of ``view``: for every viewer (``mine`` None: the controls of the player
    to move and what the others see in their place, each marked), or for a page whose
    viewer is to move (``mine``) or not."""
    turn = view.turn
    language = get_language()
    banner = fragment("turn_banner", language, turn=turn, mine=mine)
    joker = fragment("joker_words", language, joker=turn.joker) if turn.joker else Markup()
    if view.dice:
        dice = tuple(
            fragment(
                "die", language, position=i, face=face, held=held, can_hold=view.can_hold, mine=mine
            )
            for i, (face, held) in enumerate(view.dice)
        )
    else:
        dice = (fragment("no_dice", language, count=view.dice_count),)
    return Pieces(
        heading=fragment("heading", language, turn=turn, banner=banner, joker=joker),
        banner=banner,
        turn_line=fragment("turn_line", language, turn=turn, mine=mine)
        if turn.player_to_move
        else Markup(),
        joker=joker,
        dice=dice,
        roll_button=fragment(
            "roll_button", language, can_roll=view.can_roll, rolls_left=turn.rolls_left, mine=mine
        ),
        presence=fragment("presence_lines", language, presence=view.presence),
        scorecard=scorecard_html(view.scorecard, mine, language),
        legend=included("games/_scorecard_legend.html", language, key=view.scorecard.key),
        fingerprint=included(
            "games/_fingerprint.html",
            language,
            commitment=view.dice_commitment,
            seed=view.dice_seed,
        ),
    )


_INCLUDED: Bounded[tuple, SafeString] = Bounded(1024)


def included(template: str, language: str, /, **context: object) -> SafeString:
    """``template`` rendered with ``context`` alone in the active language, ``language``,
    kept as ``fragment`` keeps a partial: the table's own includes, the same move after
    move."""
    key = (template, language, *context.items())
    return kept(_INCLUDED, key, lambda: render_to_string(template, context))


_COLUMNS: Bounded[tuple, tuple[Markup, ...]] = Bounded(1024)


def scorecard_html(
    card: Scorecard, mine: bool | None = None, language: str | None = None
) -> Markup:
    """The scorecard's table from its rows, each rendered once per its cells, from
    columns whose cells are each rendered once per what they show: between two rolls
    only the column to move changes. ``mine`` as for ``pieces``: the scores offered to
    the player to move are shown to everyone's page but the others'."""
    language = language or get_language()
    columns = [
        _column_html(card, cells, index == card.current_column, mine, language)
        for index, cells in enumerate(card.cells)
    ]
    rows = tuple(
        fragment(
            "scorecard_row", language, kind=kind, head=head, cells=tuple(c[r] for c in columns)
        )
        for r, ((_key, _name, kind, _rule), head) in enumerate(
            zip(card.rows, _row_heads(card.rows, language), strict=True)
        )
    )
    heads = tuple(zip(card.columns, card.titles, short_heads(card.titles), strict=True))
    head = fragment("scorecard_head", language, heads=heads, current_column=card.current_column)
    return table_macros().scorecard(head=head, rows=rows, columns=len(card.columns))


_ROW_HEADS: Bounded[tuple, tuple[Markup, ...]] = Bounded(64)


def _row_heads(rows: tuple, language: str) -> tuple[Markup, ...]:
    """Each row's head cell (its category's name and rule, or its sum's name), kept per
    scorecard layout and language: a row whose cells changed is rendered around it."""
    return kept(
        _ROW_HEADS,
        (language, rows),
        lambda: tuple(
            fragment("scorecard_row_head", language, key=key, name=name, rule=rule)
            for key, name, _kind, rule in rows
        ),
    )


def _column_html(
    card: Scorecard, cells: tuple, current: bool, mine: bool | None, language: str
) -> tuple[Markup, ...]:
    """One column's ``<td>`` cells, top to bottom, kept per the cells and language."""
    key = (language, card.rows, cells, current, mine)
    return kept(
        _COLUMNS,
        key,
        lambda: tuple(
            # the cell's fields one by one: a key of plain values, which the garbage
            # collector stops walking (a named tuple it walks for as long as it is kept)
            fragment(
                "scorecard_cell",
                language,
                category=category,
                name=name,
                css=cell.css,
                points=cell.points,
                option=cell.option,
                declarable=cell.declarable,
                bonus=cell.bonus,
                mine=mine,
            )
            if isinstance(cell, Cell)
            else fragment("scorecard_sum", language, value=cell, current=current)
            for cell, (category, name, _kind, _rule) in zip(cells, card.rows, strict=True)
        ),
    )


def die_face(face: int) -> SafeString:
    """A die's face drawn as the table draws it (the review's dice)."""
    return SafeString(table_macros().die_face(face))


def spectators(game: Game) -> int:
    """The browsers watching ``game``: as the database counts them, and the arrivals and
    departures in this process it has yet to be told of."""
    return max(0, game.spectators + SPECTATORS.pending(game))


def table_context(game: Game, me: Me | None = None) -> dict:
    """What the ``table`` macro shows of ``game``: the same for every viewer, or (a
    whole page, ``me``) only what its viewer sees of that."""
    view = table_view(game)
    mine = None if me is None else me.my_turn
    return {
        "view": view,
        "pieces": pieces(view, mine),
        "version": game.version,
        "spectators": spectators(game),
        "mine": mine,
        "player": None if me is None else me.player,
        "may_skip": None if me is None else me.may_skip(view.skippers),
    }


def table_html(context: dict) -> str:
    """The table of ``context`` (``table_context``) as markup."""
    return str(table_macros().table(**context))


def render_table(game: Game) -> str:
    """The table as every browser at it is sent it, in the active language: swapped
    in by id (``hx-swap-oob``) wherever it comes, the answer to a move as much as a
    push. Its forms carry no CSRF field: htmx sends the token in a header."""
    return table_html({**table_context(game), "oob": True})


class Published(NamedTuple):
    """A table as it is sent to every browser at it: its version, when the game was read
    for it (a presence change renders the same version again: the newer reading wins),
    and its bytes per language."""

    version: int
    read: float
    tables: dict[str, str]


def published(game: Game, languages: Iterable[str]) -> Published:
    """``game``'s table rendered once in each of ``languages``, in ASCII: every other
    character written as a character reference, which a browser reads as the character
    itself. Each socket it is sent to, and the mover's answer, encode it to UTF-8: an
    ASCII string is copied as it is, but one holding a single character past U+00FF
    (an ellipsis, a name's bidi isolates) is encoded a character at a time, 4 % of
    all a move cost the server (docs/performance.md)."""
    tables = {}
    for language in dict.fromkeys(languages):
        with translation.override(language):
            tables[language] = ascii_html(render_table(game))
    return Published(game.version, game.read_at or time.time(), tables)


def ascii_html(html: str) -> str:
    """``html`` as ASCII, each other character as its numeric character reference."""
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def answer_context(
    game: Game,
    *,
    me: Me | None = None,
    message: str | None = None,
    confirm: str | None = None,
    hint: object | None = None,
) -> dict:
    """The table with what only the page that asked is told: a refusal, a zero to
    confirm, the coach's hint (each marked ``data-answer``, kept by the page when the
    next push of the same version comes, table.js)."""
    context = table_context(game, me)
    confirmed = None
    if confirm:
        name = gettext(game.started_state().ruleset.category(confirm).name)
        joker = context["view"].turn.joker
        confirmed = Confirm(confirm, name, joker.rule.bonus if joker else 0)
    context.update(oob=True, message=message, confirm=confirmed, hint=hint)
    return context


def render_answer(game: Game, **extra: object) -> str:
    """``answer_context``'s table, for an htmx answer."""
    return table_html(answer_context(game, **extra))  # type: ignore[arg-type]


def page_context(game: Game, viewer: Viewer, me: Me, csrf_input: str = "", **extra: object) -> dict:
    """The context of the whole table page for ``viewer``: only what ``me`` sees of the
    table (a page without JavaScript is never pushed the table everyone is sent), with
    its forms' CSRF fields (``csrf_input``), and who is looking, for the page to keep
    its part of each table that comes."""
    table = answer_context(game, me=me, **extra)  # type: ignore[arg-type]
    table.update(oob=False, csrf_input=csrf_input)
    view = table["view"]
    return {
        "table": SafeString(table_html(table)),
        "oob": False,
        "game": game,
        "me": me,
        "ruleset_name": view.turn.ruleset_name,
        "handed_over": handed_over(game, viewer),
        "urls": table_urls(game.code),  # the page's own: the take-back, the table's
        "plays": me.player,  # a spectator has no turn to be called to (the chime)
        "reactions": REACTIONS.items(),
        # at a table of strangers, the players whose reactions this page may mute
        "others": [
            seat.shown_name
            for seat in game.seats.all()
            if seat.kind != Seat.Kind.BOT and seat.name and seat.player_token not in viewer.tokens
        ]
        if game.among_strangers
        else [],
        "rule_tips": rule_tips(game.started_state()),
    }


def handed_over_offer(code: str, seats: tuple[tuple[int, str], ...]) -> str:
    """The take-back offer of a table page, to be swapped in by id (none: emptied)."""
    context = {"handed_over": seats, "urls": table_urls(code), "oob": True}
    return render_to_string(f"{PAGE}#handed-over", context)


def me_marker(me: Me) -> str:
    """Who is looking, as the page carries it (``#me``), to be swapped in by id when a
    seat changes hands."""
    return render_to_string(f"{PAGE}#me", {"me": me, "oob": True})


def render_lobby(game: Game, viewer: Viewer) -> str:
    """The lobby as ``viewer`` sees it, swapped in by id (a push)."""
    context = lobby_context(game, viewer)
    context["oob"] = True
    return render_to_string("games/lobby.html#lobby", context)


def to_the_table(game: Game) -> str:
    """What a lobby page is sent once its game has started: go to the table."""
    context = {"redirect": table_urls(game.code)["table"]}
    return render_to_string("games/lobby.html#to-the-table", context)
