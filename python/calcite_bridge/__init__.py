"""calcite-bridge: Apache Calcite's SQL planning from Python, with Arrow results.

Nothing starts at import: the JVM starts with the first ``connect()``, or runs elsewhere and is
reached through a gateway with ``connect(gateway="HOST:PORT", token=...)``.

The names below are loaded on first use (PEP 562): the ``calcite-bridge`` command imports
this package before it knows whether a warm daemon serves it, and a served command needs
none of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from .environment import CheckedStatement, ColumnInfo, Environment, connect
    from .errors import (
        AccessDeniedError,
        CatalogError,
        ConfigError,
        Error,
        ExecutionError,
        GatewayError,
        JvmStartupError,
        MissingColumnWarning,
        QueryCancelledError,
        ResourceError,
        ResultConsumedError,
        SourceContractError,
        SourceError,
        SqlParseError,
        SqlValidationError,
        TimeoutError,
        UnsupportedError,
    )
    from .functions import udf
    from .result import Result
    from .table_api import Table


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'calcite_bridge' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "AccessDeniedError",
    "CatalogError",
    "CheckedStatement",
    "ColumnInfo",
    "ConfigError",
    "Environment",
    "Error",
    "ExecutionError",
    "GatewayError",
    "JvmStartupError",
    "MissingColumnWarning",
    "QueryCancelledError",
    "ResourceError",
    "Result",
    "ResultConsumedError",
    "SourceContractError",
    "SourceError",
    "SqlParseError",
    "SqlValidationError",
    "Table",
    "TimeoutError",
    "UnsupportedError",
    "__version__",
    "connect",
    "udf",
]

# Each public name and the module that defines it: every error and warning comes from errors.
_HOMES = {
    **{name: ".errors" for name in __all__ if name.endswith(("Error", "Warning"))},
    **dict.fromkeys(("CheckedStatement", "ColumnInfo", "Environment", "connect"), ".environment"),
    "udf": ".functions",
    "Result": ".result",
    "Table": ".table_api",
}
