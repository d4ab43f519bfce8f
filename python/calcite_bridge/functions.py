"""Declaring Python functions for SQL: :func:`udf` marks a function with its SQL signature, for
``CREATE FUNCTION ... LANGUAGE PYTHON`` (which has no place for types), and :func:`signature`
reads a function's signature from its arguments or annotations (docs/functions.md)."""

from __future__ import annotations

import datetime as dt
import decimal
import inspect
import typing
from collections.abc import Callable, Sequence
from typing import Any

from .errors import ConfigError

__all__ = ["signature", "udf"]

# SQL types of Python annotations (bool before int: bool is an int).
_ANNOTATED: tuple[tuple[type, str], ...] = (
    (bool, "BOOLEAN"),
    (int, "BIGINT"),
    (float, "DOUBLE"),
    (str, "STRING"),
    (bytes, "BYTES"),
    (decimal.Decimal, "DECIMAL(38, 18)"),
    (dt.datetime, "TIMESTAMP(6)"),
    (dt.date, "DATE"),
    (dt.time, "TIME(3)"),
)


def udf(
    return_type: str | type | None = None,
    arg_types: Sequence[str | type] | None = None,
    *,
    deterministic: bool = True,
    vectorized: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declares the signature of a function that ``CREATE FUNCTION ... LANGUAGE PYTHON`` names
    (it has no place for types): ``@udf(return_type="BIGINT")`` over ``def plus1(x): ...``. The
    function itself is unchanged; annotations serve when ``return_type`` or ``arg_types`` is
    not given."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__calcite_bridge_udf__ = {  # type: ignore[attr-defined]
            "return_type": return_type,
            "arg_types": arg_types,
            "deterministic": deterministic,
            "vectorized": vectorized,
        }
        return fn

    return mark


def _sql_type(name: str, what: str, t: Any) -> str:
    """The SQL type text of ``t``: a SQL type string, or a Python type of :data:`_ANNOTATED`."""
    if isinstance(t, str):
        if not t.strip():
            raise ConfigError(f"The {what} of function {name} is empty")
        return t
    origin = typing.get_origin(t)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        inner = [a for a in typing.get_args(t) if a is not type(None)]
        if len(inner) == 1:
            return _sql_type(name, what, inner[0])
    if isinstance(t, type):
        for python, sql in _ANNOTATED:
            if issubclass(t, python):
                return sql
    raise ConfigError(
        f"The {what} of function {name} is {t!r}, which has no SQL type; give a SQL type such "
        "as 'BIGINT' or one of int, float, str, bool, bytes, Decimal, date, datetime, time"
    )


def signature(
    name: str,
    fn: Any,
    return_type: str | type | None = None,
    arg_types: Sequence[str | type] | None = None,
    deterministic: bool = True,
    vectorized: bool = False,
) -> dict[str, Any]:
    """The signature the JVM reads (``PythonFunction.spec``) of ``fn`` registered as ``name``;
    ``ConfigError`` when a type is neither given nor annotated."""
    if not callable(fn):
        raise ConfigError(f"The function {name} must be callable, got {type(fn).__name__}")
    declared = getattr(fn, "__calcite_bridge_udf__", None) or {}
    if return_type is None:
        return_type = declared.get("return_type")
    if arg_types is None:
        arg_types = declared.get("arg_types")
    deterministic = bool(declared.get("deterministic", deterministic))
    vectorized = bool(declared.get("vectorized", vectorized))
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    _check_keywords(name, params)
    # Every positional parameter, those with a default last: SQL may leave those out, as it may
    # pass any number of values to *args (as PyFlink calls such a function).
    every = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    positional = [p for p in every if p.default is p.empty]
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        hints = {}
    if return_type is None:
        return_type = hints.get("return")
        if return_type is None:
            raise ConfigError(
                f"The function {name} needs a return_type (a SQL type such as 'BIGINT'), or a "
                "return annotation"
            )
    types: list[str] | None
    arity, max_arity = len(positional), (-1 if variadic else len(every))
    if arg_types is not None:
        types = [_sql_type(name, f"argument {i + 1}", t) for i, t in enumerate(arg_types)]
        _check_arity(name, fn, len(types))
        arity = max_arity = len(types)
    elif (
        positional
        and arity == max_arity
        and not vectorized
        and all(p.name in hints for p in positional)
    ):
        types = [_sql_type(name, f"argument {p.name!r}", hints[p.name]) for p in positional]
    else:
        # Without argument types, or with optional arguments (defaults, *args): operands of any
        # type, as many as the function takes.
        types = None
    return {
        "name": name,
        "return_type": _sql_type(name, "return type", return_type),
        "arg_types": types,
        "arity": arity,
        "max_arity": max_arity,
        "deterministic": deterministic,
        "vectorized": vectorized,
    }


def _check_keywords(name: str, params: list[inspect.Parameter]) -> None:
    """``ConfigError`` when ``fn`` has a keyword-only parameter without a default: SQL passes
    arguments by position only, so no call could give it a value."""
    needed = [p.name for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty]
    if needed:
        raise ConfigError(
            f"The function {name} has keyword-only parameters without a default "
            f"({', '.join(needed)}), which a SQL call cannot pass: SQL passes arguments by "
            "position; give them defaults or make them positional"
        )


def _check_arity(name: str, fn: Any, n: int) -> None:
    """``ConfigError`` when ``fn`` cannot be called with ``n`` positional arguments, the count of
    its declared argument types (each call would fail while the query ran)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*range(n))
    except TypeError as e:
        raise ConfigError(
            f"The function {name} is declared with {n} argument type{'' if n == 1 else 's'}, "
            f"but cannot be called with {n} argument{'' if n == 1 else 's'}: {e}"
        ) from None


def aggregate_signature(
    name: str,
    obj: Any,
    return_type: str | type | None = None,
    arg_types: Sequence[str | type] | None = None,
    deterministic: bool = True,
) -> tuple[dict[str, Any], Callable[[Any], Any]]:
    """The signature of the aggregate ``obj`` (PyFlink's shape: ``create_accumulator()``,
    ``accumulate(acc, *args)``, ``get_value(acc)``; a class is instantiated) and the function
    that computes it over a group's rows (a list of rows of arguments)."""
    if isinstance(obj, type):
        obj = obj()
    missing = [m for m in ("create_accumulator", "accumulate", "get_value") if not hasattr(obj, m)]
    if missing:
        raise ConfigError(
            f"The aggregate function {name} needs the methods create_accumulator, accumulate and "
            f"get_value; it lacks {', '.join(missing)}"
        )
    try:
        hints = typing.get_type_hints(obj.get_value)
    except Exception:
        hints = {}
    if return_type is None:
        return_type = hints.get("return")
        if return_type is None:
            raise ConfigError(
                f"The aggregate function {name} needs a return_type (a SQL type such as "
                "'DOUBLE'), or a return annotation on get_value"
            )
    types: list[str] | None = None
    if arg_types is not None:
        arity = len(arg_types)
        types = [_sql_type(name, f"argument {i + 1}", t) for i, t in enumerate(arg_types)]
    else:
        params = list(inspect.signature(obj.accumulate).parameters.values())
        positional = [
            p
            for p in params
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        ][1:]
        arity = len(positional)
        try:
            given = typing.get_type_hints(obj.accumulate)
        except Exception:
            given = {}
        if positional and all(p.name in given for p in positional):
            types = [_sql_type(name, f"argument {p.name!r}", given[p.name]) for p in positional]
    create, accumulate, get_value = obj.create_accumulator, obj.accumulate, obj.get_value

    def finish(rows: Any) -> Any:
        acc = create()
        for row in rows or ():
            values = list(row.values()) if isinstance(row, dict) else list(row)
            accumulate(acc, *(values if arity else ()))
        return get_value(acc)

    spec = {
        "name": name,
        "return_type": _sql_type(name, "return type", return_type),
        "arg_types": None,
        "arity": 1,
        "aggregate_arity": arity,
        "aggregate_types": types,
        "deterministic": deterministic,
        "vectorized": False,
    }
    return spec, finish


def table_signature(
    name: str,
    fn: Any,
    columns: str,
    arg_types: Sequence[str | type] | None = None,
    deterministic: bool = True,
) -> tuple[dict[str, Any], Callable[..., Any]]:
    """The signature of the table function ``fn`` of ``columns`` (``"word STRING, n INT"``) and
    the function that returns a call's rows as a list."""
    if not isinstance(columns, str) or not columns.strip():
        raise ConfigError(f"The table function {name} needs its columns, as 'word STRING, n INT'")
    spec = signature(name, fn, f"ARRAY<ROW<{columns}> NOT NULL>", arg_types, deterministic)

    def rows(*args: Any) -> list[Any]:
        out = fn(*args)
        if out is None:
            return []
        return [r if isinstance(r, dict | tuple) else tuple(r) for r in out]

    return {**spec, "table": True}, rows
