"""calcite-bridge: Apache Calcite's SQL planning from Python, with Arrow results.

Nothing starts at import: the JVM starts with the first ``connect()``, or runs elsewhere and is
reached through a gateway with ``connect(gateway="HOST:PORT", token=...)``.
"""

from ._version import __version__
from .environment import ColumnInfo, Environment, connect
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

__all__ = [
    "AccessDeniedError",
    "CatalogError",
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
