"""User-defined functions written in Python: their signatures, and their calls from the JVM and
from DuckDB (docs/functions.md).

A function's signature is read from its arguments (``return_type``, ``arg_types``) or from its
annotations (``int`` is BIGINT, ``float`` DOUBLE, ``str`` STRING, ...). On Calcite's engine the
JVM hands a batch of argument rows over as one Arrow record batch (its last column, all NULL, has
the result's type) and reads the result column back: one crossing a batch, whatever the function.
A scalar function is then called once a row here, a vectorized one once a batch with pyarrow
arrays. On DuckDB the same function is registered on the connection as DuckDB's own Python
function (``native``) or Arrow function (``arrow``), so the rest of the query stays in DuckDB.

An exception inside a function, or a value of the wrong type, is an ``ExecutionError`` that names
the function and carries the Python traceback.
"""

from __future__ import annotations

import datetime as dt
import decimal
import importlib
import inspect
import itertools
import json
import math
import threading
import traceback
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa
from jpype import JImplements, JOverride

from .errors import AccessDeniedError, ConfigError, Error, ExecutionError
from .functions import aggregate_signature, signature

__all__ = ["FunctionLoader", "PythonFunction", "signature"]

_ids = itertools.count(1)
# Every live function of this process by its id, which DuckDB's function names carry.
_functions: weakref.WeakValueDictionary[int, PythonFunction] = weakref.WeakValueDictionary()

MARKER = "calcite-bridge-udf: "
# Failures inside functions DuckDB called, by the token its error message carries.
_failures: dict[str, tuple[str, str]] = {}
_failures_lock = threading.Lock()
_tokens = itertools.count(1)


def _error(kind: str, message: str, tb: str = "") -> str:
    return json.dumps({"error": {"kind": kind, "message": message, "traceback": tb}})


def _described(e: BaseException) -> str:
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


class FunctionFailure(Exception):
    """A function raised, or returned a value of the wrong type: the message names it."""

    def __init__(self, message: str, tb: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.tb = tb


@JImplements("io.calcitebridge.udf.PythonFunction", deferred=True)
class PythonFunction:
    """A Python function as the JVM calls it (``io.calcitebridge.udf.PythonFunction``)."""

    def __init__(self, name: str, fn: Callable[..., Any], spec: dict[str, Any]) -> None:
        self.name = name
        self.fn = fn
        self.id = next(_ids)
        self.spec_ = {**spec, "id": self.id}
        self.vectorized = bool(spec["vectorized"])
        self.rows_of = _declared_rows(spec.get("arg_types"))
        _functions[self.id] = self

    @JOverride
    def spec(self) -> str:
        return json.dumps(self.spec_)

    @JOverride
    def apply(self, in_array: Any, in_schema: Any, out_array: Any, out_schema: Any) -> str | None:
        try:
            batch = pa.RecordBatch._import_from_c(
                int(in_array.memoryAddress()), int(in_schema.memoryAddress())
            )
            target = batch.column(batch.num_columns - 1).type
            args = [batch.column(i) for i in range(batch.num_columns - 1)]
            result = self.compute(args, batch.num_rows, target)
            result._export_to_c(int(out_array.memoryAddress()), int(out_schema.memoryAddress()))
            return None
        except FunctionFailure as e:
            return _error("EXECUTION", e.message, e.tb)
        except BaseException as e:
            return _error(
                "EXECUTION",
                f"The function {self.name} failed: {_described(e)}",
                traceback.format_exc(),
            )

    def compute(self, args: list[Any], rows: int, target: pa.DataType) -> pa.Array:
        """The function over argument columns of ``rows`` rows, as an array of ``target``."""
        if self.rows_of:
            args = [_named(a, self.rows_of.get(i)) for i, a in enumerate(args)]
        if self.vectorized:
            out = self.call(*args)
            return self.as_array(out, rows, target)
        # A MAP as a dict, as PyFlink passes it (pyarrow's default is a list of pairs).
        columns = [a.to_pylist(maps_as_pydicts="lossy") for a in args]
        call = self.call
        values = (
            [call(*row) for row in zip(*columns, strict=True)]
            if columns
            else [call() for _ in range(rows)]
        )
        return self.as_array(values, rows, target)

    def call(self, *args: Any) -> Any:
        try:
            return self.fn(*args)
        except Exception as e:
            raise FunctionFailure(
                f"The function {self.name} failed: {_described(e)}", traceback.format_exc()
            ) from None

    def as_array(self, out: Any, rows: int, target: pa.DataType) -> pa.Array:
        """``out`` as an array of ``target`` of ``rows`` values, or ``FunctionFailure``."""
        if isinstance(out, pa.ChunkedArray):
            out = out.combine_chunks()
        if pa.types.is_decimal(target) and isinstance(out, list):
            out = [_rounded(v, target.scale) for v in out]
        try:
            if isinstance(out, pa.Array):
                # A finer time of day is cut to the milliseconds a TIME keeps, as pa.array cuts
                # a datetime.time (and Flink a TIME a function returns), not refused.
                safe = not (pa.types.is_time(target) and pa.types.is_time(out.type))
                array = out if out.type == target else out.cast(target, safe=safe)
            else:
                array = pa.array(out, type=target)
        except (
            pa.ArrowInvalid,
            pa.ArrowTypeError,
            pa.ArrowNotImplementedError,
            TypeError,
            OverflowError,
        ) as e:
            raise FunctionFailure(self.wrong_type(out, target, e)) from None
        if len(array) != rows:
            raise FunctionFailure(
                f"The function {self.name} returned {len(array)} values for {rows} rows"
            )
        return array

    def wrong_type(self, out: Any, target: pa.DataType, e: BaseException) -> str:
        declared = self.spec_["return_type"]
        if isinstance(out, pa.Array):
            return (
                f"The function {self.name} returned an array of {out.type}, which does not "
                f"convert to its return type {declared}: {e}"
            )
        for v in out if isinstance(out, list) else []:
            try:
                pa.array([v], type=target)
            except Exception:
                return (
                    f"The function {self.name} returned {type(v).__name__} {v!r}, not a value "
                    f"of its return type {declared}"
                )
        return f"The function {self.name} returned a value not of its return type {declared}: {e}"


def _rounded(value: Any, scale: int) -> Any:
    """A Decimal of more fractional digits than the DECIMAL result keeps, rounded half up to
    them, as a CAST to the type rounds and as DuckDB and Spark take it; any other value as it
    is."""
    if isinstance(value, decimal.Decimal) and value.is_finite():
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int) and exponent < -scale:
            return value.quantize(decimal.Decimal(1).scaleb(-scale), decimal.ROUND_HALF_UP)
    return value


def _declared_rows(arg_types: Any) -> dict[int, pa.DataType]:
    """The Arrow types of the declared argument types that hold a ROW, by argument position."""
    from ._types import sql_to_arrow

    out: dict[int, pa.DataType] = {}
    for i, t in enumerate(arg_types or ()):
        try:
            arrow = sql_to_arrow(str(t))
        except Exception:
            continue
        if _has_struct(arrow):
            out[i] = arrow
    return out


def _has_struct(t: pa.DataType) -> bool:
    if pa.types.is_struct(t):
        return True
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_struct(t.value_type)
    return False


def _named(array: Any, declared: pa.DataType | None) -> Any:
    """``array`` with the field names of the declared ROW type, field by field in order: a ROW
    the engine passes as it is (``ROW(5, 'z')``, whose fields are ``EXPR$0``, ...) reaches the
    function with the names it declared, as a cast to that type gives them."""
    if declared is None:
        return array
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    t = array.type
    if pa.types.is_struct(t) and pa.types.is_struct(declared):
        if t.num_fields != declared.num_fields:
            return array
        children = [
            _named(child, declared.field(i).type) for i, child in enumerate(array.flatten())
        ]
        fields = [
            pa.field(declared.field(i).name, c.type, t.field(i).nullable)
            for i, c in enumerate(children)
        ]
        mask = array.is_null() if array.null_count else None
        return pa.StructArray.from_arrays(children, fields=fields, mask=mask)
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and (
        pa.types.is_list(declared) or pa.types.is_large_list(declared)
    ):
        values = _named(array.values, declared.value_type)
        if values is array.values:
            return array
        offsets = array.offsets
        kind = pa.LargeListArray if pa.types.is_large_list(t) else pa.ListArray
        mask = array.is_null() if array.null_count else None
        return kind.from_arrays(offsets, values, mask=mask)
    return array


def load_target(target: str) -> Any:
    """The object at ``'package.module.attr'``."""
    module, _, attr = target.rpartition(".")
    if not module or not attr:
        raise ConfigError(f"A Python function is named 'package.module.attr', got {target!r}")
    obj: Any = importlib.import_module(module)
    return getattr(obj, attr)


def module_allowed(module: str, allowed: Sequence[str]) -> bool:
    return any(module == a or module.startswith(a + ".") for a in allowed)


@JImplements("io.calcitebridge.udf.FunctionLoader", deferred=True)
class FunctionLoader:
    """Loads the functions ``CREATE FUNCTION ... LANGUAGE PYTHON`` names, only from the modules
    ``python.allowed-modules`` lists (DESIGN: nothing is imported by a name from SQL outside the
    allow-list); the loaded functions are kept alive here."""

    def __init__(self, allowed: Callable[[], tuple[str, ...]]) -> None:
        self._allowed = allowed
        self.loaded: list[PythonFunction] = []

    @JOverride
    def load(self, name: Any, target: Any) -> Any:
        name, target = str(name), str(target)
        try:
            allowed = self._allowed()
            module = target.rpartition(".")[0]
            if not module_allowed(module, allowed):
                raise AccessDeniedError(
                    f"module {module!r} is not allowed; add it to 'python.allowed-modules' "
                    f"(now: {';'.join(allowed) or 'empty'})"
                )
            fn = load_target(target)
            if all(hasattr(fn, m) for m in ("create_accumulator", "accumulate", "get_value")):
                spec, finish = aggregate_signature(name, fn)
                proxy = PythonFunction(name, finish, spec)
            else:
                proxy = PythonFunction(name, fn, signature(name, fn))
        except Error as e:
            return _error(e.error_class, str(e.message))
        except Exception as e:
            return _error(
                "VALIDATION",
                f"Cannot load the function {name} from {target!r}: {_described(e)}",
                traceback.format_exc(),
            )
        self.loaded.append(proxy)
        return proxy


# ---- DuckDB ---------------------------------------------------------------------------------

_DUCK_TYPES = {
    "bo": ("BOOLEAN", pa.bool_()),
    "i4": ("INTEGER", pa.int32()),
    "i8": ("BIGINT", pa.int64()),
    "f8": ("DOUBLE", pa.float64()),
    "s": ("VARCHAR", pa.string()),
    "b": ("BLOB", pa.binary()),
    "dt": ("DATE", pa.date32()),
    "ts": ("TIMESTAMP", pa.timestamp("us")),
}


def _duck_type(code: str) -> tuple[str, pa.DataType]:
    if code in _DUCK_TYPES:
        return _DUCK_TYPES[code]
    if code.startswith("n") and "x" in code:
        precision, scale = (int(p) for p in code[1:].split("x"))
        return f"DECIMAL({precision}, {scale})", pa.decimal128(precision, scale)
    raise ValueError(code)


def _stash(message: str, tb: str) -> RuntimeError:
    """An error for DuckDB to raise, whose message carries a token of the real failure."""
    token = str(next(_tokens))
    with _failures_lock:
        if len(_failures) > 64:
            _failures.clear()
        _failures[token] = (message, tb)
    return RuntimeError(MARKER + token + ";")


def failure(text: str, statement: str | None) -> ExecutionError | None:
    """The ``ExecutionError`` of a DuckDB error whose text carries a function's failure."""
    at = text.find(MARKER)
    if at < 0:
        return None
    token = text[at + len(MARKER) :].split(";", 1)[0]
    with _failures_lock:
        message, tb = _failures.pop(token, ("A Python function failed", ""))
    return ExecutionError(
        f"The query failed while it ran: {message}", sql=statement, source_traceback=tb
    )


def duckdb_function(name: str) -> tuple[Any, list[str], str, str, bool] | None:
    """What DuckDB registers as ``cb_py_<id>_<result>_<arg>...``: the callable, the argument
    types, the result type, ``native`` or ``arrow``, and whether it has side effects; None when
    no function of that id lives."""
    parts = name.lower().split("_")[2:]
    try:
        function = _functions.get(int(parts[0]))
        result, *arguments = (_duck_type(c) for c in parts[1:])
    except (ValueError, IndexError):
        return None
    if function is None:
        return None
    target = result[1]
    arity = len(arguments)
    if function.vectorized:

        def vectorized(*args: Any) -> pa.Array:
            rows = len(args[0]) if args else 0
            try:
                columns = [
                    a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in args
                ]
                return function.as_array(function.call(*columns), rows, target)
            except FunctionFailure as e:
                raise _stash(e.message, e.tb) from None

        call: Any = vectorized
        kind = "arrow"
    elif arity and pa.types.is_floating(target):
        # DuckDB's native functions return a NaN as NULL: a floating result comes back in an
        # Arrow array instead, the function still called a row at a time (as on Calcite's
        # engine). A function without arguments has no batch to tell the rows by.

        def rowwise(*args: Any) -> pa.Array:
            rows = len(args[0])
            try:
                columns = [
                    a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in args
                ]
                return function.compute(columns, rows, target)
            except FunctionFailure as e:
                raise _stash(e.message, e.tb) from None

        call = rowwise
        kind = "arrow"
    else:
        declared = _declared(function, target)
        check = _checker(declared)
        floating = pa.types.is_floating(target)

        def native(*args: Any) -> Any:
            try:
                value = _plain(function.call(*args))
            except FunctionFailure as e:
                raise _stash(e.message, e.tb) from None
            if value is not None and not check(value):
                raise _stash(
                    function.wrong_type([value], declared, TypeError(type(value).__name__)), ""
                )
            if floating and isinstance(value, float) and math.isnan(value):
                # DuckDB takes a float NaN a native function returns as NULL, and the text
                # 'NaN' as its cast to DOUBLE: a NaN. (A function without arguments comes here:
                # an Arrow function without arguments cannot tell how many rows to return.)
                return "NaN"
            return value

        call = native
        kind = "native"
    positional = inspect.Parameter.POSITIONAL_ONLY
    call.__signature__ = inspect.Signature(
        [inspect.Parameter(f"a{i}", positional) for i in range(arity)]
    )
    deterministic = bool(function.spec_["deterministic"])
    return call, [duck for duck, _ in arguments], result[0], kind, not deterministic


# Spark's types of the codes of a function's name (``io.calcitebridge.translate.DuckDbPython``).
_SPARK_TYPES = {
    "bo": "boolean",
    "i4": "int",
    "i8": "bigint",
    "f8": "double",
    "s": "string",
    "b": "binary",
    "dt": "date",
    "ts": "timestamp_ntz",
}
# Brackets the message of a function's failure in the text of Spark's error.
SPARK_MARKER = "calcite-bridge-udf-failure<<"
SPARK_END = ">>"


def _spark_type(code: str) -> str:
    if code in _SPARK_TYPES:
        return _SPARK_TYPES[code]
    if code.startswith("n") and "x" in code:
        precision, scale = (int(p) for p in code[1:].split("x"))
        return f"decimal({precision},{scale})"
    raise ValueError(code)


def _spark_rows_type(return_type: str) -> tuple[str, pa.DataType]:
    """Spark's type (as DDL) and Arrow's of a table function's rows, ``ARRAY<ROW<...>>``."""
    from pyspark.sql.pandas.types import from_arrow_type

    from ._types import sql_to_arrow

    arrow = sql_to_arrow(return_type)
    return from_arrow_type(arrow).simpleString(), arrow


def spark_function(name: str) -> tuple[Any, str, bool, bool] | None:
    """What Spark registers as ``cb_py_<id>_<result>_<arg>...``: the callable (which runs in
    Spark's Python workers, so it holds the user's function and nothing of the JVM), Spark's
    result type, whether it is vectorized (an Arrow UDF) and whether it is deterministic; None
    when no function of that id lives."""
    parts = name.lower().split("_")[2:]
    try:
        function = _functions.get(int(parts[0]))
        result_code, *argument_codes = parts[1:]
        if result_code == "tb" and function is not None:
            # A table function's rows, an ARRAY<ROW<...>>: Spark's type from its return type.
            result, target = _spark_rows_type(function.spec_["return_type"])
        else:
            result = _spark_type(result_code)
            target = _duck_type(result_code)[1]
        # "rw": an aggregate function's rows, a list of Spark Rows (tuples) in the worker.
        arguments = [pa.null() if c == "rw" else _duck_type(c)[1] for c in argument_codes]
    except (ValueError, IndexError):
        return None
    if function is None:
        return None
    fn, fname, declared = function.fn, function.name, function.spec_["return_type"]

    def failed(message: str, tb: str = "") -> RuntimeError:
        return RuntimeError(f"{SPARK_MARKER}{message}{SPARK_END}\n{tb}")

    if function.vectorized:

        def vectorized(*args: Any) -> Any:
            rows = len(args[0]) if args else 0
            columns = [
                (a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a).cast(t)
                for a, t in zip(args, arguments, strict=True)
            ]
            try:
                out = fn(*columns)
            except Exception as e:
                raise failed(
                    f"The function {fname} failed: {_described(e)}", traceback.format_exc()
                ) from None
            if isinstance(out, pa.ChunkedArray):
                out = out.combine_chunks()
            try:
                array = out.cast(target) if isinstance(out, pa.Array) else pa.array(out, target)
            except Exception as e:
                raise failed(
                    f"The function {fname} returned a value not of its return type {declared}: {e}"
                ) from None
            if len(array) != rows:
                raise failed(f"The function {fname} returned {len(array)} values for {rows} rows")
            return array

        # Spark reads the kind of an Arrow UDF from its type hints: arrays to an array.
        positional = inspect.Parameter.POSITIONAL_ONLY
        vectorized.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [
                inspect.Parameter(f"a{i}", positional, annotation=pa.Array)
                for i in range(len(arguments))
            ],
            return_annotation=pa.Array,
        )
        vectorized.__annotations__ = {
            **{f"a{i}": pa.Array for i in range(len(arguments))},
            "return": pa.Array,
        }
        call: Any = vectorized
    else:
        check = _checker(_declared(function, target))
        # Spark rounds a Decimal with more digits half to even: half up, as elsewhere.
        scale = target.scale if pa.types.is_decimal(target) else None

        def native(*args: Any) -> Any:
            values = [bytes(a) if isinstance(a, bytearray) else a for a in args]
            try:
                value = _plain(fn(*values))
            except Exception as e:
                raise failed(
                    f"The function {fname} failed: {_described(e)}", traceback.format_exc()
                ) from None
            if value is not None and not check(value):
                raise failed(
                    f"The function {fname} returned {type(value).__name__} {value!r}, not a "
                    f"value of its return type {declared}"
                )
            return value if scale is None else _rounded(value, scale)

        call = native
    return call, result, function.vectorized, bool(function.spec_["deterministic"])


_CHECKS: tuple[tuple[Callable[[pa.DataType], bool], Callable[[Any], bool]], ...] = (
    (pa.types.is_boolean, lambda v: isinstance(v, bool)),
    (pa.types.is_integer, lambda v: isinstance(v, int) and not isinstance(v, bool)),
    (pa.types.is_floating, lambda v: isinstance(v, int | float) and not isinstance(v, bool)),
    (
        pa.types.is_decimal,
        lambda v: isinstance(v, int | decimal.Decimal) and not isinstance(v, bool),
    ),
    (pa.types.is_string, lambda v: isinstance(v, str)),
    (pa.types.is_binary, lambda v: isinstance(v, bytes | bytearray)),
    (pa.types.is_timestamp, lambda v: isinstance(v, dt.datetime)),
    (pa.types.is_date, lambda v: isinstance(v, dt.date) and not isinstance(v, dt.datetime)),
)


def _plain(value: Any) -> Any:
    """A NumPy scalar (``numpy.int64(3)``) as its Python value, as Calcite's engine reads it
    through pyarrow; any other value as it is."""
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy":
        return item()
    return value


def _declared(function: PythonFunction, target: pa.DataType) -> pa.DataType:
    """The Arrow type of ``function``'s declared return type (a TINYINT's, where a backend
    registers an INTEGER), or ``target`` when it has none."""
    from ._types import sql_to_arrow

    try:
        return sql_to_arrow(str(function.spec_["return_type"]))
    except Exception:
        return target


def _checker(target: pa.DataType) -> Callable[[Any], bool]:
    """Whether a value a native function returned is one of ``target``'s Python values (an
    integer in its range)."""
    if pa.types.is_integer(target):
        low, high = -(1 << (target.bit_width - 1)), 1 << (target.bit_width - 1)
        return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v < high
    for applies, check in _CHECKS:
        if applies(target):
            return check
    return lambda v: True
