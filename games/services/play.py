"""The moves of the player to move: roll, hold, declare, score. Each is one
transaction that locks the game with its seats, checks the version and the seat, and
plays a ``rules.Move`` through the engine (``rules.apply``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import presence
from games import rules as engine
from games.bidi import isolated_text
from games.errors import ActionError, NotYourSeat, from_rules
from games.models import Game
from games.rules import Move
from games.rules.moves import DECLARE, HOLD, ROLL, SCORE
from games.seating import player_tokens, seat_of
from games.services import core
from games.viewer import Viewer


def roll(code: str, viewer: Viewer, version: int, held: Iterable[int] | None = None) -> Game:
    return _play(code, viewer, version, Move(ROLL, None if held is None else tuple(held)))


def hold(code: str, viewer: Viewer, version: int, held: Iterable[int]) -> Game:
    return _play(code, viewer, version, Move(HOLD, tuple(held)))


def toggle_die(code: str, viewer: Viewer, version: int, position: int) -> Game:
    """Hold the die at ``position`` if it is free, release it if it is held."""

    def toggled(state: engine.GameState) -> Move:
        return Move(HOLD, tuple(sorted(set(state.held) ^ {position})))

    return _play(code, viewer, version, toggled)


def declare(code: str, viewer: Viewer, version: int, category: str) -> Game:
    return _play(code, viewer, version, Move(DECLARE, category=category))


def score(code: str, viewer: Viewer, version: int, category: str) -> Game:
    return _play(code, viewer, version, Move(SCORE, category=category))


def _play(
    code: str,
    viewer: Viewer,
    version: int,
    move: Move | Callable[[engine.GameState], Move],
) -> Game:
    """Play ``move`` (or the move it makes of the state) for the player to move, who
    must be one of ``viewer``'s seats. Locks the game's row."""
    with transaction.atomic():
        game = core.locked(code, with_seats=True)
        core.check_version(game, version)
        if game.status != Game.Status.PLAYING:
            not_playing = (
                _("The game is over.")
                if game.status == Game.Status.FINISHED
                else _("The game has not started yet.")
            )
            raise ActionError(not_playing, code="not_playing", status=409)
        state = game.started_state()
        # The seats, read with the game, serve the turn check, the computer-player
        # check and the table the mover gets back.
        seat = seat_of(game, state.to_move)
        if seat.token not in viewer.tokens:
            if not player_tokens(game) & viewer.tokens:
                # a spectator, who never has a turn to wait for
                raise NotYourSeat(_("You are watching this table: only its players can play."))
            if seat.handed_from:  # a player's seat, the computer's while they are away
                message = gettext("A computer player plays %(name)s's turn.")
            else:
                message = gettext("It is %(name)s's turn, not yours.")
            raise NotYourSeat(message % {"name": isolated_text(seat.shown_name)})
        if callable(move):
            move = move(state)
        try:
            new_state = engine.apply(state, state.to_move, move, core.dice_of(game))
        except engine.RulesError as error:
            raise from_rules(error) from None
        if seat.connections == 0:  # a page without a socket (no JavaScript) that plays
            presence.here_now([seat])  # is at the table: not to be skipped as gone
        core.save_state(game, state, new_state, move.kind, seat)
    return game
