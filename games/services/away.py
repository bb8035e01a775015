"""The actions on a player who has gone away: skip their turn, let a computer player
play for them, and their taking the seat back. Who may do them is the seat policy's
(``games.seating``): the host once the player to move is away, any player once the
host is away too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import rules as engine
from games.bidi import isolated_text
from games.errors import ActionError, NotYourSeat
from games.models import BOT_LEVELS, Game, GameEvent, Seat, new_seat_token
from games.rules import Move
from games.rules.moves import SKIP
from games.seating import handed_from, hosts_players, is_away, skippers
from games.services import core
from games.viewer import Viewer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def skip_turn(code: str, viewer: Viewer, version: int) -> Game:
    """The host ends the turn of a player who has gone away: a zero in their
    lowest-value open category (RULES.md leaves the choice to the rules)."""
    with transaction.atomic():
        game, state, seat = _away_seat_to_move(
            code, viewer, version, _("Only a running game has turns to skip.")
        )
        new_state = engine.apply(state, state.to_move, Move(SKIP), core.dice_of(game))
        core.save_state(game, state, new_state, GameEvent.Kind.SKIP, seat)
    return game


def hand_to_bot(code: str, viewer: Viewer, version: int, level: str = "") -> Game:
    """The host gives the seat of a player who has gone away to a computer player,
    which plays on from where the game is (that player's browser loses the seat).
    It plays at ``level``; if none is named, at the level the seat was last handed
    over at (it keeps it when its player takes it back), else Good."""
    if level and level not in BOT_LEVELS:
        raise ActionError(_("There is no such computer player."), code="bad_level")
    with transaction.atomic():
        game, _state, seat = _away_seat_to_move(
            code, viewer, version, _("Only a running game has seats to hand over.")
        )
        level = level or seat.bot_level or "good"
        seat.handed_kind, seat.kind = seat.kind, Seat.Kind.BOT
        seat.bot_level = level
        seat.browser_id = ""
        seat.handed_from = seat.token
        seat.token = new_seat_token()
        seat.save(
            update_fields=["kind", "handed_kind", "bot_level", "browser_id", "handed_from", "token"]
        )
        core.bump(game, GameEvent.Kind.HANDOVER, seat, {"level": level})
    return game


def take_back(code: str, viewer: Viewer, position: int | None) -> Game:
    """A player whose seat was handed to a computer player while they were away takes
    it back: the seat at ``position``, one of those handed over from ``viewer``'s (a
    browser may have had several: the host's screen). No version: the computer moves
    on while the page offering it is open. The seat keeps the computer's level, for
    the next time it is handed over."""
    with transaction.atomic():
        game = core.locked(code)
        seats = handed_from(game, viewer)
        if not seats:
            raise NotYourSeat(_("No seat at this table was handed over from this browser."))
        if game.status != Game.Status.PLAYING:
            raise ActionError(_("The game is over."), code="not_playing", status=409)
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:  # a page from before that seat was taken back, or a forged form
            raise ActionError(
                _(
                    "That seat is not one handed over from this browser (any more): "
                    "reload the table and try again."
                ),
                code="not_handed_over",
                status=409,
            )
        # the kind of seat it was: one at the host's screen is one again if taken back
        # there (the host's own is the host's again: ``host_seats``), else a friend's
        back_at_hosts_screen = (
            seat.handed_kind == Seat.Kind.LOCAL and viewer.browser_id == game.host_browser
        )
        seat.kind = Seat.Kind.LOCAL if back_at_hosts_screen else Seat.Kind.REMOTE
        seat.handed_kind = ""
        seat.token, seat.handed_from = seat.handed_from, ""
        seat.browser_id = viewer.browser_id
        fields = ["kind", "handed_kind", "token", "handed_from", "browser_id"]
        if seat.connections == 0:  # taken back by a page without a socket (no JavaScript):
            seat.away_since = timezone.now()  # the player is away from now only
            fields.append("away_since")
        seat.save(update_fields=fields)
        core.bump(game, GameEvent.Kind.TAKEBACK, seat, {})
    return game


def _away_seat_to_move(
    code: str, viewer: Viewer, version: int, not_playing: StrOrPromise
) -> tuple[Game, engine.GameState, Seat]:
    """For the actions on a player who has gone away: the locked game, its state and
    the seat to move, once the seat is known to be away. They are the host's; once the
    host has gone away too, any player's, or the table could not go on."""
    game = core.locked(code)
    core.check_version(game, version)
    seats = game.all_seats()
    is_host = game.host_browser == viewer.browser_id
    if not is_host and not any(
        s.token in viewer.tokens and s.player_index is not None for s in seats
    ):
        raise NotYourSeat(_("Only the host of this table can do that."))
    if game.status != Game.Status.PLAYING:
        raise ActionError(not_playing, status=409)
    state = game.started_state()
    seat = next(s for s in seats if s.player_index == state.current_player)
    may_skip = skippers(game, seats, state.current_player)
    if may_skip.host is None:
        named = {"name": isolated_text(seat.shown_name)}  # plain text: see games.bidi
        if seat.token in viewer.tokens:  # their own turn (at a shared screen, say)
            message = gettext("It is %(name)s's turn at this screen: play it here.")
            raise ActionError(message % named, code="not_away", status=409)
        # a friend may once the host's screen is away too: if it would still be there
        # when the player to move has gone, the friend may not at all
        hosts = hosts_players(game, seats)
        if not is_host and (not hosts or any(not is_away(s) for s in hosts if s.pk != seat.pk)):
            message = gettext("Only the host can do that, and only once %(name)s has gone away.")
            raise NotYourSeat(message % named)
        raise ActionError(
            gettext("%(name)s is at the table: wait for their move.") % named,
            code="not_away",
            status=409,
        )
    if not may_skip.include(viewer):
        raise NotYourSeat(_("The host is at the table: only the host can do that."))
    return game, state, seat
