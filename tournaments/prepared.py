"""A query of a hot path, compiled once; and its writes.

Django compiles a queryset's SQL each time it is evaluated. For a row read with its related rows
(``select_related``) that is most of the query's cost: the lock of a live table with its
partition, table, tour and tournament took some 2 ms of a move's CPU to compile and a tenth of
that for PostgreSQL to run. A :class:`Prepared` query compiles its queryset once per database
and keeps the SQL and the compiler's map of the columns; each call runs the SQL and builds the
instances, related ones included, exactly as the queryset would (Django's converters and
related populators, as :class:`django.db.models.query.ModelIterable` does).

A save compiles its statement each time too, a quarter of a move's CPU for its four writes:
:class:`PreparedUpdate` and :class:`PreparedInsert` write the statement Django's save would, once,
and take each value as Django's save and compiler take it.
"""

from __future__ import annotations

import copy
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.signals import post_save, pre_save
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=models.Model)

#: The values the queryset is compiled with (the first parameter's, the second's, ...); each call
#: puts its own in their places.
PLACEHOLDER = -738_251


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: list[int]  # which parameter each of the statement's is
    compiler: SQLCompiler
    columns: slice  # the model's own columns in a row
    names: list[str]  # their attributes
    populators: list[Any]  # the related instances' (select_related)
    #: Each connection's copy of the compiler and its converters, built on its first call: the
    #: converters are the calling thread's connection's, not the one the query was compiled on.
    converters: weakref.WeakKeyDictionary[BaseDatabaseWrapper, tuple[SQLCompiler, dict[int, Any]]]


class Prepared(Generic[M]):
    """``Prepared(lambda pk: Model.objects....filter(pk=pk))``: the queryset of ``arity``
    parameters, whole numbers (keys: a number no 64-bit key can hold finds nothing) or texts
    (compared with a text column), compiled for its database on the first call (inside a
    transaction when it locks rows)."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], arity: int = 1, using: str = "default") -> None:
        self._build, self._arity, self._using = build, arity, using
        self._compiled: _Compiled | None = None
        self._lock = threading.Lock()

    def _compile(self) -> _Compiled:
        with self._lock:
            if self._compiled is None:
                placeholders = [PLACEHOLDER - n for n in range(self._arity)]
                queryset = self._build(*placeholders)
                if queryset.query.annotation_select or queryset._known_related_objects:  # type: ignore[attr-defined]
                    raise ValueError("A prepared query reads model rows only.")
                compiler = queryset.query.get_compiler(using=self._using)
                sql, params = compiler.as_sql()
                # A text column's filter turns the number into its text.
                which: dict[int | str, int] = {**{p: n for n, p in enumerate(placeholders)},
                                               **{str(p): n for n, p in enumerate(placeholders)}}
                if any(param not in which for param in params):
                    raise ValueError("A prepared query takes its parameters, and no other value.")
                info, select = compiler.klass_info, compiler.select
                assert info is not None
                columns = slice(info["select_fields"][0], info["select_fields"][-1] + 1)
                self._compiled = _Compiled(sql, [which[param] for param in params], compiler, columns,
                                           [column[0].target.attname for column in select[columns]],
                                           get_related_populators(info, select, self._using),
                                           weakref.WeakKeyDictionary())
            return self._compiled

    def all(self, *values: int | str) -> list[M]:
        """The instances the queryset of ``values`` would give, in its order."""
        compiled = self._compile()
        connection = connections[self._using]
        low, high = connection.ops.integer_field_range("BigIntegerField")
        if any(type(value) is int and not low <= value <= high for value in values):
            # No key holds it: the queryset finds nothing (Django's lookups know the keys' range),
            # and SQLite would not even take it (an OverflowError: a 500 for an id in a URL).
            return []
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [values[n] for n in compiled.params])
            rows = cursor.fetchall()
        converting = compiled.converters.get(connection)
        if converting is None:
            compiler = copy.copy(compiled.compiler)
            compiler.connection = connection
            converting = compiled.converters[connection] = (compiler, compiler.get_converters(
                [column[0] for column in compiler.select[:compiler.col_count]]))
        compiler, converters = converting
        model = compiler.klass_info["model"]
        found = []
        for row in compiler.apply_converters(rows, converters) if converters else map(list, rows):
            instance = model.from_db(self._using, compiled.names, row[compiled.columns])
            for populator in compiled.populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    def first(self, *values: int | str) -> M | None:
        """The one instance of ``values`` (a query by key), or None."""
        found = self.all(*values)
        return found[0] if found else None

    def __repr__(self) -> str:
        return f"Prepared({self._compiled.sql if self._compiled else 'not compiled yet'!r})"


def _values(instance: models.Model, fields: list[models.Field], add: bool,
            connection: BaseDatabaseWrapper) -> list[Any]:
    """The values of ``fields`` as Django's save takes them (``pre_save``: ``auto_now``) and its
    compilers put them in a statement (SQLUpdateCompiler, SQLInsertCompiler). A model something
    listens to on save is refused: a prepared write sends no signal."""
    model = type(instance)
    if any(signal.has_listeners(model) for signal in (pre_save, post_save)):
        raise ValueError(f"{model.__name__} is listened to on save: a prepared write would not send the signals.")
    values = []
    for field in fields:
        value = field.pre_save(instance, add)
        if hasattr(value, "resolve_expression"):
            raise ValueError(f"A prepared write takes values, not expressions ({field.name}).")
        values.append(field.get_db_prep_save(value, connection=connection))
    return values


class PreparedUpdate(Generic[M]):
    """``instance.save(update_fields=fields)`` (``fields=None``: every column) of a row that
    exists, its UPDATE written once instead of compiled at every save: each value taken as Django's
    save takes it (the field's ``pre_save``: ``auto_now``) and prepared as its compiler prepares it.
    No row updated is an error, as for ``save(force_update=True)``. A model something listens to on
    save is refused: a prepared write sends no signal."""

    def __init__(self, model: type[M], fields: list[str] | None = None, using: str = "default") -> None:
        meta = model._meta
        self._model, self._using = model, using
        self._fields = [field for field in meta.local_concrete_fields
                        if not field.primary_key and not field.generated
                        and (fields is None or field.name in fields or field.attname in fields)]
        if fields is not None and len(self._fields) != len(fields):
            raise ValueError(f"Not columns of {model.__name__}: {fields}")
        self._sql: str | None = None

    def save(self, instance: M) -> None:
        connection = connections[self._using]
        params = _values(instance, self._fields, False, connection)
        if self._sql is None:
            quote, meta = connection.ops.quote_name, self._model._meta
            columns = ", ".join(f"{quote(field.column)} = %s" for field in self._fields)
            self._sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"
        params.append(self._model._meta.pk.get_db_prep_value(instance.pk, connection))
        with transaction.mark_for_rollback_on_error(self._using), connection.cursor() as cursor:
            cursor.execute(self._sql, params)
            if cursor.rowcount != 1:
                raise DatabaseError(f"No {self._model.__name__} {instance.pk} to update.")


class PreparedInsert(Generic[M]):
    """``Model.objects.create(...)`` for a model with an automatic key: ``insert(Model(...))``
    writes the INSERT Django's save writes (every column but the key, with the values
    :func:`_values` takes), written once; the key comes back into the instance."""

    def __init__(self, model: type[M], using: str = "default") -> None:
        meta = model._meta
        if meta.auto_field is None:
            raise ValueError(f"{model.__name__} has no automatic key.")
        self._model, self._using = model, using
        self._fields = [field for field in meta.local_concrete_fields
                        if field is not meta.auto_field and not field.generated]
        self._sql: str | None = None

    def insert(self, instance: M) -> M:
        connection = connections[self._using]
        meta = self._model._meta
        auto = meta.auto_field
        assert auto is not None
        params = _values(instance, self._fields, True, connection)
        if self._sql is None:
            if not connection.features.can_return_columns_from_insert:
                raise ValueError("A prepared insert needs INSERT ... RETURNING.")
            quote = connection.ops.quote_name
            returning, _params = connection.ops.return_insert_columns([auto])
            self._sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in self._fields)}) "
                         f"VALUES ({', '.join(['%s'] * len(self._fields))}) {returning}")
        with transaction.mark_for_rollback_on_error(self._using), connection.cursor() as cursor:
            cursor.execute(self._sql, params)
            row = cursor.fetchone()
        assert row is not None
        setattr(instance, auto.attname, row[0])
        instance._state.adding, instance._state.db = False, self._using
        return instance
