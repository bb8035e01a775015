"""The actions no browser asks for: a computer player's step, which the computer
players (``games.bots``) ask for when they hear that a table they play at has changed,
and the skip of a turn whose time ran out (``games.bots`` too, at the turn's end)."""

from __future__ import annotations

import random
import secrets

from django.db import transaction

from games import clock
from games import rules as engine
from games.models import Game, GameEvent, Seat
from games.rules import Move
from games.rules.moves import HOLD, ROLL, SKIP
from games.seating import seat_of
from games.services import core
from games.strategy import bots as strategy

# The computer players' own choices (a Beginner's slips) come from here.
rng: random.Random = secrets.SystemRandom()


def expire_turn(code: str, version: int) -> bool:
    """At a table with a turn timer: skip the turn of the player to move, as the host's
    skip does (a zero in their lowest-value open category), if the game is still at
    ``version`` and the turn's time has run out by the site's clock. Returns whether
    it skipped."""
    with transaction.atomic():
        game = core.locked(code)
        deadline = game.turn_deadline
        if game.version != version or game.status != Game.Status.PLAYING or deadline is None:
            return False
        if clock.now() < deadline:
            return False
        state = game.started_state()
        seat = seat_of(game, state.to_move)
        new_state = engine.apply(state, state.to_move, Move(SKIP), core.dice_of(game))
        core.save_state(game, state, new_state, GameEvent.Kind.SKIP, seat)
    return True


def bot_move(code: str, version: int, rng_for_bot: random.Random | None = None) -> bool:
    """One step of the computer player to move, if the game is still at ``version``
    (otherwise another process or a human got there first). A roll with new held
    dice is two steps, hold then roll, so everyone at the table sees the hold.
    Returns whether it moved."""
    with transaction.atomic():
        game = core.locked(code)
        if game.version != version or game.status != Game.Status.PLAYING:
            return False
        state = game.started_state()
        seat = seat_of(game, state.to_move)
        if seat.kind != Seat.Kind.BOT:
            return False
        level = seat.bot_level or "good"
        last = game.events.order_by("-id").values_list("kind", "data").first()
        last_kind, last_data = last or ("", {})
        if 0 < state.roll_number < engine.MAX_ROLLS and last_kind == GameEvent.Kind.HOLD:
            # the roll its hold chose: the review judges the keep here, at the hold's level
            move: Move = Move(ROLL)
            played_as = last_data.get("played_as", "")
        else:
            choice = strategy.choose_move(state, level, rng_for_bot or rng)
            # logged where it is not the seat's (a Perfect player without its tables),
            # for the history and the review to tell the truth about it
            played_as = choice.level if choice.level != level else ""
            move = choice
            if move.kind == ROLL and state.roll_number and set(move.held) != set(state.held):
                move = Move(HOLD, move.held)
        new_state = engine.apply(state, state.to_move, move, core.dice_of(game))
        core.save_state(game, state, new_state, move.kind, seat, played_as=played_as)
    return True
