"""A query of a hot path, compiled once.

Django compiles a queryset's SQL each time it is evaluated. For a row read with its related rows
(``select_related``) that is most of the query's cost: the lock of a live table with its
partition, table, tour and tournament took some 2 ms of a move's CPU to compile and a tenth of
that for PostgreSQL to run. A :class:`Prepared` query compiles its queryset once per database
and keeps the SQL and the compiler's map of the columns; each call runs the SQL and builds the
instances, related ones included, exactly as the queryset would (Django's converters and
related populators, as :class:`django.db.models.query.ModelIterable` does).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, models
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


class Prepared(Generic[M]):
    """``Prepared(lambda pk: Model.objects....filter(pk=pk))``: the queryset of whole-number
    parameters (``arity`` of them), compiled for its database on the first call (inside a
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
                if any(param not in placeholders for param in params):
                    raise ValueError("A prepared query takes its parameters, and no other value.")
                info, select = compiler.klass_info, compiler.select
                assert info is not None
                columns = slice(info["select_fields"][0], info["select_fields"][-1] + 1)
                self._compiled = _Compiled(sql, [placeholders.index(param) for param in params], compiler, columns,
                                           [column[0].target.attname for column in select[columns]],
                                           get_related_populators(info, select, self._using))
            return self._compiled

    def all(self, *values: int) -> list[M]:
        """The instances the queryset of ``values`` would give, in its order."""
        compiled = self._compile()
        connection = connections[self._using]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [values[n] for n in compiled.params])
            rows = cursor.fetchall()
        # The converters are the calling thread's connection's, not the one it was compiled on.
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connection
        model = compiler.klass_info["model"]
        found = []
        for row in compiler.results_iter([rows]):
            instance = model.from_db(self._using, compiled.names, row[compiled.columns])
            for populator in compiled.populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    def first(self, *values: int) -> M | None:
        """The one instance of ``values`` (a query by key), or None."""
        found = self.all(*values)
        return found[0] if found else None

    def __repr__(self) -> str:
        return f"Prepared({self._compiled.sql if self._compiled else 'not compiled yet'!r})"
