"""The exception hierarchy, and the one place where Java failures become Python ones."""

from __future__ import annotations

import builtins
import json
from typing import Any


class Error(Exception):
    """Base class of every calcite-bridge error."""

    error_class: str = "INTERNAL"

    def __init__(
        self,
        message: str,
        *,
        sql: str | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        java_stack_trace: str | None = None,
        source_traceback: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.sql = sql
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.java_stack_trace = java_stack_trace
        self.source_traceback = source_traceback or None

    def __str__(self) -> str:
        if self.line is None or self.column is None:
            return self.message
        where = f"line {self.line}, column {self.column}"
        snippet = highlight(self.sql, self.line, self.column, self.end_line, self.end_column)
        return f"{self.message} (at {where})" + (f"\n{snippet}" if snippet else "")


class SqlParseError(Error, ValueError):
    """The SQL text does not parse."""

    error_class = "PARSE"


class SqlValidationError(Error, ValueError):
    """The SQL parses but is not valid: an unknown column or table, a type mismatch, ..."""

    error_class = "VALIDATION"


class CatalogError(Error):
    """A table or view exists already, or does not exist."""

    error_class = "CATALOG"


class ConfigError(Error, ValueError):
    """A configuration key or value is not valid."""

    error_class = "CONFIG"


class ExecutionError(Error):
    """The statement failed while it ran: a division by zero, a failing CAST, ..."""

    error_class = "EXECUTION"


class SourceError(ExecutionError):
    """A table source failed while it was planned or read (a failure of the running statement,
    so it is an ``ExecutionError`` too)."""

    error_class = "SOURCE"


class SourceContractError(SourceError):
    """A table source broke the source contract (lost or invented a filter, ...)."""

    error_class = "SOURCE_CONTRACT"


class AccessDeniedError(Error, PermissionError):
    """The sandbox refused: a path outside ``filesystem.allowed-paths`` (once ``..`` and symbolic
    links are resolved), or a ``filesystem`` or ``python`` table under ``external-access =
    false`` (docs/security.md)."""

    error_class = "ACCESS"


class UnsupportedError(Error, NotImplementedError):
    """The statement or feature is not supported."""

    error_class = "UNSUPPORTED"


class ResourceError(Error):
    """The statement ran out of memory or stack; the environment keeps working."""

    error_class = "RESOURCE"


class QueryCancelledError(Error):
    """The statement was cancelled (Ctrl-C)."""

    error_class = "CANCELLED"


class ResultConsumedError(Error, RuntimeError):
    """The rows of a result were already streamed out once (``to_arrow_reader()``, or a
    ``fetch`` call that began reading them), so they cannot be read as a whole again."""

    error_class = "CONSUMED"


class JvmStartupError(Error, RuntimeError):
    """The JVM could not be started, or is not usable by calcite-bridge."""

    error_class = "JVM_STARTUP"


class GatewayError(Error, ConnectionError):
    """A gateway could not be reached or refused the connection (wrong token, address not
    allowed, version mismatch), or the connection to it was lost."""

    error_class = "GATEWAY"


class TimeoutError(Error, builtins.TimeoutError):
    """The statement ran longer than ``execution.timeout`` (or its ``timeout=``), or planned
    longer than ``planner.timeout``; its work was stopped and the environment keeps working."""

    error_class = "TIMEOUT"


class MissingColumnWarning(UserWarning):
    """A column the table declares is in none of its files, so it reads as NULL: warned once per
    statement and column set (Python's warning filters apply). The filesystem table option
    ``'source.missing-columns' = 'error'`` makes it a :class:`SourceError` instead, and
    ``'null'`` silences it."""


_BY_KIND: dict[str, type[Error]] = {
    cls.error_class: cls
    for cls in (
        SqlParseError,
        SqlValidationError,
        CatalogError,
        ConfigError,
        SourceError,
        SourceContractError,
        AccessDeniedError,
        UnsupportedError,
        ResourceError,
        ExecutionError,
        QueryCancelledError,
        TimeoutError,
    )
}


# Every failure of the JVM side reaches Python as this one class, already translated there
# (io.calcitebridge.errors.Errors): its kind picks the Python class.
BRIDGE_EXCEPTION = "io.calcitebridge.errors.BridgeError"

# A failure while rows stream crosses the Arrow C stream as text: this marker, then JSON.
STREAM_FAILURE_MARKER = "calcite-bridge-error:"


def from_java_failure(exc: Any, class_name: str, sql: str | None = None) -> Error:
    """Translates any Java exception, of class ``class_name``, whatever transport carried it."""
    if class_name == BRIDGE_EXCEPTION:
        return from_java(exc, sql)
    return Error(f"Unexpected failure in the JVM: {exc}")


# The start of the message of an error a file's value raises inside a backend's read (DuckDB's
# reader of a CSV or JSON file through our conversion), which the backend reports as
# ``SourceError``; a leaf constant, so a backend need not import the file readers to match it.
SOURCE_ERROR = "calcite-bridge-source-error: "


def from_stream_failure(exc: BaseException, sql: str | None = None) -> Error:
    """The typed error behind ``exc``, raised by pyarrow while it read a result's stream.

    The JVM writes the failure (kind, message, position, detail) after a marker; a stream that
    failed without one (the process lost its JVM, say) is an ``ExecutionError``.
    """
    text = str(exc)
    at = text.find(STREAM_FAILURE_MARKER)
    if at >= 0:
        payload = text[at + len(STREAM_FAILURE_MARKER) :]
        try:
            data, _ = json.JSONDecoder().raw_decode(payload)
        except ValueError:
            data = None
        if isinstance(data, dict):
            cls = _BY_KIND.get(str(data.get("kind")), ExecutionError)

            def pos(key: str) -> int | None:
                n = data.get(key)
                return n if isinstance(n, int) and n > 0 else None

            return cls(
                str(data.get("message") or "The query failed while it ran"),
                sql=sql,
                line=pos("line"),
                column=pos("column"),
                end_line=pos("end_line"),
                end_column=pos("end_column"),
                source_traceback=str(data.get("detail") or ""),
            )
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return ExecutionError(f"The query failed while it ran: {first}", sql=sql)


def from_java(exc: Any, sql: str | None = None) -> Error:
    """Translates a Java ``BridgeException`` into the matching Python error."""
    kind = str(exc.kind())
    cls = _BY_KIND.get(kind, Error)
    message = str(exc.getMessage() or kind)

    def pos(v: Any) -> int | None:
        n = int(v)
        return n if n > 0 else None

    return cls(
        message,
        sql=sql,
        line=pos(exc.line()),
        column=pos(exc.column()),
        end_line=pos(exc.endLine()),
        end_column=pos(exc.endColumn()),
        java_stack_trace=str(exc.javaStackTrace()),
        source_traceback=str(exc.detail()),
    )


def highlight(
    sql: str | None,
    line: int,
    column: int,
    end_line: int | None = None,
    end_column: int | None = None,
) -> str:
    """The SQL line at ``line`` with a caret run under ``column`` .. ``end_column``."""
    if not sql:
        return ""
    lines = sql.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    text = lines[line - 1]
    start = max(column, 1)
    end = end_column if end_line in (None, line) and end_column else start
    end = max(min(end, len(text)), start)
    width = len(str(line))
    gutter = " " * width
    return f"{line} | {text}\n{gutter} | {' ' * (start - 1)}{'^' * (end - start + 1)}"
