"""Table sources: the contract of DESIGN §7/§9 and the built-in connectors.

A source is any object with ``schema()`` and ``scan(request)``; the ``Supports*`` base classes
add abilities with safe defaults, and duck typing works as well as subclassing.
"""

from __future__ import annotations

from calcite_bridge.sources.arrow import ArrowTableSource, scan_dataset, split_filters
from calcite_bridge.sources.base import (
    FilterPushDownResult,
    ScanRequest,
    ScanResult,
    SupportsDynamicColumns,
    SupportsFilterPushDown,
    SupportsLimitPushDown,
    SupportsProjectionPushDown,
    SupportsReadingMetadata,
    SupportsWriting,
    SupportsWritingMetadata,
    TableSource,
    check_filter_result,
    filters_from_json,
    filters_to_json,
    to_reader,
)
from calcite_bridge.sources.filesystem import FileSystemSource
from calcite_bridge.sources.types import arrow_to_sql, sql_to_arrow

__all__ = [
    "ArrowTableSource",
    "FileSystemSource",
    "FilterPushDownResult",
    "ScanRequest",
    "ScanResult",
    "SupportsDynamicColumns",
    "SupportsFilterPushDown",
    "SupportsLimitPushDown",
    "SupportsProjectionPushDown",
    "SupportsReadingMetadata",
    "SupportsWriting",
    "SupportsWritingMetadata",
    "TableSource",
    "arrow_to_sql",
    "check_filter_result",
    "filters_from_json",
    "filters_to_json",
    "scan_dataset",
    "split_filters",
    "sql_to_arrow",
    "to_reader",
]
