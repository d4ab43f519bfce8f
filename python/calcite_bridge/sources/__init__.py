"""Table sources: the contract of DESIGN §7/§9 and the built-in connectors.

A source is any object with ``schema()`` and ``scan(request)``; the ``Supports*`` base classes
add abilities with safe defaults, and duck typing works as well as subclassing. Helpers the
connectors share stay in their own modules (``base``, ``arrow``, ``pruning``, ...).
"""

from __future__ import annotations

from calcite_bridge.sources.arrow import ArrowTableSource
from calcite_bridge.sources.base import (
    FilterPushDownResult,
    ScanRequest,
    SupportsDynamicColumns,
    SupportsFilterPushDown,
    SupportsLimitPushDown,
    SupportsProjectionPushDown,
    SupportsReadingMetadata,
    SupportsWriting,
    SupportsWritingMetadata,
    TableSource,
)
from calcite_bridge.sources.filesystem import FileSystemSource

__all__ = [
    "ArrowTableSource",
    "FileSystemSource",
    "FilterPushDownResult",
    "ScanRequest",
    "SupportsDynamicColumns",
    "SupportsFilterPushDown",
    "SupportsLimitPushDown",
    "SupportsProjectionPushDown",
    "SupportsReadingMetadata",
    "SupportsWriting",
    "SupportsWritingMetadata",
    "TableSource",
]
