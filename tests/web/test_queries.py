"""The move's two reads compiled once (games/queries.py) read what the ORM reads."""

from __future__ import annotations

from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import queries
from games.models import Game, Seat
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
    (sql,) = [query["sql"] for query in read]
    assert ("FOR UPDATE" in sql) == connection.features.has_select_for_update


def test_the_locked_read_of_an_unknown_code_is_none(db: None) -> None:
    with transaction.atomic():
        assert queries.locked_game("nosuchgame") is None


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
