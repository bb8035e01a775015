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
Only queries whose parameters are plain values belong here.

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

from games.models import Game, Seat

_COMPILED: dict[tuple, str] = {}


def locked_game(code: str) -> Game | None:
    """The game with ``code``, its row locked until the transaction ends (on databases
    that lock rows; SQLite's write transaction locks the whole database)."""
    found = _read("locked_game", lambda: Game.objects.select_for_update().filter(code=""), code)
    return found[0] if found else None


def seats_of(game: Game) -> QuerySet[Seat]:
    """The game's seats in table order, read now, as a queryset that further filters
    (``.get``, ``.filter``) still query the database with."""
    seats = Seat.objects.filter(game_id=game.id)
    seats._result_cache = _read("seats_of", lambda: Seat.objects.filter(game_id=0), game.id)
    return seats


@dataclass(frozen=True)
class _Read:
    """A compiled read of whole rows of one model."""

    model: type[Model]
    sql: str
    columns: list[str]  # the fields' attnames, in the order the SQL selects them
    # per column that has them: its index, the ORM's converters, the expression they take
    converters: list[tuple[int, list[Callable], Any]]

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
        return cls(
            model=queryset.model,
            sql=sql,
            columns=[column.target.attname for column in selected],
            converters=[(index, *found) for index, found in converters.items()],
        )

    def rows(self, parameter: object) -> list[Model]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [parameter])
            found = cursor.fetchall()
        rows = []
        for values in found:
            values = list(values)
            for index, converters, expression in self.converters:
                for convert in converters:
                    values[index] = convert(values[index], expression, connection)
            rows.append(self.model.from_db(connection.alias, self.columns, values))
        return rows


_READS: dict[tuple[str, str], _Read] = {}


def _read(name: str, queryset: Callable[[], QuerySet], parameter: object) -> list:
    """The rows ``queryset()`` would read with ``parameter`` for its one placeholder,
    the read compiled the first time this process's database is asked for it."""
    key = (connection.alias, name)
    read = _READS.get(key)
    if read is None:
        read = _READS[key] = _Read.of(queryset())
    return read.rows(parameter)


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
