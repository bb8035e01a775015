"""The table rendered for one viewer (``table_view``'s data through the partials of
``games/table.html``), shared by every browser that sees the same, and the other
renderings of the table's pages.

Views and the WebSocket consumer both render through here, so a browser gets the
same table whether it asked for it or was pushed it. Only seats the viewer holds
get live buttons, and only when it is their turn.

A move's table is rendered afresh, but most of it reads as it did: Django's template
engine costs some microseconds per tag and variable, a scorecard has a hundred
cells, and the table partial was most of what a move cost. So the parts of a table
are each a partial rendered once per what it is given (``fragment``): a scorecard's
cell, row and head, a die, the roll button, the presence list, the banner, and
the table partial puts the version's forms around them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from games.bounded import Bounded
from games.models import Game
from games.presence import SPECTATORS
from games.reactions import REACTIONS
from games.scorecard import Cell, Scorecard
from games.tableview import (
    Confirm,
    Table,
    handed_over,
    lobby_context,
    shared_key,
    table_urls,
    table_view,
)
from games.viewer import Viewer

TEMPLATE = "games/table.html"
WATCHING_MARK = "<!--watching-->"  # where the spectators' line goes, filled in per push

# How many renderings of each partial a process keeps (``fragment``): a scorecard's
# cells and rows come in hundreds per rule set and language, the rest in tens.
_FRAGMENT_SIZES = {"scorecard-cell": 8192, "scorecard-sum": 4096, "scorecard-row": 8192}
_FRAGMENTS: dict[str, Bounded[tuple, SafeString]] = {}

Kept = TypeVar("Kept")


def kept(cache: Bounded[tuple, Kept], key: tuple, make: Callable[[], Kept]) -> Kept:
    """``cache[key]``, made by ``make`` the first time; made afresh every time when the
    render caches are off (``YATZY_RENDER_CACHE``)."""
    if not settings.YATZY_RENDER_CACHE:
        return make()
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
    return value


def fragment(partial: str, **context: object) -> SafeString:
    """The ``partial`` of ``table.html`` rendered with ``context`` alone (no request, so
    no context processor adds to it) in the active language, kept per process under
    the language and ``context`` itself: a key cannot forget something its partial is
    shown. A value must always be given as one type (a name as ``str``, never
    ``SafeString``): equal values render the same."""
    cache = _FRAGMENTS.get(partial)
    if cache is None:
        cache = _FRAGMENTS[partial] = Bounded(_FRAGMENT_SIZES.get(partial, 1024))
    key = (get_language(), *context.items())
    return kept(cache, key, lambda: render_to_string(f"{TEMPLATE}#{partial}", context))


class Pieces(NamedTuple):
    """The parts of one table rendered (``fragment``), for the table partial to put
    the version's forms around."""

    heading: SafeString  # the title, the turn banner, the target and joker lines
    banner: SafeString
    joker: SafeString
    dice: tuple[SafeString, ...]  # each die's button, or the line saying none is rolled
    roll_button: SafeString
    presence: SafeString
    scorecard: SafeString


def pieces(view: Table) -> Pieces:
    turn = view.turn
    banner = fragment("banner", turn=turn)
    joker = fragment("joker", joker=turn.joker) if turn.joker else SafeString()
    if view.dice:
        dice = tuple(
            fragment("die", position=i, face=face, held=held, can_hold=view.can_hold)
            for i, (face, held) in enumerate(view.dice)
        )
    else:
        dice = (fragment("no-dice", count=view.dice_count),)
    return Pieces(
        heading=fragment("heading", turn=turn, banner=banner, joker=joker),
        banner=banner,
        joker=joker,
        dice=dice,
        roll_button=fragment("roll-button", can_roll=view.can_roll, rolls_left=turn.rolls_left),
        presence=fragment("presence", presence=view.presence),
        scorecard=scorecard_html(view.scorecard),
    )


_COLUMNS: Bounded[tuple, tuple[SafeString, ...]] = Bounded(1024)


def scorecard_html(card: Scorecard) -> SafeString:
    """The scorecard's table from its rows, each rendered once per its cells, from
    columns whose cells are each rendered once per what they show: between two rolls
    only the column to move changes, and only for the player to move."""
    columns = [
        _column_html(card, cells, index == card.current_column)
        for index, cells in enumerate(card.cells)
    ]
    rows = tuple(
        fragment("scorecard-row", kind=kind, name=name, cells=tuple(c[r] for c in columns))
        for r, (_key, name, kind) in enumerate(card.rows)
    )
    heads = tuple(zip(card.columns, card.titles, strict=True))
    head = fragment("scorecard-head", heads=heads, current_column=card.current_column)
    context = {"head": head, "rows": rows, "columns": len(card.columns)}
    return render_to_string(f"{TEMPLATE}#scorecard", context)


def _column_html(card: Scorecard, cells: tuple, current: bool) -> tuple[SafeString, ...]:
    """One column's ``<td>`` cells, top to bottom, kept per the cells and language."""
    key = (get_language(), card.rows, cells, current)
    return kept(
        _COLUMNS,
        key,
        lambda: tuple(
            # the cell's fields one by one: a key of plain values, which the garbage
            # collector stops walking (a named tuple it walks for as long as it is kept)
            fragment(
                "scorecard-cell",
                category=category,
                name=name,
                css=cell.css,
                points=cell.points,
                option=cell.option,
                declarable=cell.declarable,
                bonus=cell.bonus,
            )
            if isinstance(cell, Cell)
            else fragment("scorecard-sum", value=cell, current=current)
            for cell, (category, name, _kind) in zip(cells, card.rows, strict=True)
        ),
    )


def table_page(
    request: HttpRequest,
    game: Game,
    viewer: Viewer,
    *,
    message: str | None = None,
    confirm: str | None = None,
    hint: object | None = None,
) -> dict:
    """The context of the table page for ``viewer``, or of an htmx answer that carries
    more than the table does (a refusal, a zero to confirm, the coach's hint): either
    renders the ``table`` partial, whole (``render_table``)."""
    view = table_view(game, viewer)
    confirmed = None
    if confirm:
        name = gettext(game.started_state().ruleset.category(confirm).name)
        joker = view.turn.joker
        confirmed = Confirm(confirm, name, joker.rule.bonus if joker else 0)
    return {
        "game": game,
        "ruleset_name": view.turn.ruleset_name,
        "view": view,
        "pieces": pieces(view),
        "version": game.version,
        "spectators": spectators(game),
        "message": message,
        "confirm": confirmed,
        "hint": hint,
        "handed_over": handed_over(game, viewer),
        "urls": table_urls(game.code),  # the page's own: the take-back, the table's
        # a spectator has no turn to be called to (the chime)
        "plays": any(seat.token in viewer.tokens for seat in game.seats.all()),
        "reactions": REACTIONS.items(),
    }


def render_table(context: dict) -> str:
    """The table partial of ``table_page``'s context, for an htmx answer: its forms carry
    no CSRF field (htmx sends the token in a header), as the shared renderings'."""
    return render_to_string(f"{TEMPLATE}#table", context)


def handed_over_offer(code: str, seats: tuple[tuple[int, str], ...]) -> str:
    """The take-back offer of a table page, to be swapped in by id (none: emptied)."""
    context = {"handed_over": seats, "urls": table_urls(code), "oob": True}
    return render_to_string("games/table.html#handed-over", context)


class Shown(NamedTuple):
    """A table as the viewers of one view key see it: what it shows, its parts, and the
    inside of its section rendered, with the spectators' line still to fill in
    (``WATCHING_MARK``)."""

    view: Table
    pieces: Pieces
    content: SafeString


_LIVE_CACHE: Bounded[tuple, Shown] = Bounded(2048)


def render_live(game: Game, viewer: Viewer, lobby_page: bool) -> str:
    """What the WebSocket sends ``viewer``: the lobby or table partial, swapped in by id.

    A lobby that has started, or a finished table with a next game, carries
    ``data-redirect`` so the browser follows to where the players are. Each page is
    sent only what it has a place for (htmx logs a part without one as an error): a
    lobby page whose game has started, only that redirect.
    """
    if game.status == Game.Status.LOBBY:
        context = lobby_context(game, viewer)
        context["oob"] = True
        return render_to_string("games/lobby.html#lobby", context)
    if lobby_page:
        return _to_the_table(game)
    key, pushes = _push_key(game, viewer, get_language())
    html = pushes.get(key)
    if html is None:
        html = pushes[key] = _section(game, _shown(game, viewer), oob=True)
    return html


def cached_live(game: Game, viewer: Viewer, language: str, lobby_page: bool) -> str | None:
    """What ``render_live`` would send ``viewer`` in ``language``, if that needs neither
    the database nor a rendering of the table: it is in the cache (``game`` read with
    its seats, as ``snapshots`` reads them). Safe to call on the event loop; ``None``
    means render it (``render_live``).

    The string sent is kept on the game, per view and spectator count, so the browsers
    that see the same table share one string, made once (and hashed once)."""
    if game.status == Game.Status.LOBBY:
        return None
    if lobby_page:
        return _to_the_table(game)
    key, pushes = _push_key(game, viewer, language)
    html = pushes.get(key)
    if html is None:
        shown = _LIVE_CACHE.get(key[0]) if settings.YATZY_RENDER_CACHE else None
        if shown is None:
            return None
        with translation.override(language):
            html = pushes[key] = _section(game, shown, oob=True)
    return html


def _push_key(game: Game, viewer: Viewer, language: str) -> tuple[tuple, dict[tuple, str]]:
    """The key of what ``viewer`` is pushed of this read of ``game`` (its view and the
    spectators' count), and the pushes made of this read so far: every socket that is
    sent the same table shares one string, however it got there."""
    key = (_view_key(game, viewer, language), spectators(game))
    return key, game.__dict__.setdefault("_pushes", {})


def spectators(game: Game) -> int:
    """The browsers watching ``game``: as the database counts them, and the arrivals and
    departures in this process it has yet to be told of."""
    return max(0, game.spectators + SPECTATORS.pending(game))


def _to_the_table(game: Game) -> str:
    """What a lobby page is sent once its game has started: go to the table."""
    context = {"redirect": table_urls(game.code)["table"]}
    return render_to_string("games/lobby.html#to-the-table", context)


def table_partial(game: Game, viewer: Viewer) -> str:
    """The table partial as ``viewer`` sees it, for htmx answers: the rendering its
    socket is pushed too (``render_live``), but for the push's ``hx-swap-oob``. Forms
    carry no CSRF field: htmx sends the token in a header."""
    return _section(game, _shown(game, viewer), oob=False)


def _shown(game: Game, viewer: Viewer) -> Shown:
    """The table as ``viewer`` sees it, rendered once per process for all who see the
    same (everyone but the seat to move, at one version, in one language): the answer
    to a move is the rendering the mover's other pages are pushed, and rendering is
    the cost of a move. Spectators come and go without a move: their count is filled
    in per answer and push (``_section``), so that their arrivals do not each cost a
    rendering."""
    return kept(_LIVE_CACHE, _view_key(game, viewer, get_language()), lambda: _render(game, viewer))


def _render(game: Game, viewer: Viewer) -> Shown:
    view = table_view(game, viewer)
    parts = pieces(view)
    context = {"view": view, "pieces": parts, "version": game.version, "spectators": None}
    return Shown(view, parts, render_to_string(f"{TEMPLATE}#table-content", context))


def _section(game: Game, shown: Shown, oob: bool) -> str:
    """The ``#table`` section around ``shown``'s inside, its spectators' line filled in;
    with ``oob``, swapped in by id (a push)."""
    watching = fragment("watching", spectators=spectators(game))
    # safe: a rendering, with a rendered partial in place of its mark
    content = mark_safe(shown.content.replace(WATCHING_MARK, watching, 1))
    context = {
        "view": shown.view,
        "pieces": shown.pieces,
        "version": game.version,
        "content": content,
        "oob": oob,
    }
    return render_to_string(f"{TEMPLATE}#table", context)


def _view_key(game: Game, viewer: Viewer, language: str) -> tuple:
    """Everything the table partial depends on, for ``viewer`` in ``language``. What is
    the same for every viewer is worked out once per game read and kept on it: a move
    asks for the key of every browser at its table. (Whether the player to move has
    been away long enough to be skipped changes with time alone; a read of the game
    is kept for the notices of one version, seconds at most.)"""
    shared = shared_key(game)
    token_to_move = shared.token_to_move
    live = token_to_move is not None and token_to_move in viewer.tokens
    # the host (or, with the host gone too, the players) sees more than the others only
    # when the player to move is away, and the players more than the spectators only at
    # the end (they may play again)
    player = bool(shared.players & viewer.tokens)
    return (shared.common, language, live, shared.skippers.include(viewer), player)
