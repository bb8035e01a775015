"""The steps every action shares: find and lock the game, check the version the page
was drawn at, save the new state with a bumped version, log what happened, and
publish "game X is at version V" once the transaction commits, so that nobody hears
of a change that rolled back.

Every action locks its game row (``select_for_update``; on SQLite the immediate
transaction already serialises writers) for the length of its transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from prometheus_client import Counter

from games import broadcast, clock, daily, metrics, signals, statements
from games import rules as engine
from games.errors import GameNotFound, StaleGame
from games.models import Game, GameEvent, ScoreEntry, Seat, first
from games.rules import fairness
from games.rules.state import YAHTZEE_BONUS_POINTS


def committed_dice(seed: str = "") -> dict[str, str]:
    """The dice fields of a new game: ``seed`` (a daily challenge's), else a fresh
    secret one, and its fingerprint."""
    seed = seed or fairness.new_seed()
    return {"dice_seed": seed, "dice_commitment": fairness.commitment(seed)}


# How a game's dice follow from its seed: the one place the dice are made, which the
# tests that script the dice replace (tests/conftest.py, ``dice``).
dice_of_seed: Callable[[str], engine.Dice] = fairness.dice_of_seed


def dice_of(game: Game) -> engine.Dice:
    """Where the dice of ``game`` come from: its seed (``rules.fairness``)."""
    return dice_of_seed(game.dice_seed)


Event = tuple[str, Seat | None, dict]  # kind, the seat that acted, what it did

# the events that the table says happened, as its last move
TABLE_MOVES = frozenset(
    (
        GameEvent.Kind.ROLL,
        GameEvent.Kind.HOLD,
        GameEvent.Kind.DECLARE,
        GameEvent.Kind.SCORE,
        GameEvent.Kind.SKIP,
        GameEvent.Kind.HANDOVER,
        GameEvent.Kind.TAKEBACK,
    )
)
# each move's count on /metrics, counted once it commits
MOVES_COMMITTED: dict[str, Counter] = {kind: metrics.MOVES.labels(kind) for kind in TABLE_MOVES}


def get_game(code: str) -> Game:
    game = first(Game.objects.with_code(code))
    if game is None:
        raise GameNotFound
    return game


def locked(code: str, with_seats: bool = False) -> Game:
    """The game with ``code``, its row locked until the transaction ends (on databases
    that lock rows; SQLite's write transaction locks the whole database); with its
    seats read too if ``with_seats`` (``Game.all_seats``)."""
    game = statements.locked_game(code)
    if game is None:
        raise GameNotFound
    game.read_at = time.time()  # locked since: its table is newer than any read before
    if with_seats:
        game.seats_read = statements.seats_of(game)
    return game


def check_version(game: Game, version: int) -> None:
    if version != game.version:
        raise StaleGame


def save_state(
    game: Game,
    old: engine.GameState | None,
    new: engine.GameState,
    kind: str,
    seat: Seat | None,
    changed: Sequence[str] = (),
    played_as: str = "",
) -> None:
    """Store ``new`` (and the ``changed`` fields), log what changed, bump the version,
    publish on commit. ``played_as``: the level a computer player chose the move at,
    where it is not its seat's (``strategy.bots.Move.level``)."""
    game.set_engine_state(new)
    fields = ["state", *changed]
    if game.turn_seconds and (old is None or new.turn != old.turn):
        # a turn begins (or the game ends): its time starts
        game.turn_deadline = (
            None if new.is_finished else clock.now() + timedelta(seconds=game.turn_seconds)
        )
        fields.append("turn_deadline")
    if new.is_finished and game.status != Game.Status.FINISHED:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
        if game.seed_secret_until is not None:  # a daily challenge's
            daily.settle(game)
        game_id = game.pk
        transaction.on_commit(lambda: signals.game_finished.send(Game, game_id=game_id))
    data: dict = {}
    if old is not None and new.turn > old.turn:
        data = _write_score(game, old, new, seat)
    elif kind == GameEvent.Kind.ROLL:
        data = {"dice": list(new.dice), "held": list(new.held), "roll_number": new.roll_number}
    elif kind == GameEvent.Kind.HOLD:
        data = {"held": list(new.held)}
    elif kind == GameEvent.Kind.DECLARE:
        data = {"category": new.target}
    if played_as:
        data["played_as"] = played_as
    next_roll: list[Event] = []
    if new.roll_number == 1 and (old is None or new.turn != old.turn):
        # the automatic first roll of the next turn, logged for replay
        next_roll = [
            (GameEvent.Kind.ROLL, None, {"dice": list(new.dice), "held": [], "roll_number": 1})
        ]
    bump(game, kind, seat, data, fields, next_roll)


def _write_score(
    game: Game, old: engine.GameState, new: engine.GameState, seat: Seat | None
) -> dict:
    key, points = new.scorecards[old.current_index].entries[-1]
    entry = ScoreEntry(
        game=game,
        scorecard=old.current_index,
        category=key,
        points=points,
        seat=seat,
        turn=old.turn,
    )
    try:
        statements.insert([entry])
    except IntegrityError:
        # The row lock makes this unreachable; the constraint is the last guard. No
        # savepoint (two more queries a score): the error leaves the move's
        # transaction, which rolls back, and nothing runs in it after the error.
        raise StaleGame from None
    data = {"category": key, "points": points, "dice": list(old.dice), "turn": old.turn}
    card, before = new.scorecards[old.current_index], old.scorecards[old.current_index]
    if card.yahtzee_bonuses > before.yahtzee_bonuses:  # an extra Yahtzee's +100
        data["bonus"] = YAHTZEE_BONUS_POINTS
    return data


def bump(
    game: Game,
    kind: str,
    seat: Seat | None,
    data: dict,
    changed: Iterable[str] = (),
    then: Sequence[Event] = (),
) -> None:
    """Bump the version, save it with the ``changed`` fields and no others (the
    spectator count is not the move's to write), and log the event, and the ``then``
    events after it, at the new version. A move at the table is kept as its last
    (``Game.last_move``). Once the transaction commits, the table hears of it."""
    game.version += 1
    if kind in TABLE_MOVES:
        game.last_move = {"kind": kind, "seat": seat.position if seat else None, **data}
        changed = [*changed, "last_move"]
        transaction.on_commit(MOVES_COMMITTED[kind].inc)
    statements.update(game, ["version", *changed])
    log(game, [(kind, seat, data), *then])
    code, version = game.code, game.version
    seats = kind in (GameEvent.Kind.HANDOVER, GameEvent.Kind.TAKEBACK)  # a seat changed hands
    transaction.on_commit(lambda: broadcast.game_changed(code, version, game, seats, kind))


def log(game: Game, events: Sequence[Event]) -> None:
    """Log ``events`` at the game's current version."""
    statements.insert(
        [
            GameEvent(
                game=game,
                version=game.version,
                kind=kind,
                seat_position=seat.position if seat else None,
                data=data,
            )
            for kind, seat, data in events
        ]
    )
