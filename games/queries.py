"""The reads and writes every move makes, with their SQL compiled once per process.

Django builds and compiles a queryset's SQL each time it runs it, and for the move's
locked read of its game and its read of the game's seats that was more than half of
each query's cost (600 and 680 us a query on the development machine, 290 and 230 us
compiled once; docs/performance.md, round 5). The SQL here is compiled by the ORM
from the same querysets the code would otherwise run, once per database, with the
converters the ORM would apply to its columns (JSON, dates), and the rows are made
into model instances as the ORM makes them (``Model.from_db``). Until round 6 they ran
with ``Manager.raw``, whose setup per query (matching columns to fields, finding the
converters) was again most of their cost: 310 and 540 us, 85 and ~200 us without it.
Only queries whose parameters are plain values belong here. Since round 7 a move reads
its game and its seats in one statement (the seats with their game joined, the game
built once from the first row), one round trip and one statement's overhead less.

The move's writes (the game's new state, its event rows, a score row) go the same way,
for the same reason: ``save(update_fields=...)`` and ``create()`` cost 290 and 260 us,
the same statements compiled once 40 and 50 us (round 6). The values are still prepared
by each field (``pre_save``, ``get_db_prep_save``: the creation time, JSON); what is
skipped is the compiling and ``save()``'s machinery around it, model signals included,
which this project does not use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Field, Model, Q, QuerySet
from django.db.models.expressions import Col
from django.db.models.sql import InsertQuery, UpdateQuery

from games.bounded import Bounded
from games.models import Game, Seat

_COMPILED: dict[tuple, str] = {}


def locked_game(code: str) -> Game | None:
    """The game with ``code``, its row locked until the transaction ends (on databases
    that lock rows; SQLite's write transaction locks the whole database)."""
    found = _read("locked_game", lambda: Game.objects.select_for_update().filter(code=""), code)
    return found[0] if found else None


def locked_game_with_seats(code: str) -> Game | None:
    """``locked_game`` with its seats read in the same statement (as ``seats_of`` reads
    them): the rows of its seats, each with the game's columns, and the game's row
    locked (only the game's). For a game that has seats (every started game)."""

    def seats_with_game() -> QuerySet:
        locked = Seat.objects.select_related("game").select_for_update(of=("game",))
        return locked.filter(game__code="")

    read = _compiled("locked_game_with_seats", seats_with_game)
    rows = read.rows(code)
    if not rows:
        return None
    (game,) = read.instances(rows[:1], model=1)  # the same game in every row
    game._prefetched_objects_cache = {"seats": _seats(game.id, read.instances(rows))}
    return game


def seats_of(game: Game) -> QuerySet[Seat]:
    """The game's seats in table order, read now, as a queryset that further filters
    (``.get``, ``.filter``) still query the database with."""
    return _seats(game.id, _read("seats_of", lambda: Seat.objects.filter(game_id=0), game.id))


def _seats(game_id: int, rows: list[Seat]) -> QuerySet[Seat]:
    """``rows``, the seats of game ``game_id``, as the queryset ``game.seats.all()`` gives.
    Building its ``filter(game_id=...)`` was half the cost of a read; a copy of one
    built before is a twentieth of that."""
    built = _SEAT_QUERYSETS.get(game_id)
    if built is None:
        built = _SEAT_QUERYSETS[game_id] = Seat.objects.filter(game_id=game_id)
    seats = built._chain()
    seats._result_cache = rows
    return seats


_SEAT_QUERYSETS: Bounded[int, QuerySet[Seat]] = Bounded(256)  # never evaluated


@dataclass(frozen=True)
class _Model:
    """Where one model's columns are in a row, and how they become an instance."""

    model: type[Model]
    start: int  # the index of its first column in the row
    columns: list[str]  # the fields' attnames, in the order the SQL selects them
    # per column that has them: its index in the row, the ORM's converters, the
    # expression they take
    converters: list[tuple[int, list[Callable], Any]]

    def instance(self, row: list) -> Model:
        for index, converters, expression in self.converters:
            for convert in converters:
                row[index] = convert(row[index], expression, connection)
        values = row[self.start : self.start + len(self.columns)]
        return self.model.from_db(connection.alias, self.columns, values)


@dataclass(frozen=True)
class _Read:
    """A compiled read of whole rows, of one model or of several joined
    (``select_related``), by one parameter."""

    sql: str
    models: list[_Model]  # in the order their columns come in a row

    @classmethod
    def of(cls, queryset: QuerySet) -> _Read:
        compiler = queryset.query.get_compiler(connection.alias)
        sql, params = compiler.as_sql()
        selected = [column for column, _, _ in compiler.select]
        if len(params) != 1 or any(not isinstance(column, Col) for column in selected):
            raise ValueError(f"not a read of whole rows by one parameter: {sql}")
        # A backend's converters use its settings (the time zone), not the state of
        # the connection they were found on: one set serves every thread.
        converters = compiler.get_converters(selected)
        models: list[_Model] = []
        for index, column in enumerate(selected):
            if not models or models[-1].model is not column.target.model:
                models.append(_Model(column.target.model, index, [], []))
            models[-1].columns.append(column.target.attname)
            if index in converters:
                models[-1].converters.append((index, *converters[index]))
        return cls(sql=sql, models=models)

    def rows(self, parameter: object) -> list[tuple]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [parameter])
            return cursor.fetchall()

    def instances(self, rows: list[tuple], model: int = 0) -> list[Model]:
        """The instances of the ``model``-th model of the read in ``rows``."""
        return [self.models[model].instance(list(row)) for row in rows]


_READS: dict[tuple[str, str], _Read] = {}


def _read(name: str, queryset: Callable[[], QuerySet], parameter: object) -> list[Model]:
    """The rows ``queryset()`` would read with ``parameter`` for its one placeholder, as
    instances of its model, the read compiled the first time this process's database
    is asked for it."""
    read = _compiled(name, queryset)
    return read.instances(read.rows(parameter))


def _compiled(name: str, queryset: Callable[[], QuerySet]) -> _Read:
    key = (connection.alias, name)
    read = _READS.get(key)
    if read is None:
        read = _READS[key] = _Read.of(queryset())
    return read


def update(row: Model, names: Sequence[str]) -> None:
    """``row.save(update_fields=names)``: its ``names`` fields, written to its row."""
    fields = [row._meta.get_field(name) for name in names]
    sql = _sql(("update", row._meta.label, *names), len(fields) + 1, lambda: _update(row, fields))
    params = [field.get_db_prep_save(field.pre_save(row, False), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, row.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{row._meta.label} {row.pk}: no row to update")


def insert(rows: Sequence[Model]) -> None:
    """``bulk_create(rows)`` of rows of one model, in the order given, their ids left
    unread (the move's rows are not read back)."""
    model = type(rows[0])
    fields = _insert_fields(model)
    sql = _sql(("insert", model._meta.label), len(fields), lambda: _insert(model, fields))
    params = [
        [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]
        for row in rows
    ]
    with connection.cursor() as cursor:
        # one statement a row, and not Django's one for all (on PostgreSQL an UNNEST of
        # arrays): a move writes one or two rows, and one row's SQL serves every count
        cursor.executemany(sql, params)


def _sql(name: tuple, count: int, build: Callable[[], tuple[str, Sequence]]) -> str:
    """The SQL ``build()`` gives for this process's database, compiled the first time
    it is asked for; ``count`` is how many parameters it must take."""
    key = (connection.alias, *name)
    sql = _COMPILED.get(key)
    if sql is None:
        sql, params = build()
        if len(params) != count:
            raise ValueError(f"{name}: {count} parameters expected, not {params!r}")
        _COMPILED[key] = sql
    return sql


def _update(row: Model, fields: list[Field]) -> tuple[str, Sequence]:
    query = UpdateQuery(type(row))
    query.add_q(Q(pk=row.pk))
    query.add_update_fields([(field, None, getattr(row, field.attname)) for field in fields])
    return query.get_compiler(connection.alias).as_sql()


def _insert(model: type[Model], fields: list[Field]) -> tuple[str, Sequence]:
    query = InsertQuery(model)
    query.insert_values(fields, [model()])
    ((sql, params),) = query.get_compiler(connection.alias).as_sql()
    return sql, params


def _insert_fields(model: type[Model]) -> list[Field]:
    """What ``bulk_create`` writes of a new row: every column but its id."""
    return [field for field in model._meta.concrete_fields if not field.primary_key]
