"""The table as one viewer sees it: the context of ``table.html`` and its rendering.

Views and the WebSocket consumer both render through here, so a browser gets the
same table whether it asked for it or was pushed it. Only seats the viewer holds
get live buttons, and only when it is their turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import rules
from games.bounded import Bounded
from games.models import Game, Seat
from games.presence import SPECTATORS, is_away
from games.scorecard import column_names, scorecard_table
from games.services import Viewer
from games.snapshots import seats_at_hand

TEMPLATE = "games/table.html"
RULESET_NAMES = {
    "yatzy": _("Scandinavian Yatzy"),
    "yahtzee": _("American Yahtzee"),
    "maxi_yatzy": _("Maxi Yatzy"),
}


_PIPS = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 25), (72, 25), (28, 50), (72, 50), (28, 75), (72, 75)),
}


@dataclass(frozen=True)
class Die:
    position: int  # 0-based
    face: int
    held: bool

    @property
    def number(self) -> int:
        return self.position + 1

    @property
    def svg(self) -> str:
        """The face as an SVG drawing (decorative: the button carries the name)."""
        return _FACES[self.face]

    @property
    def label(self) -> str:
        return gettext("Die %(number)s: %(face)s") % {"number": self.number, "face": self.face}

    @property
    def title(self) -> str:
        return gettext("Held: click to release") if self.held else gettext("Click to hold")


def dice_buttons(state: rules.GameState, can_hold: bool) -> SafeString:
    """The dice as the hold form's buttons (empty before the first roll). Built here and
    not in the template, like the scorecard's cells: a loop of five buttons of a dozen
    tags each was most of the table's own template, and a die reads the same from one
    table to the next far more often than not."""
    language = get_language()
    return mark_safe(
        "".join(
            _die_button(Die(position=i, face=face, held=i in state.held), can_hold, language)
            for i, face in enumerate(state.dice)
        )
    )


@lru_cache(maxsize=512)  # 6 faces x 2 x 5 positions x 2 x the languages
def _die_button(die: Die, can_hold: bool, language: str) -> SafeString:
    """One die's button (``language`` keys the cache: its name and tooltip are in it).
    Its id lets keyboard focus survive a new table."""
    return format_html(
        '<button type="submit" id="die-{}" name="die" value="{}" class="die{}"'
        ' aria-pressed="{}" aria-label="{}" title="{}"{}>{}</button>',
        die.position,
        die.position,
        " held" if die.held else "",
        "true" if die.held else "false",
        die.label,
        die.title,
        "" if can_hold else mark_safe(" disabled"),
        die.svg,
    )


@lru_cache(maxsize=64)  # 2 x 4 x the languages
def _roll_button(can_roll: bool, rolls_left: int, language: str) -> SafeString:
    """The roll button, with the rolls left (``language`` keys the cache). Built here
    like the dice: its two translation tags were a tenth of the table's template."""
    rolls = ngettext("%(counter)s roll left", "%(counter)s rolls left", rolls_left) % {
        "counter": rolls_left
    }
    return format_html(
        '<button type="submit" id="roll-button" class="primary roll-button"{}>'
        '{} <span class="rolls-left">({})</span></button>',
        "" if can_roll else mark_safe(" disabled"),
        gettext("Roll"),
        rolls,
    )


def _face_svg(face: int) -> str:
    circles = "".join(format_html('<circle cx="{}" cy="{}" r="9"/>', x, y) for x, y in _PIPS[face])
    # Safe: built from the constant pip table above.
    return mark_safe(
        '<svg class="die-face" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
        f'<rect x="4" y="4" width="92" height="92" rx="16"/>{circles}</svg>'
    )


# Six faces, drawn once per process instead of once per die per rendering.
_FACES = {face: _face_svg(face) for face in _PIPS}


def seat_names(game: Game) -> dict[int, str]:
    return {
        seat.player_index: seat.name for seat in game.seats.all() if seat.player_index is not None
    }


def table_context(
    game: Game,
    viewer: Viewer,
    *,
    message: str | None = None,
    confirm: str | None = None,
    hint: object | None = None,
    watching_line: str | None = None,
) -> dict:
    """Everything ``table.html`` shows to ``viewer``; ``confirm`` is a category whose
    zero score waits for the player's confirmation; ``watching_line`` stands in for
    the spectators' line, counted now if not given."""
    seats = list(game.seats.all())
    state = game.engine_state()
    context: dict = {
        "game": game,
        "urls": table_urls(game.code),
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "message": message,
        "hint": hint,
        "seats": seats,
        "is_host": game.host_browser == viewer.browser_id,
        "my_seats": [s for s in seats if s.token in viewer.tokens],
        "presence": presence(seats),
        "watching": watching(spectators(game)) if watching_line is None else watching_line,
    }
    if state is None:
        return context
    names = {s.player_index: s.name for s in seats if s.player_index is not None}
    controlled = {s.player_index for s in seats if s.token in viewer.tokens}
    to_move = state.current_player
    live = to_move is not None and to_move in controlled
    declaring = (
        live and state.options.declared_target and state.roll_number > 0 and not state.target
    )
    context.update(
        state=state,
        live=live,
        declaring=declaring,
        player_to_move=names.get(to_move, "") if to_move is not None else "",
        columns=column_names(state, names),
        dice_count=state.dice_count,
        rolls_left=rules.MAX_ROLLS - state.roll_number,
        can_roll=live
        and state.roll_number < rules.MAX_ROLLS
        and not declaring
        and len(state.held) < state.dice_count,
        can_hold=live and 0 < state.roll_number < rules.MAX_ROLLS,
        target_name=gettext(state.ruleset.category(state.target).name) if state.target else "",
        confirm=confirm,
        confirm_name=gettext(state.ruleset.category(confirm).name) if confirm else "",
        ranking=_ranking(state, names) if state.is_finished else [],
        hot_seat=len(controlled) > 1,
        can_skip=context["is_host"] and not live and _seat_to_move_is_away(seats, to_move),
        can_hint=live and game.coach and not state.is_finished,
        bot_to_move=any(s.player_index == to_move and s.kind == Seat.Kind.BOT for s in seats),
    )
    context["dice_buttons"] = dice_buttons(state, context["can_hold"])
    context["roll_button"] = _roll_button(
        context["can_roll"], context["rolls_left"], get_language()
    )
    context["scorecard"] = scorecard_table(state, context["columns"], live, declaring)
    return context


_TABLE_ACTIONS = (
    "table",
    "roll",
    "hold",
    "declare",
    "score",
    "hint",
    "skip_turn",
    "hand_to_bot",
    "play_again",
    "review",
)


@lru_cache(maxsize=4096)
def table_urls(code: str) -> dict[str, str]:
    """The table's links and form actions, reversed once per game and process rather
    than a dozen times per rendering."""
    return {name: reverse(name, args=[code]) for name in _TABLE_ACTIONS}


def presence(seats: list[Seat]) -> SafeString:
    """The presence list's lines: the remote players, connected or away, and the
    computer players (the players at this screen are not listed)."""
    return _presence(
        tuple((seat.kind, seat.name, seat.connections > 0) for seat in seats), get_language()
    )


@lru_cache(maxsize=512)  # a table's list changes only when someone comes or goes
def _presence(seats: tuple[tuple[str, str, bool], ...], language: str) -> SafeString:
    """``presence`` of seats given as (kind, name, connected), in ``language`` (which
    keys the cache). Built here and not in the template, like the dice: its loop was a
    tenth of the table's template, and it reads the same from one move to the next."""
    lines = []
    for kind, name, connected in seats:
        if kind == Seat.Kind.REMOTE:
            state = gettext("connected") if connected else gettext("away")
            css = "online" if connected else "offline"
            lines.append(format_html('<li class="{}">{}: {}</li>', css, name, state))
        elif kind == Seat.Kind.BOT:
            line = format_html('<li class="bot">{}: {}</li>', name, gettext("computer player"))
            lines.append(line)
    return mark_safe("".join(lines))


def _seat_to_move_is_away(seats: list[Seat], to_move: int | None) -> bool:
    return any(s.player_index == to_move and is_away(s) for s in seats if to_move is not None)


def _ranking(state: rules.GameState, names: dict[int, str]) -> list[dict]:
    columns = column_names(state, names)
    return [
        {"rank": rank, "name": columns[index], "total": total, "winner": rank == 1}
        for rank, index, total in state.ranking()
    ]


def lobby_context(game: Game, viewer: Viewer, request: HttpRequest | None = None) -> dict:
    join_path = reverse("join", args=[game.code])
    seats = list(game.seats.all())
    mine = [seat for seat in seats if seat.token in viewer.tokens]
    return {
        "game": game,
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "seats": [(seat, seat_label(seat)) for seat in seats],
        "is_host": game.host_browser == viewer.browser_id,
        "my_seats": mine,
        "rejoin_paths": [reverse("rejoin", args=[game.code, seat.token]) for seat in mine],
        "invite_url": request.build_absolute_uri(join_path) if request else join_path,
        "open_seats": sum(1 for seat in seats if seat.is_open),
        "filled_seats": sum(1 for seat in seats if not seat.is_open),
    }


_LIVE_CACHE: Bounded[tuple, str] = Bounded(2048)
_TABLE_TAG = '<section id="table"'
_WATCHING_MARK = "<!--watching-->"


def render_live(game: Game, viewer: Viewer) -> str:
    """What the WebSocket sends ``viewer``: the lobby or table partial, swapped in by id.

    A lobby that has started, or a finished table with a next game, carries
    ``data-redirect`` so the browser follows to where the players are.
    """
    if game.status == Game.Status.LOBBY:
        context = lobby_context(game, viewer)
        context["oob"] = True
        return render_to_string("games/lobby.html#lobby", context)
    return _live(game, table_partial(game, viewer))


def warm(game: Game) -> None:
    """Render, in the thread that made the move and as it commits, the tables its
    connected browsers are about to be pushed (one per distinct view), so that their
    sockets send them straight from the event loop instead of each queueing for a
    thread behind other requests. The game's seats must be at hand."""
    if game.status == Game.Status.LOBBY:
        return
    tokens: dict[str, set[str]] = {}  # browser: the seats it holds, as its session does
    for seat in game.seats.all():
        if seat.connections > 0:
            tokens.setdefault(seat.browser_id, set()).add(seat.token)
    viewers = [Viewer(browser, frozenset(held)) for browser, held in tokens.items()]
    if spectators(game) > 0:
        viewers.append(Viewer(""))
    for viewer in viewers:
        table_partial(game, viewer)


def cached_live(game: Game, viewer: Viewer) -> str | None:
    """What ``render_live`` would send, if that needs neither the database nor a
    rendering: the table is in the cache and the game's seats are at hand. Safe to
    call on the event loop; ``None`` means render in a thread."""
    if game.status == Game.Status.LOBBY or not seats_at_hand(game):
        return None
    html = table_partial(game, viewer, render=False)
    return None if html is None else _live(game, html)


def spectators(game: Game) -> int:
    """The browsers watching ``game``: as the database counts them, and the arrivals and
    departures in this process it has yet to be told of."""
    return max(0, game.spectators + SPECTATORS.pending(game))


def watching(spectators: int) -> str:
    """The presence list's line that counts the spectators; none for none."""
    return _watching(spectators, get_language()) if spectators else ""


@lru_cache(maxsize=256)  # filled in on every table sent
def _watching(spectators: int, language: str) -> str:
    """``watching``'s line in ``language`` (which keys the cache)."""
    text = ngettext("%(counter)s watching", "%(counter)s watching", spectators) % {
        "counter": spectators
    }
    return format_html('<li class="watching">{}</li>', text)


def _with_watching(game: Game, html: str) -> str:
    return html.replace(_WATCHING_MARK, watching(spectators(game)), 1)


def _live(game: Game, html: str) -> str:
    html = html.replace(_TABLE_TAG, _TABLE_TAG + ' hx-swap-oob="true"', 1)
    # A browser still on the lobby page has no table to swap: send it to the table.
    table_url = table_urls(game.code)["table"]
    return html + f'<div id="lobby" hx-swap-oob="true" data-redirect="{table_url}"></div>'


def table_partial(game: Game, viewer: Viewer, render: bool = True) -> str | None:
    """The table partial as ``viewer`` sees it, for htmx answers and socket pushes;
    with ``render=False``, only if it is rendered already (else ``None``).

    Viewers who see the same table (everyone but the seat to move, at one version,
    in one language) share one rendering per process, and the answer to a move is
    the rendering the mover's own socket is then pushed: rendering is the cost of a
    move. Forms carry no CSRF field: htmx sends the token in a header.
    """
    key = _view_key(game, viewer)
    html = _LIVE_CACHE.get(key)
    if html is None and not render:
        return None
    if html is None:
        # Spectators come and go without a move: their count is filled in per
        # request, so that their arrivals do not each cost a rendering.
        context = table_context(game, viewer, watching_line=mark_safe(_WATCHING_MARK))
        if game.next_game_id:
            context["redirect"] = table_urls(game.next_game.code)["table"]
        html = render_to_string(TEMPLATE + "#table", context)
        _LIVE_CACHE[key] = html
    return _with_watching(game, html)


def _view_key(game: Game, viewer: Viewer) -> tuple:
    """Everything the table partial depends on besides the game version."""
    seats = list(game.seats.all())
    to_move = game.engine_state().current_player
    live = any(s.player_index == to_move and s.token in viewer.tokens for s in seats)
    presence = tuple((s.id, s.connections > 0, s.away_since) for s in seats)
    away = _seat_to_move_is_away(seats, to_move)  # changes with time alone
    return (
        game.id,
        game.code,  # ids are reused when a test database rolls back; codes are not
        game.version,
        game.next_game_id,
        get_language(),
        presence,
        away,
        live,
        # the host sees more than the others only when the player to move is away
        away and game.host_browser == viewer.browser_id,
    )


def seat_label(seat: Seat) -> str:
    return seat.name or gettext("Open seat %(number)s") % {"number": seat.position + 1}
