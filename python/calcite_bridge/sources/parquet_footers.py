"""The footers of Parquet files, read once and cached for the scans of :mod:`parquet`.

A footer holds a file's metadata, Arrow schema, leaf paths and, as scans ask, the statistics
the filters use. The cache is keyed by path and checked against the file's modification time,
size and inode on every scan, so a replaced file is read afresh.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from calcite_bridge.errors import SourceError
from calcite_bridge.sources.pruning import (
    RowGroupClass,
    RowGroupFilters,
    RowGroupStats,
    whole_file,
)

__all__ = ["ParquetFooter", "clear_footer_cache", "footer"]

_MAX_FOOTERS = 1024
_MAX_CLASSES = 64  # filter combinations remembered per file

_footers: OrderedDict[str, ParquetFooter] = OrderedDict()
_footers_lock = threading.Lock()


class ParquetFooter:
    """What a Parquet file's footer says, with the statistics of its leaves as scans ask."""

    def __init__(self, path: str, stamp: tuple[int, int, int], file: pq.ParquetFile) -> None:
        self.path = path
        self.stamp = stamp
        self.metadata: pq.FileMetaData = file.metadata
        self.schema: pa.Schema = file.schema_arrow
        self.leaf_paths: list[tuple[str, ...]] = [tuple(p) for p in file.reader.column_paths]
        self.num_row_groups: int = self.metadata.num_row_groups
        self.row_counts: list[int] = [
            self.metadata.row_group(i).num_rows for i in range(self.num_row_groups)
        ]
        self._stats: dict[str, list[RowGroupStats | None] | None] = {}
        self._whole: dict[str, RowGroupStats | None] = {}
        self._classes: OrderedDict[object, list[RowGroupClass]] = OrderedDict()

    def open(self) -> pq.ParquetFile:
        """The file, opened without reading its footer again."""
        return pq.ParquetFile(self.path, metadata=self.metadata)

    def leaves(self, names: Sequence[str]) -> list[int]:
        """Indices of the leaf columns at or under the field path ``names``."""
        n = len(names)
        prefix = tuple(names)
        return [i for i, p in enumerate(self.leaf_paths) if p[:n] == prefix]

    def stats(self, dotted: str) -> list[RowGroupStats | None] | None:
        """Per row group, the statistics of the one leaf whose dotted path is ``dotted``.

        None when no leaf or more than one has that path (a name with a dot in it), and when
        the leaf is inside a list or map (its values are not rows).
        """
        if dotted in self._stats:
            return self._stats[dotted]
        found = [i for i, p in enumerate(self.leaf_paths) if ".".join(p) == dotted]
        out: list[RowGroupStats | None] | None = None
        if len(found) == 1:
            j = found[0]
            if self.metadata.schema.column(j).max_repetition_level == 0:
                out = [
                    RowGroupStats(self.metadata.row_group(i).column(j), self.row_counts[i])
                    for i in range(self.num_row_groups)
                ]
        self._stats[dotted] = out
        return out

    def whole(self, dotted: str) -> RowGroupStats | None:
        """The statistics of the leaf ``dotted`` over the whole file (``whole_file``)."""
        if dotted not in self._whole:
            per_group = self.stats(dotted)
            self._whole[dotted] = None if per_group is None else whole_file(per_group)
        return self._whole[dotted]

    def classes(self, filters: RowGroupFilters) -> list[RowGroupClass]:
        """What ``filters`` make of each row group; remembered for the filters last asked.
        A file none of whose rows' ranges pass them skips every row group at once."""
        key = filters.key
        found = None if key is None else self._classes.get(key)
        if found is None:
            found = filters.classes(self.num_row_groups, self.stats, self.whole)
            if key is not None:
                self._classes[key] = found
                while len(self._classes) > _MAX_CLASSES:
                    self._classes.popitem(last=False)
        return found

    def uncompressed_bytes(self, row_group: int, leaves: Sequence[int]) -> int:
        rg = self.metadata.row_group(row_group)
        return sum(rg.column(j).total_uncompressed_size for j in leaves)


def _stamp(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def footer(path: str) -> ParquetFooter:
    """The footer of the Parquet file at ``path``, from the cache while the file is unchanged."""
    stamp = _stamp(path)
    with _footers_lock:
        cached = _footers.get(path)
        if cached is not None and cached.stamp == stamp:
            _footers.move_to_end(path)
            return cached
    try:
        found = ParquetFooter(path, stamp, pq.ParquetFile(path))
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise SourceError(f"cannot read the Parquet file {path}: {exc}") from exc
    with _footers_lock:
        _footers[path] = found
        _footers.move_to_end(path)
        while len(_footers) > _MAX_FOOTERS:
            _footers.popitem(last=False)
    return found


def clear_footer_cache() -> None:
    """Forgets every cached footer."""
    with _footers_lock:
        _footers.clear()
