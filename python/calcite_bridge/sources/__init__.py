"""Table sources: the contract of DESIGN §7/§9 and the built-in connectors.

A source is any object with ``schema()`` and ``scan(request)``; the ``Supports*`` base classes
add abilities with safe defaults, and duck typing works as well as subclassing. Helpers the
connectors share stay in their own modules (``base``, ``arrow``, ``pruning``, ...).
"""

from __future__ import annotations

from calcite_bridge._types import arrow_to_sql, sql_to_arrow
from calcite_bridge.sources.arrow import ArrowTableSource, scan_dataset, split_filters
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
    check_filter_result,
    filters_from_json,
    filters_to_json,
    to_reader,
)
from calcite_bridge.sources.filesystem import FileSystemSource

# The public source API is ``__all__``. The helpers imported above but left out of it stay
# importable from here for code written against earlier releases; new code imports them from
# their own modules.
_COMPATIBLE = (
    arrow_to_sql,
    sql_to_arrow,
    scan_dataset,
    split_filters,
    check_filter_result,
    filters_from_json,
    filters_to_json,
    to_reader,
)

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
