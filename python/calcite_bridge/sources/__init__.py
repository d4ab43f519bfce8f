"""Table sources: the contract of DESIGN §7/§9 and the built-in connectors.

A source is any object with ``schema()`` and ``scan(request)``; the ``Supports*`` base classes
add abilities with safe defaults, and duck typing works as well as subclassing. Helpers the
connectors share stay in their own modules (``base``, ``arrow``, ``pruning``, ...).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calcite_bridge._types import arrow_to_sql as arrow_to_sql
    from calcite_bridge._types import sql_to_arrow as sql_to_arrow
    from calcite_bridge.sources.arrow import ArrowTableSource
    from calcite_bridge.sources.arrow import scan_dataset as scan_dataset
    from calcite_bridge.sources.arrow import split_filters as split_filters
    from calcite_bridge.sources.base import (
        FilterPushDownResult,
        ScanRequest,
        ScanResult,
        SupportsAggregatePushDown,
        SupportsDynamicColumns,
        SupportsFilterPushDown,
        SupportsLimitPushDown,
        SupportsProjectionPushDown,
        SupportsReadingMetadata,
        SupportsRowLevelDelete,
        SupportsRowLevelUpdate,
        SupportsWriting,
        SupportsWritingMetadata,
        TableSource,
    )
    from calcite_bridge.sources.base import (
        check_filter_result as check_filter_result,
    )
    from calcite_bridge.sources.base import (
        filters_from_json as filters_from_json,
    )
    from calcite_bridge.sources.base import (
        filters_to_json as filters_to_json,
    )
    from calcite_bridge.sources.base import (
        to_reader as to_reader,
    )
    from calcite_bridge.sources.filesystem import FileSystemSource

# Where each name lives. The modules load on first use: importing calcite_bridge (which imports
# this package for its sandbox) then costs no pyarrow.compute, pyarrow.parquet or numpy, which a
# first statement does not need. The helpers left out of ``__all__`` stay importable from here
# for code written against earlier releases; new code imports them from their own modules.
_HOMES = {
    "arrow_to_sql": "calcite_bridge._types",
    "sql_to_arrow": "calcite_bridge._types",
    "ArrowTableSource": "calcite_bridge.sources.arrow",
    "scan_dataset": "calcite_bridge.sources.arrow",
    "split_filters": "calcite_bridge.sources.arrow",
    "FileSystemSource": "calcite_bridge.sources.filesystem",
    **dict.fromkeys(
        (
            "FilterPushDownResult",
            "ScanRequest",
            "ScanResult",
            "SupportsAggregatePushDown",
            "SupportsDynamicColumns",
            "SupportsFilterPushDown",
            "SupportsLimitPushDown",
            "SupportsProjectionPushDown",
            "SupportsReadingMetadata",
            "SupportsRowLevelDelete",
            "SupportsRowLevelUpdate",
            "SupportsWriting",
            "SupportsWritingMetadata",
            "TableSource",
            "check_filter_result",
            "filters_from_json",
            "filters_to_json",
            "to_reader",
        ),
        "calcite_bridge.sources.base",
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "ArrowTableSource",
    "FileSystemSource",
    "FilterPushDownResult",
    "ScanRequest",
    "ScanResult",
    "SupportsAggregatePushDown",
    "SupportsDynamicColumns",
    "SupportsFilterPushDown",
    "SupportsLimitPushDown",
    "SupportsProjectionPushDown",
    "SupportsReadingMetadata",
    "SupportsRowLevelDelete",
    "SupportsRowLevelUpdate",
    "SupportsWriting",
    "SupportsWritingMetadata",
    "TableSource",
]
