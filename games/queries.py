"""The two reads every move makes, with their SQL compiled once per process.

Django builds and compiles a queryset's SQL each time it runs it, and for the move's
locked read of its game and its read of the game's seats that was more than half of
each query's cost (600 and 680 us a query on the development machine, 290 and 230 us
compiled once; docs/performance.md, round 5). The SQL here is compiled by the ORM
from the same querysets the code would otherwise run, once per database, and run with
``Manager.raw``: every column is still converted (JSON, dates) and the rows are
ordinary model instances. Only queries whose parameters are plain values belong here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.db.models import QuerySet

from games.models import Game, Seat

_COMPILED: dict[tuple[str, str], str] = {}


def locked_game(code: str) -> Game | None:
    """The game with ``code``, its row locked until the transaction ends (on databases
    that lock rows; SQLite's write transaction locks the whole database)."""
    sql = _compiled("locked_game", lambda: Game.objects.select_for_update().filter(code=""))
    found = list(Game.objects.raw(sql, [code]))
    return found[0] if found else None


def seats_of(game: Game) -> QuerySet[Seat]:
    """The game's seats in table order, read now, as a queryset that further filters
    (``.get``, ``.filter``) still query the database with."""
    sql = _compiled("seats_of", lambda: Seat.objects.filter(game_id=0))
    seats = Seat.objects.filter(game_id=game.id)
    seats._result_cache = list(Seat.objects.raw(sql, [game.id]))
    return seats


def _compiled(name: str, queryset: Callable[[], QuerySet]) -> str:
    """The SQL of ``queryset()``, whose one parameter is a placeholder, compiled for
    this process's database the first time it is asked for."""
    key = (connection.alias, name)
    sql = _COMPILED.get(key)
    if sql is None:
        sql, params = queryset().query.sql_with_params()
        if len(params) != 1:
            raise ValueError(f"{name}: a query of one parameter, not {params!r}")
        _COMPILED[key] = sql
    return sql
