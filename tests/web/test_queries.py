"""The move's reads and writes compiled once (games/queries.py) read and write what the
ORM would."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import queries
from games.models import Game, GameEvent, ScoreEntry, Seat
from tests.conftest import create_game


def test_the_locked_read_gives_the_game_as_the_orm_reads_it(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": "1"})

    with transaction.atomic(), CaptureQueriesContext(connection) as read:
        locked = queries.locked_game(game.code)

    orm = Game.objects.get(code=game.code)
    assert locked is not None and locked.pk == orm.pk
    fields = [field.attname for field in Game._meta.concrete_fields]
    assert [getattr(locked, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert locked.engine_state() == orm.engine_state() and locked.started_at is not None
    assert (locked._state.adding, locked._state.db) == (False, orm._state.db)  # saves update
    (sql,) = [query["sql"] for query in read]
    assert ("FOR UPDATE" in sql) == connection.features.has_select_for_update


def test_the_locked_read_of_an_unknown_code_is_none(db: None) -> None:
    with transaction.atomic():
        assert queries.locked_game("nosuchgame") is None
        assert queries.locked_game_with_seats("nosuchgame") is None


def test_a_game_and_its_seats_are_read_in_one_statement_locking_the_game_only(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob\nCai")
    alice.post(f"/g/{game.code}/roll/", {"version": "1"})

    with transaction.atomic(), CaptureQueriesContext(connection) as read:
        locked = queries.locked_game_with_seats(game.code)
        seats = list(locked.seats.all())

    orm = Game.objects.get(code=game.code)
    fields = [field.attname for field in Game._meta.concrete_fields]
    assert [getattr(locked, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert locked.engine_state() == orm.engine_state()
    seat_fields = [field.attname for field in Seat._meta.concrete_fields]
    in_order = Seat.objects.filter(game=orm).order_by("position")
    assert [[getattr(s, f) for f in seat_fields] for s in seats] == [
        [getattr(s, f) for f in seat_fields] for s in in_order
    ]
    (sql,) = [query["sql"] for query in read]
    if connection.features.has_select_for_update_of:
        assert sql.endswith('FOR UPDATE OF "games_game"')
    assert locked.seats.get(name="Cai").position == 2  # a further query, as the ORM's


def test_the_seats_are_read_once_in_table_order_and_can_still_be_queried(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob\nCai")

    with CaptureQueriesContext(connection) as read:
        seats = queries.seats_of(game)
        names = [seat.name for seat in seats]
        assert len(seats) == 3 and seats[0].name == "Alice"

    assert len(read) == 1
    assert names == [s.name for s in Seat.objects.filter(game=game).order_by("position")]
    assert seats.get(name="Cai").position == 2  # a further query, answered by the database
    assert list(seats.filter(name="Bob")) == [Seat.objects.get(game=game, name="Bob")]


def test_an_update_writes_the_named_fields_as_save_would_and_no_others(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": "1"})
    game = Game.objects.get(code=game.code)
    Game.objects.filter(pk=game.pk).update(spectators=3)  # someone else's column
    state = {**game.state, "turn": 7}
    game.state, game.version, game.finished_at = state, 9, timezone.now()

    with transaction.atomic(), CaptureQueriesContext(connection) as wrote:
        queries.update(game, ["version", "state", "finished_at"])

    saved = Game.objects.get(pk=game.pk)
    assert (saved.state, saved.version, saved.finished_at) == (state, 9, game.finished_at)
    assert saved.spectators == 3
    (sql,) = [query["sql"] for query in wrote]
    assert "spectators" not in sql and "status" not in sql


def test_an_update_of_a_row_that_is_gone_fails_loudly(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")
    game = Game.objects.get(code=game.code)
    Game.objects.filter(pk=game.pk).delete()

    with pytest.raises(DatabaseError, match="no row to update"):
        queries.update(game, ["version"])


def test_inserted_rows_read_back_as_created_ones_in_their_order(
    alice: Client, dice: object
) -> None:
    game = Game.objects.get(code=create_game(alice, players="Bob").code)
    seat = game.seats.get(name="Bob")
    before = timezone.now()

    queries.insert(
        [
            GameEvent(
                game=game,
                version=5,
                kind="score",
                seat_position=seat.position,
                data={"category": "ones", "dice": [1, 1, 2, 3, 4]},
            ),
            GameEvent(
                game=game,
                version=5,
                kind="roll",
                seat_position=None,
                data={"dice": [6, 6, 6, 6, 6], "held": []},
            ),
        ]
    )
    queries.insert(
        [ScoreEntry(game=game, scorecard=1, category="ones", points=2, seat=seat, turn=0)]
    )

    score, roll = GameEvent.objects.filter(game=game, version=5)
    assert (score.kind, score.seat_position, score.data["dice"]) == ("score", 1, [1, 1, 2, 3, 4])
    assert (roll.kind, roll.seat_position, roll.data) == (
        "roll",
        None,
        {"dice": [6] * 5, "held": []},
    )
    assert score.id < roll.id and before <= score.created_at <= timezone.now()
    entry = ScoreEntry.objects.get(game=game)
    assert (entry.seat, entry.scorecard, entry.category, entry.points) == (seat, 1, "ones", 2)
    assert entry.created_at >= before


def test_an_inserted_row_that_breaks_a_constraint_raises_integrity_error(
    alice: Client, dice: object
) -> None:
    game = Game.objects.get(code=create_game(alice, players="Bob").code)
    entry = {"game": game, "scorecard": 0, "category": "ones", "points": 2, "turn": 0}
    queries.insert([ScoreEntry(**entry)])

    with pytest.raises(IntegrityError), transaction.atomic():
        queries.insert([ScoreEntry(**entry)])
    assert ScoreEntry.objects.filter(game=game).count() == 1
