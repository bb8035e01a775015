"""The statements every move makes, written as SQL: the game read and locked, its
seats read, the fields the move changed written, its events logged. Everything else
goes through the ORM.

Why: Django builds each query's SQL afresh every time it runs, and for these few,
run at every move, the building cost more than everything else the database work
does (the game's SELECT of its 25 columns above all): ``bench.movecost`` counted
19.66 M instructions a move through the ORM, and about 3 M fewer through these
(docs/performance.md). The SQL is the plainest SQLite and PostgreSQL both read. It
names tables and columns from the models (``_meta``), takes each value through its
field's own conversion for the database (``get_db_prep_save``) and gives rows back
as model instances as the ORM makes them (each value converted as the ORM converts
it, the field's ``from_db_value`` included; ``Model.from_db``),
so a field added to a model needs nothing here. Every move of the test suite goes
through these, on SQLite and, in ``tests/postgres_redis``, on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import MethodType
from typing import NamedTuple, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Col

from games.bounded import Bounded
from games.models import Game, Seat, storable

M = TypeVar("M", bound=models.Model)

# Each function looks its connection up once (``django.db.connection`` looks it up
# in asgiref's context-local storage at every use).


def _field(model: type[models.Model], name: str) -> models.Field:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the model's table
    return field


def _quoted(db: BaseDatabaseWrapper, field: models.Field) -> str:
    return db.ops.quote_name(str(field.column))


def _column(db: BaseDatabaseWrapper, model: type[models.Model], name: str) -> str:
    return _quoted(db, _field(model, name))


def _table(db: BaseDatabaseWrapper, model: type[models.Model]) -> str:
    return db.ops.quote_name(model._meta.db_table)


class _Reading(NamedTuple):
    """How one model's rows are read on one kind of backend: its columns, listed, and
    per column that the ORM converts, its converters (``_converters``)."""

    select: str  # SELECT every column FROM the table
    names: list[str]
    converting: list[tuple[int, Col, tuple[tuple[Callable, bool], ...]]]


# per model and backend: the converters the ORM gives a column depend on both alone,
# and working them out at every read cost more than the read's own SQL work
_READINGS: Bounded[tuple, _Reading] = Bounded(64)


def _reading(db: BaseDatabaseWrapper, model: type[models.Model]) -> _Reading:
    return _READINGS.made((model, type(db)), lambda: _new_reading(db, model))


def _new_reading(db: BaseDatabaseWrapper, model: type[models.Model]) -> _Reading:
    fields = model._meta.concrete_fields
    table = model._meta.db_table
    converting = []
    for index, field in enumerate(fields):
        column = field.get_col(table)
        converters = db.ops.get_db_converters(column) + column.get_db_converters(db)
        if converters:
            converting.append((index, column, _converters(db, converters)))
    columns = ", ".join(_quoted(db, field) for field in fields)
    return _Reading(
        f"SELECT {columns} FROM {_table(db, model)}",
        [field.attname for field in fields],
        converting,
    )


def _converters(
    db: BaseDatabaseWrapper, converters: list[Callable]
) -> tuple[tuple[Callable, bool], ...]:
    """Each converter as a function, and whether it is a method of the backend's
    operations, to be called with the operations of the connection at hand (a
    connection lasts a request; the functions last the process)."""
    return tuple(
        (converter.__func__, True)
        if isinstance(converter, MethodType) and converter.__self__ is db.ops
        else (converter, False)
        for converter in converters
    )


def _read(db: BaseDatabaseWrapper, model: type[M], where: str, params: list[str | int]) -> list[M]:
    """The rows of ``model``'s table that ``where`` selects, as instances: every column,
    each value through the conversions the ORM gives it (the backend's, then the
    field's own ``from_db_value``), made as the ORM makes them (``Model.from_db``)."""
    reading = _reading(db, model)
    with db.cursor() as cursor:
        cursor.execute(f"{reading.select} {where}", params)
        rows = cursor.fetchall()
    ops = db.ops
    found = []
    for row in rows:
        values = list(row)
        for index, column, converters in reading.converting:
            value = values[index]
            for converter, of_ops in converters:
                if of_ops:
                    value = converter(ops, value, column, db)
                else:
                    value = converter(value, column, db)
            values[index] = value
        found.append(model.from_db(db.alias, reading.names, values))
    return found


# each statement's SQL, made once per backend: ``_sql``
_SQL: Bounded[tuple, str] = Bounded(256)


def _sql(db: BaseDatabaseWrapper, key: tuple, make: Callable[[], str]) -> str:
    """The SQL ``make`` writes for ``db``, kept under ``key`` and the kind of backend:
    quoting the names of a statement's tables and columns cost more than running it."""
    return _SQL.made((type(db), *key), make)


def locked_game(code: str) -> Game | None:
    """The game of ``code``, its row locked until the transaction ends where the
    database locks rows (``FOR UPDATE``; SQLite's write transaction locks it all)."""
    if not storable(code):
        return None
    db = connections[DEFAULT_DB_ALIAS]

    def where() -> str:
        lock = " FOR UPDATE" if db.features.has_select_for_update else ""
        return f"WHERE {_column(db, Game, 'code')} = %s{lock}"

    games = _read(db, Game, _sql(db, ("locked_game",), where), [code])
    return games[0] if games else None


def seats_of(game: Game) -> list[Seat]:
    """The seats of ``game`` by position, each knowing ``game`` as its game."""
    db = connections[DEFAULT_DB_ALIAS]
    where = _sql(
        db,
        ("seats_of",),
        lambda: f"WHERE {_column(db, Seat, 'game')} = %s ORDER BY {_column(db, Seat, 'position')}",
    )
    seats = _read(db, Seat, where, [game.pk])
    for seat in seats:
        seat.game = game
    return seats


def update(game: Game, fields: Iterable[str]) -> None:
    """Write these fields of ``game`` to its row, and no others."""
    db = connections[DEFAULT_DB_ALIAS]
    changed = [_field(Game, name) for name in dict.fromkeys(fields)]

    def sql() -> str:
        sets = ", ".join(f"{_quoted(db, field)} = %s" for field in changed)
        return f"UPDATE {_table(db, Game)} SET {sets} WHERE {_column(db, Game, 'id')} = %s"

    values = [field.get_db_prep_save(getattr(game, field.attname), db) for field in changed]
    with db.cursor() as cursor:
        cursor.execute(_sql(db, ("update", *changed), sql), [*values, game.pk])


def insert(rows: Sequence[models.Model]) -> None:
    """Insert these new rows of one model (their ids are not read back), each field's
    value as Django's own insert takes it (``pre_save``: a creation time is set)."""
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]
    model = type(rows[0])
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]

    def sql() -> str:
        columns = ", ".join(_quoted(db, field) for field in fields)
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        return f"INSERT INTO {_table(db, model)} ({columns}) VALUES {', '.join([row] * len(rows))}"

    values = [
        field.get_db_prep_save(field.pre_save(instance, True), db)
        for instance in rows
        for field in fields
    ]
    with db.cursor() as cursor:
        cursor.execute(_sql(db, ("insert", model, len(rows)), sql), values)
