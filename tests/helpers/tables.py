"""Tables and sources shared by the suites and the differential harness (tests/differential/).

Each fixture file's tests build their tables from here, and so does the harness, which runs
every case of those files again on each execution backend over the same data.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import calcite_bridge as cb
from calcite_bridge.expressions import Expression, is_nested
from calcite_bridge.sources import ArrowTableSource, FilterPushDownResult, ScanRequest

# --- oracle tables (tests/test_oracle.py, fixtures/queries.sql) --------------------------------

ORACLE_TABLES = {
    "emp": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5, 6], pa.int32()),
            "name": ["ann", "bob", "cy", None, "dora", "joe"],
            "salary": [100.0, 40.0, 80.0, None, 55.5, 40.0],
            "dept_id": pa.array([1, 2, 1, 3, None, 2], pa.int32()),
            "pad": ["  a ", "b", " c", None, "", "j  "],
        }
    ),
    "dept": pa.table(
        {
            "id": pa.array([1, 2, 4], pa.int32()),
            "dname": ["Sales", "Support", "Research"],
        }
    ),
    "nums": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5], pa.int32()),
            "x": pa.array([1, 2, 3, 7, None], pa.int64()),
            "y": pa.array([-1, 0, 5, None, 2], pa.int64()),
            "code": ["10", "-3", "0", None, "42"],
        }
    ),
}


def ordered(sql: str) -> bool:
    """True when the statement's outermost query has an ORDER BY."""
    depth = 0
    top = []
    for ch in sql:
        depth += ch == "("
        depth -= ch == ")"
        top.append(ch if depth == 0 else " ")
    return re.search(r"\bORDER\s+BY\b", "".join(top), re.IGNORECASE) is not None


# --- pushdown data (tests/test_pushdown.py) ------------------------------------------------------

PD_USER = pa.struct([("name", pa.string()), ("age", pa.int32())])
PD_USERS = pa.table(
    {
        "id": pa.array([1, 2, 3, 4, 5, 6, 7, 8, None], pa.int64()),
        "user": pa.array(
            [
                {"name": "ann", "age": 25},
                {"name": "bob", "age": 40},
                None,  # NULL struct
                {"name": None, "age": None},  # NULL fields
                {"name": "dee", "age": 29},
                {"name": "eve", "age": None},  # NULL leaf
                {"name": None, "age": 31},  # NULL leaf
                {"name": "amy", "age": 30},
                {"name": "zed", "age": 20},  # NULL top-level id
            ],
            PD_USER,
        ),
    }
)

D = pa.struct([("d", pa.int64())])
C = pa.struct([("c", D)])
B = pa.struct([("b", C), ("x", pa.string())])
DEEP = pa.table(
    {
        "id": pa.array([1, 2, 3, 4, 5, 6, 7], pa.int64()),
        "a": pa.array(
            [
                {"b": {"c": {"d": 1}}, "x": "p"},
                {"b": {"c": {"d": 5}}, "x": "q"},
                None,  # a NULL
                {"b": None, "x": None},  # a.b NULL
                {"b": {"c": None}, "x": "r"},  # a.b.c NULL
                {"b": {"c": {"d": None}}, "x": "s"},  # a.b.c.d NULL
                {"b": {"c": {"d": 3}}, "x": "t"},
            ],
            B,
        ),
    }
)

DOTTED = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int64()),
        "a.b": pa.array(
            [{"c": 1, "e.f": 2}, {"c": 3, "e.f": 0}, None, {"c": None, "e.f": None}],
            pa.struct([("c", pa.int64()), ("e.f", pa.int64())]),
        ),
        "x`y": pa.array([1, 2, None, 4], pa.int64()),
    }
)

COLL = pa.table(
    {
        "id": pa.array([1, 2, 3, 4, 5, 6], pa.int64()),
        "m": pa.array(
            [[("k", 1)], [("k", 2)], None, [], [("k", None)], [("j", 1)]],
            pa.map_(pa.string(), pa.int64()),
        ),
        "arr": pa.array(
            [[{"x": 1}], [{"x": 2}], None, [], [None], [{"x": None}]],
            pa.list_(pa.struct([("x", pa.int64())])),
        ),
    }
)

PUSHDOWN_TABLES = {"users": PD_USERS, "deep": DEEP, "dotted": DOTTED, "coll": COLL}
USERS_DDL = (
    "CREATE TABLE users (id BIGINT, `user` ROW<name STRING, age INT>) "
    "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')"
)


# --- pushdown sources (tests/test_pushdown.py) ---------------------------------------------------


class Probe(ArrowTableSource):
    """An Arrow source that records every call. ``policy`` decides what it accepts:
    ``all`` (whatever pyarrow can apply), ``none``, ``nested_only``, ``top_only``, ``both``
    (every filter accepted and remaining)."""

    def __init__(self, table: pa.Table, policy: str = "all", nested: bool = True) -> None:
        super().__init__(table)
        self.policy = policy
        self.nested = nested
        self.calls: list[list[Expression]] = []
        self.results: list[FilterPushDownResult] = []
        self.scans: list[ScanRequest] = []

    def reset(self) -> None:
        self.calls.clear()
        self.results.clear()
        self.scans.clear()

    def supports_nested_filters(self) -> bool:
        return self.nested

    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        self.calls.append(list(filters))
        if self.policy == "all":
            result = super().apply_filters(filters)
        elif self.policy == "none":
            result = FilterPushDownResult([], filters)
        elif self.policy == "nested_only":
            result = FilterPushDownResult(
                [f for f in filters if is_nested(f)], [f for f in filters if not is_nested(f)]
            )
        elif self.policy == "top_only":
            result = FilterPushDownResult(
                [f for f in filters if not is_nested(f)], [f for f in filters if is_nested(f)]
            )
        elif self.policy == "both":
            result = FilterPushDownResult(filters, filters)
        else:
            raise AssertionError(self.policy)
        self.results.append(result)
        return result

    def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
        self.scans.append(request)
        return super().scan(request)


class PlainSource:
    """Only ``schema`` and ``scan``: no abilities at all."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        self.calls: list[list[Expression]] = []
        self.results: list[FilterPushDownResult] = []
        self.scans: list[ScanRequest] = []

    def reset(self) -> None:
        self.scans.clear()

    def schema(self) -> pa.Schema:
        return self.table.schema

    def scan(self, request: ScanRequest) -> pa.Table:
        self.scans.append(request)
        assert not request.filters
        return self.table if request.columns is None else self.table.select(list(request.columns))


# --- nested projection (tests/test_nested_projection.py) ----------------------------------------

NP_ADDR = pa.struct([("city", pa.string())])
NP_USER = pa.struct([("name", pa.string()), ("age", pa.int32()), ("addr", NP_ADDR)])
NP_USERS = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int64()),
        "user": pa.array(
            [
                {"name": "ann", "age": 25, "addr": {"city": "Paris"}},
                {"name": "bob", "age": 35, "addr": None},
                None,
                {"name": None, "age": None, "addr": {"city": None}},
            ],
            NP_USER,
        ),
    }
)


class ProjectionRecording(ArrowTableSource):
    """An Arrow source that takes nested projections (unless ``nested=False``) and records the
    scans it is asked for."""

    def __init__(self, table: pa.Table, nested: bool = True) -> None:
        super().__init__(table)
        self.nested = nested
        self.requests: list[ScanRequest] = []

    def supports_nested_projection(self) -> bool:
        return self.nested

    def scan(self, request: ScanRequest) -> Any:
        self.requests.append(request)
        return super().scan(request)


# --- limit pushdown (tests/test_limit_pushdown.py) ----------------------------------------------

LIMIT_TABLE = pa.table(
    {"i": list(range(100)), "s": [None if i % 10 == 0 else str(i) for i in range(100)]}
)


class Counting(ArrowTableSource):
    """An Arrow table that counts the scans the engine asks of it."""

    def __init__(self, table: pa.Table) -> None:
        super().__init__(table)
        self.scans = 0

    def scan(self, request: ScanRequest) -> Any:
        self.scans += 1
        return super().scan(request)


class LimitRecording(ArrowTableSource):
    """An Arrow source that records the limit of each scan; ``accept=False`` takes no filter."""

    def __init__(self, table: pa.Table, accept: bool = True) -> None:
        super().__init__(table)
        self.accept = accept
        self.limits: list[int | None] = []

    def apply_filters(self, filters: list[Expression]) -> FilterPushDownResult:
        if self.accept:
            return super().apply_filters(filters)
        return FilterPushDownResult(accepted=[], remaining=filters)

    def scan(self, request: ScanRequest) -> Any:
        self.limits.append(request.limit)
        return super().scan(request)


# --- discovery (tests/test_discovery.py) --------------------------------------------------------


def write_discovery_files(folder: Path) -> Path:
    """The Parquet file the discovery table ``t`` reads (only ``id`` is declared); ``folder``."""
    pq.write_table(
        pa.table(
            {
                "id": pa.array([1, 2, 3, 4], pa.int64()),
                "score": pa.array([1.5, None, 3.0, 4.5]),
                "tag": pa.array(["a", "b", None, "a"]),
                "info": pa.array(
                    [{"k": 1}, None, {"k": None}, {"k": 4}], pa.struct([("k", pa.int32())])
                ),
            }
        ),
        folder / "f.parquet",
    )
    return folder


def setup_discovery(env: cb.Environment, files: Path) -> cb.Environment:
    """``t`` (a filesystem table that discovers its columns) and ``m`` (memory, ids 1, 3, 4)."""
    env.execute(
        f"CREATE TABLE t (id BIGINT, ...) WITH ('connector'='filesystem', 'path'='{files}')"
    )
    env.execute("CREATE TABLE m (id BIGINT, name STRING) WITH ('connector' = 'memory')")
    env.execute("INSERT INTO m VALUES (1, 'x'), (3, 'z'), (4, 'w')")
    return env


# --- column expansion (tests/test_column_expansion.py) ------------------------------------------

T_DDL = """CREATE TABLE t (i INT, s STRING,
    rt1 TIMESTAMP_LTZ(3) METADATA VIRTUAL,
    rt2 TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    rt3 TIMESTAMP_LTZ(3) METADATA,
    rt4 TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH ('connector' = 'memory')"""

FLINK_DDL = """CREATE TABLE {p} ({p}_i INT, {p}_s STRING,
    {p}_m_virtual INT METADATA VIRTUAL,
    {p}_m_aliased_virtual STRING METADATA FROM 'k1' VIRTUAL,
    {p}_m_default INT METADATA,
    {p}_m_aliased STRING METADATA FROM 'k2') WITH ('connector' = 'memory')"""

C_DDL = """CREATE TABLE c (a INT, b AS a * 2, m STRING METADATA VIRTUAL)
    WITH ('connector' = 'memory')"""


def setup_column_expansion(env: cb.Environment) -> cb.Environment:
    """The tables of fixtures/column_expansion.sql: t, t1, t2 and c, a row each."""
    env.execute(T_DDL)
    env.execute(FLINK_DDL.format(p="t1"))
    env.execute(FLINK_DDL.format(p="t2"))
    env.execute(C_DDL)
    env.execute("INSERT INTO t (i, s, rt3) VALUES (1, 'a', TIMESTAMP '2024-01-02 03:04:05')")
    env.execute("INSERT INTO t1 (t1_i, t1_s, t1_m_default, t1_m_aliased) VALUES (1, 'x', 7, 'k')")
    env.execute("INSERT INTO t2 (t2_i, t2_s) VALUES (1, 'y')")
    env.execute("INSERT INTO c (a) VALUES (21)")
    return env


# --- backend cases (fixtures/backend_cases.sql) -------------------------------------------------

ITEM = pa.struct([("x", pa.int64()), ("y", pa.string())])
BACKEND_TABLES = {
    # ROW-in-ARRAY access and subscripts: a NULL array, an empty one, a NULL element.
    "bag": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5], pa.int32()),
            "items": pa.array(
                [
                    [{"x": 1, "y": "a"}, {"x": 2, "y": "b"}],
                    [{"x": None, "y": "c"}],
                    None,
                    [],
                    [None, {"x": 5, "y": None}],
                ],
                pa.list_(ITEM),
            ),
            "arr": pa.array([[10, 20, 30], [40], None, [], [None, 60]], pa.list_(pa.int64())),
            "k": pa.array([1, 2, None, 1, 2], pa.int32()),
        }
    ),
    # Values at the edges of the integer types.
    "edge": pa.table(
        {
            "id": pa.array([1, 2, 3], pa.int32()),
            "i": pa.array([2147483647, -2147483648, 1], pa.int32()),
            "b": pa.array([9223372036854775807, -9223372036854775808, 1], pa.int64()),
        }
    ),
    # TIMESTAMP(6) values apart by less than a millisecond (one before 1970), and TIMESTAMP(3).
    "fine": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5, 6], pa.int32()),
            "us": pa.array(
                [
                    1704067200123999,
                    1704067200123456,
                    1704067200123456,
                    1704067201500000,
                    -1001,
                    None,
                ],
                pa.timestamp("us"),
            ),
            "ms": pa.array(
                [1704067200123, 1704067200124, None, 1704067201500, -2, 0], pa.timestamp("ms")
            ),
        }
    ),
    # Dates and times for the date-time functions: before 1970 (a negative millisecond count with
    # a fraction), a leap day, the last instant of a year, a unit's exact start, and NULLs; strings
    # for the string functions.
    "cal": pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5, 6], pa.int32()),
            "t": pa.array(
                [
                    -1,  # 1969-12-31 23:59:59.999
                    -2208988800000 + 59 * 86400000 + 12345,  # 1900-03-01 00:00:12.345
                    951782400000 + 3723004,  # 2000-02-29 01:02:03.004
                    1704067199999,  # 2023-12-31 23:59:59.999
                    1709164800000,  # 2024-02-29 00:00:00.000
                    None,
                ],
                pa.timestamp("ms"),
            ),
            "d": pa.array([-1, -25508, 11016, 19722, 19782, None], pa.date32()),
            "s": pa.array(["hello", "", "  padded  ", "xxaxx", "é漢字", None]),
            "n": pa.array([2, 0, -2, -10, 1, None], pa.int32()),
        }
    ),
    # ROW columns named as the SQL written for a backend names its relations (t, scan_0), beside
    # a column named as their field: a NULL row, a NULL field.
    "nest": pa.table(
        {
            "id": pa.array([1, 2, 3, 4], pa.int32()),
            "x": pa.array([10, 20, 30, None], pa.int64()),
            "t": pa.array(
                [{"x": 1, "id": 100}, {"x": 2, "id": 200}, None, {"x": None, "id": 400}],
                pa.struct([("x", pa.int64()), ("id", pa.int64())]),
            ),
            "scan_0": pa.array(
                [{"x": 5}, None, {"x": 7}, {"x": None}], pa.struct([("x", pa.int64())])
            ),
        }
    ),
    # MAP columns: a NULL map, an empty one, a NULL value, a map inside a ROW.
    "maps": pa.table(
        {
            "id": pa.array([1, 2, 3, 4], pa.int32()),
            "m": pa.array(
                [[("a", 1), ("b", None)], None, [], [("a", 4)]], pa.map_(pa.string(), pa.int64())
            ),
            "r": pa.array(
                [{"tags": [("k", "v")]}, {"tags": None}, None, {"tags": []}],
                pa.struct([("tags", pa.map_(pa.string(), pa.string()))]),
            ),
        }
    ),
}

EV_DDL = """CREATE TABLE ev (id INT, ts TIMESTAMP_LTZ(3), t TIMESTAMP(3), d DATE,
    amount DECIMAL(10, 2), ok BOOLEAN, ratio DOUBLE) WITH ('connector' = 'memory')"""

EV_INSERT = """INSERT INTO ev VALUES
    (1, CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(3)),
        TIMESTAMP '2024-01-02 03:04:05.678', DATE '2024-02-29',
        CAST(12.34 AS DECIMAL(10, 2)), TRUE, 0.1),
    (2, CAST(TIMESTAMP '2024-02-29 00:00:00.123' AS TIMESTAMP_LTZ(3)),
        TIMESTAMP '1999-12-31 23:59:59', DATE '1970-01-01',
        CAST(-0.5 AS DECIMAL(10, 2)), FALSE, 1e20),
    (3, NULL, NULL, NULL, NULL, NULL, NULL)"""


def setup_backend(env: cb.Environment) -> cb.Environment:
    """The tables of fixtures/backend_cases.sql: the oracle's emp, dept and nums, bag (arrays
    of ROWs), edge (integer extremes), fine (TIMESTAMP(6) and (3)), cal (dates, times and
    strings at their edges), nest (ROW columns named t and scan_0), maps (MAP columns) and ev
    (temporal, DECIMAL, BOOLEAN and DOUBLE columns)."""
    for name, table in {**ORACLE_TABLES, **BACKEND_TABLES}.items():
        env.register_arrow(name, table)
    env.execute(EV_DDL)
    env.execute(EV_INSERT)
    return env
