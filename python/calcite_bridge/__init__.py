"""calcite-bridge: Apache Calcite's SQL planning from Python, with Arrow results.

Nothing starts at import: the JVM starts with the first ``connect()``.
"""

from ._version import __version__
from .environment import ColumnInfo, Environment, connect
from .errors import (
    CatalogError,
    ConfigError,
    Error,
    ExecutionError,
    JvmStartupError,
    QueryCancelledError,
    ResourceError,
    SourceContractError,
    SourceError,
    SqlParseError,
    SqlValidationError,
    UnsupportedError,
)
from .result import Result
from .table_api import Table

__all__ = [
    "CatalogError",
    "ColumnInfo",
    "ConfigError",
    "Environment",
    "Error",
    "ExecutionError",
    "JvmStartupError",
    "QueryCancelledError",
    "ResourceError",
    "Result",
    "SourceContractError",
    "SourceError",
    "SqlParseError",
    "SqlValidationError",
    "Table",
    "UnsupportedError",
    "__version__",
    "connect",
]
