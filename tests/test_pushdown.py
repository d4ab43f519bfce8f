"""Nested filter pushdown end to end (DESIGN §7).

Every case runs three ways: the plan (what the source was offered, what it accepted, what EXPLAIN
shows in the scan and above it), the result (equal to DuckDB over the same Arrow table or Parquet
file, and to the same query against a source that accepts nothing) and NULLs (each table holds
rows with a NULL at every nesting level; the case names the ones it returns). The cases are in
fixtures/pushdown.sql; the whole optimized plan of each is kept in golden/pushdown.plan.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from tests.helpers.fixtures import SqlCase, load_cases
from tests.helpers.tables import PD_USERS, PUSHDOWN_TABLES, USERS_DDL, PlainSource, Probe

import calcite_bridge as cb
from calcite_bridge.expressions import (
    Call,
    Expression,
    FieldReference,
    Literal,
    NestedFieldReference,
)
from calcite_bridge.sources import (
    ArrowTableSource,
    FileSystemSource,
    FilterPushDownResult,
    ScanRequest,
)
from calcite_bridge.sources.pruning import prune_row_groups

# These tests check Calcite's engine itself: its plans and operators (see conftest.connect).
BACKEND = "enumerable"

# --- data ------------------------------------------------------------------------------------

TABLES = PUSHDOWN_TABLES
USERS = PD_USERS
USER = USERS.schema.field("user").type
# Ids of the rows that hold a NULL somewhere.
NULL_IDS: dict[str, set[Any]] = {
    "users": {3, 4, 6, 7, None},
    "deep": {3, 4, 5, 6},
    "dotted": {3, 4},
    "coll": {3, 4, 5, 6},
}


class FileSystemProbe:
    """Records the calls of every ``FileSystemSource`` (the ``filesystem`` connector)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[list[Expression]] = []
        self.results: list[FilterPushDownResult] = []
        self.scans: list[ScanRequest] = []
        apply, scan = FileSystemSource.apply_filters, FileSystemSource.scan
        probe = self

        def apply_filters(self: FileSystemSource, filters: list[Expression]) -> Any:
            probe.calls.append(list(filters))
            result = apply(self, filters)
            probe.results.append(result)
            return result

        def recording_scan(self: FileSystemSource, request: ScanRequest) -> Any:
            probe.scans.append(request)
            return scan(self, request)

        monkeypatch.setattr(FileSystemSource, "apply_filters", apply_filters)
        monkeypatch.setattr(FileSystemSource, "scan", recording_scan)

    def reset(self) -> None:
        self.calls.clear()
        self.results.clear()
        self.scans.clear()


# --- cases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A case of fixtures/pushdown.sql."""

    name: str
    sql: str
    table: str = "users"
    # all | nested_only | top_only | both | flat (no nested filters) | plain (no apply_filters)
    # | parquet (the filesystem connector over a Parquet file)
    source: str = "all"
    offered: tuple[str, ...] = ()  # str() of each filter offered, in order
    accepted: tuple[str, ...] = ()  # str() of each filter accepted, in order
    scan_filter: str | None = None  # the scan's filter=[...] in EXPLAIN
    above: bool = False  # a condition stays above the scan
    above_has: tuple[str, ...] = ()  # text of the plan above the scan
    null_ids: frozenset[Any] = frozenset()  # ids of NULL_IDS rows the query returns
    paths: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = ()  # nested refs offered
    duck: str | None = None  # DuckDB's spelling, when the translation doesn't do


AGE_PATH = (("user", "age"), (1, 1))
NAME_PATH = (("user", "name"), (1, 0))

FIXTURE = "pushdown.sql"
KEYS = {"table", "source", "offered", "accepted", "scan_filter", "above", "above_has"}
KEYS |= {"null_ids", "path", "duck"}


def to_case(case: SqlCase) -> Case:
    """A case of fixtures/pushdown.sql (its keys are the fields of ``Case``)."""
    return Case(
        case.name,
        case.sql,
        table=case.get("table") or "users",
        source=case.get("source") or "all",
        offered=tuple(case.all("offered")),
        accepted=tuple(case.all("accepted")),
        scan_filter=case.get("scan_filter"),
        above=case.flag("above"),
        above_has=tuple(case.all("above_has")),
        null_ids=frozenset(case.literal("null_ids", frozenset())),
        paths=tuple(case.literals("path")),
        duck=case.get("duck"),
    )


CASES = [to_case(c) for c in load_cases(FIXTURE, keys=KEYS)]

BY_NAME = {c.name: c for c in CASES}
assert len(BY_NAME) == len(CASES)


def params(cases: list[Case] = CASES) -> list[Any]:
    return [pytest.param(c, id=c.name) for c in cases]


# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def parquet_dir(tmp_path: Path) -> Path:
    d = tmp_path / "users"
    d.mkdir()
    pq.write_table(USERS, d / "users.parquet", row_group_size=3)
    return d


def install(
    env: cb.Environment, case: Case, parquet_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Registers the case's table with the case's source; returns the recording probe."""
    table = TABLES[case.table]
    if case.source == "parquet":
        probe = FileSystemProbe(monkeypatch)
        env.execute(USERS_DDL.format(path=parquet_dir))
        return probe
    source: Any
    if case.source == "plain":
        source = PlainSource(table)
    elif case.source == "flat":
        source = Probe(table, "all", nested=False)
    else:
        source = Probe(table, case.source)
    env.register_source(case.table, source)
    return source


def duck_sql(sql: str) -> str:
    """Our SQL in DuckDB's spelling: double quotes, and ``"user"`` for the column."""
    out = sql.replace("`user`", '"user"')
    out = re.sub(r"(?<![\w.`\"])user\.", '"user".', out)
    return out.replace("`", '"')


def duck_rows(case: Case, parquet_dir: Path) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    try:
        if case.source == "parquet":
            files = f"{parquet_dir}/*.parquet"
            con.execute(f"CREATE VIEW users AS SELECT * FROM read_parquet('{files}')")
        else:
            con.register(case.table, TABLES[case.table])
        return con.execute(case.duck or duck_sql(case.sql)).fetchall()
    finally:
        con.close()


def canon(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))


def scan_lines(plan: str) -> tuple[list[str], list[str]]:
    """The plan's lines split at the (one) scan: (lines above it, the scan line)."""
    lines = plan.splitlines()
    at = [i for i, line in enumerate(lines) if "BridgeTableScan" in line]
    assert len(at) == 1, plan
    return lines[: at[0]], [lines[at[0]]]


def json_scans(env: cb.Environment, sql: str) -> list[dict[str, Any]]:
    rels = json.loads(env.explain(sql, format="json"))["rels"]
    return [r for r in rels if str(r["relOp"]).endswith("BridgeTableScan")]


def first_column(result: cb.Result) -> list[Any]:
    values: list[Any] = result.to_arrow_table().column(0).to_pylist()
    return values


def nested_paths(filters: list[Expression]) -> set[tuple[tuple[str, ...], tuple[int, ...]]]:
    return {
        (node.field_names, node.field_indices)
        for f in filters
        for node in f.walk()
        if isinstance(node, NestedFieldReference)
    }


# --- the three tests of every case -----------------------------------------------------------


@pytest.mark.parametrize("case", params())
def test_plan(
    env: cb.Environment, case: Case, parquet_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = install(env, case, parquet_dir, monkeypatch)
    above, (scan,) = scan_lines(env.explain(case.sql))
    planned = (list(probe.calls), list(probe.results))
    if case.scan_filter is None:
        assert "filter=" not in scan
    else:
        assert f"filter=[{case.scan_filter}]" in scan
    text_above = "\n".join(above)
    assert ("$condition" in text_above or "Filter" in text_above) == case.above, text_above
    for part in case.above_has:
        assert part in text_above

    # EXPLAIN as JSON carries the same filter in the scan.
    (scan_rel,) = json_scans(env, case.sql)
    assert scan_rel.get("filter") == case.scan_filter

    # Running the query offers the filters once, and the scan is asked for the accepted ones. A
    # source that answers by the offer's shape (the filesystem connector) was asked at the
    # first explain: the JVM answers the same shape since (a gateway's Python side does).
    by_shape = case.source == "parquet"
    probe.reset()
    env.execute(case.sql).to_arrow_table()
    assert len(probe.calls) == (1 if case.offered and not by_shape else 0)
    calls, results = planned if by_shape else (probe.calls, probe.results)
    assert len(calls) == (1 if case.offered else 0)
    offered = calls[0] if calls else []
    assert tuple(str(f) for f in offered) == case.offered
    accepted = list(results[0].accepted) if results else []
    assert tuple(str(f) for f in accepted) == case.accepted
    assert len(probe.scans) == 1
    assert [str(f) for f in probe.scans[0].filters] == [str(f) for f in accepted]
    assert nested_paths(offered) == set(case.paths)


@pytest.mark.parametrize("case", params())
def test_result(
    env: cb.Environment,
    connect: Callable[..., cb.Environment],
    case: Case,
    parquet_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install(env, case, parquet_dir, monkeypatch)
    got = canon(env.execute(case.sql).fetchall())
    assert got == canon(duck_rows(case, parquet_dir))

    # The same query against a source that accepts nothing.
    other = connect()
    try:
        other.register_source(case.table, Probe(TABLES[case.table], "none"))
        assert got == canon(other.execute(case.sql).fetchall())
    finally:
        other.close()


@pytest.mark.parametrize("case", params())
def test_nulls(
    env: cb.Environment, case: Case, parquet_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(env, case, parquet_dir, monkeypatch)
    ids = first_column(env.execute(case.sql))
    assert len(ids) == len(set(ids))
    assert set(ids) & NULL_IDS[case.table] == set(case.null_ids)


def test_fixture_has_every_case() -> None:
    assert len(CASES) >= 35
    assert {c.source for c in CASES} == {
        "all",
        "nested_only",
        "top_only",
        "both",
        "flat",
        "plain",
        "parquet",
    }


@pytest.mark.golden
@pytest.mark.jpype_only(reason="plans are the same on both transports")
def test_golden_plans(
    connect: Callable[..., cb.Environment],
    golden: Callable[[str, dict[str, str]], None],
    parquet_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole optimized plan of every case, as kept in tests/golden/pushdown.plan."""
    plans = {}
    for case in CASES:
        env = connect()
        try:
            install(env, case, parquet_dir, monkeypatch)
            plans[case.name] = env.explain(case.sql)
        finally:
            env.close()
    golden(FIXTURE, plans)


# --- to_pyarrow --------------------------------------------------------------------------------

PUSHED = [c for c in CASES if c.accepted]


@pytest.mark.parametrize("case", params(PUSHED))
def test_to_pyarrow_gives_the_query_rows(
    env: cb.Environment, case: Case, parquet_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every accepted filter, applied with pyarrow to the same table: the same rows as the
    query when nothing stays above, a superset of them otherwise."""
    probe = install(env, case, parquet_dir, monkeypatch)
    probe.reset()
    ids = first_column(env.execute(case.sql))
    table = TABLES[case.table]
    for f in probe.results[0].accepted:
        table = table.filter(f.to_pyarrow())
    by_pyarrow = table.column("id").to_pylist()
    if case.above:
        assert set(ids) <= set(by_pyarrow)
    else:
        assert sorted(ids, key=str) == sorted(by_pyarrow, key=str)


def test_to_pyarrow_of_the_seed_filter(env: cb.Environment) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    env.execute("SELECT * FROM users WHERE user.age < 30").to_arrow_table()
    (accepted,) = probe.results[0].accepted
    thirty = pc.scalar(pa.scalar(30, pa.int32()))
    assert accepted.to_pyarrow().equals(pc.field("user", "age") < thirty)
    assert USERS.filter(accepted.to_pyarrow()).column("id").to_pylist() == [1, 5, None]


def test_to_pyarrow_keeps_nulls_out_at_every_level(env: cb.Environment) -> None:
    """NOT over a NULL struct, a NULL field and a NULL leaf is NULL, so the row is dropped by
    pyarrow as by the query."""
    probe = Probe(USERS)
    env.register_source("users", probe)
    sql = "SELECT id FROM users WHERE NOT (user.age < 30 OR user.name = 'bob')"
    ids = first_column(env.execute(sql))
    table = USERS
    for f in probe.results[0].accepted:
        table = table.filter(f.to_pyarrow())
    assert sorted(ids) == sorted(table.column("id").to_pylist())
    assert sorted(ids) == [8]  # 7 (name NULL, age 31) gives NOT(NULL)


class HintOnly(Probe):
    """Returns every filter in both lists and then ignores them in ``scan``: legal, because
    a filter in both lists is checked again above the scan."""

    def __init__(self) -> None:
        super().__init__(USERS, "both")

    def scan(self, request: ScanRequest) -> pa.RecordBatchReader:
        self.scans.append(request)
        return super().scan(ScanRequest(columns=request.columns, projection=request.projection))


def test_filters_in_both_lists_are_checked_again_above(env: cb.Environment) -> None:
    source = HintOnly()
    env.register_source("users", source)
    sql = "SELECT id FROM users WHERE user.age < 30 AND `user` IS NOT NULL"
    assert sorted(first_column(env.execute(sql)), key=str) == sorted([1, 5, None], key=str)
    assert [str(f) for f in source.scans[0].filters] == ["<(user.age, 30)", "IS NOT NULL(user)"]


def test_a_view_reaches_the_source_under_its_own_names(env: cb.Environment) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    env.execute("CREATE VIEW v AS SELECT id AS k, `user` AS p FROM users")
    sql = "SELECT k FROM v WHERE p.age < 30 AND p.name <> 'zed'"
    assert "filter=[and(<(user.age, 30), <>(user.name, 'zed'))]" in env.explain(sql)
    probe.reset()
    assert sorted(first_column(env.execute(sql))) == [1, 5]
    assert nested_paths(probe.calls[0]) == {AGE_PATH, NAME_PATH}


# --- the source contract -----------------------------------------------------------------------

SEED = "SELECT * FROM users WHERE user.age < 30 AND id > 1"
INVENTED = Call(
    "=", (FieldReference("id", "BIGINT", 0, 0), Literal(3, "BIGINT NOT NULL")), "BOOLEAN"
)


class Breaker(Probe):
    """Breaks the contract in one of several ways."""

    def __init__(self, how: str) -> None:
        super().__init__(USERS)
        self.how = how

    def apply_filters(self, filters: list[Expression]) -> Any:
        self.calls.append(list(filters))
        if self.how == "lose":
            return FilterPushDownResult(filters[:-1], [])
        if self.how == "lose_all":
            return FilterPushDownResult([], [])
        if self.how == "invent":
            return FilterPushDownResult([*filters, INVENTED], [])
        if self.how == "invent_remaining":
            return FilterPushDownResult([], [*filters, INVENTED])
        if self.how == "raise":
            raise ValueError("cannot think about filters today")
        if self.how == "wrong_type":
            return "all of them"
        return super().apply_filters(filters)

    def scan(self, request: ScanRequest) -> Any:
        self.scans.append(request)
        if self.how == "scan_raises":
            raise RuntimeError("disk on fire")
        return super().scan(request)


CONTRACT = [
    ("lose", cb.SourceContractError, ">(id, 1)"),
    ("lose_all", cb.SourceContractError, "<(user.age, 30)"),
    ("invent", cb.SourceContractError, "=(id, 3)"),
    ("invent_remaining", cb.SourceContractError, "=(id, 3)"),
]


def still_works(env: cb.Environment) -> None:
    env.register_source("fine", Probe(USERS), replace=True)
    assert first_column(env.execute("SELECT id FROM fine WHERE user.age < 30 AND id > 1")) == [5]
    assert env.execute("SELECT 1 + 1").fetchall() == [(2,)]


@pytest.mark.parametrize(("how", "error", "names"), CONTRACT)
def test_contract_plan(env: cb.Environment, how: str, error: type[cb.Error], names: str) -> None:
    """EXPLAIN already asks the source, so it already fails."""
    env.register_source("users", Breaker(how))
    with pytest.raises(error) as info:
        env.explain(SEED)
    assert "'users'" in str(info.value)
    assert names in str(info.value)
    still_works(env)


@pytest.mark.parametrize(("how", "error", "names"), CONTRACT)
def test_contract_result(env: cb.Environment, how: str, error: type[cb.Error], names: str) -> None:
    source = Breaker(how)
    env.register_source("users", source)
    with pytest.raises(error) as info:
        env.execute(SEED)
    assert "'users'" in str(info.value) and names in str(info.value)
    assert info.value.source_traceback and "check_filter_result" in info.value.source_traceback
    assert source.scans == []  # nothing was read
    still_works(env)
    # The broken source itself works again once it keeps the contract.
    source.how = "keep"
    assert first_column(env.execute(SEED)) == [5]


@pytest.mark.parametrize(("how", "error", "names"), CONTRACT)
def test_contract_nulls(env: cb.Environment, how: str, error: type[cb.Error], names: str) -> None:
    """The error names filters on NULL checks at every level as they are."""
    source = Breaker(how)
    env.register_source("users", source)
    sql = "SELECT id FROM users WHERE `user` IS NOT NULL AND user.age IS NULL AND id > 1"
    with pytest.raises(error) as info:
        env.execute(sql)
    message = str(info.value)
    offered = sorted(str(f) for f in source.calls[0])
    assert offered == [">(id, 1)", "IS NOT NULL(user)", "IS NULL(user.age)"]
    if how == "lose":
        assert f"lost the filter {source.calls[0][-1]}:" in message
    elif how == "lose_all":
        assert "IS NOT NULL(user)" in message and "IS NULL(user.age)" in message
    else:
        assert names in message
    still_works(env)


def test_contract_wrong_result_type(env: cb.Environment) -> None:
    env.register_source("users", Breaker("wrong_type"))
    with pytest.raises(cb.SourceContractError, match=r"'users'.*FilterPushDownResult"):
        env.execute(SEED)
    still_works(env)


def test_scan_raises_source_error_with_traceback(env: cb.Environment) -> None:
    env.register_source("users", Breaker("scan_raises"))
    assert "filter=[and(<(user.age, 30), >(id, 1))]" in env.explain(SEED)
    with pytest.raises(cb.SourceError) as info:
        env.execute(SEED).to_arrow_table()
    assert not isinstance(info.value, cb.SourceContractError)
    assert "disk on fire" in str(info.value)
    tb = info.value.source_traceback
    assert tb and "Traceback" in tb and "RuntimeError: disk on fire" in tb
    assert "in scan" in tb
    still_works(env)


def test_apply_filters_raising_gives_source_error_with_traceback(env: cb.Environment) -> None:
    env.register_source("users", Breaker("raise"))
    with pytest.raises(cb.SourceError) as info:
        env.execute(SEED)
    assert "cannot think about filters today" in str(info.value)
    assert "ValueError" in (info.value.source_traceback or "")
    still_works(env)


@pytest.mark.parametrize("how", ["scan_raises", "raise"])
def test_raising_source_is_named_in_the_error(env: cb.Environment, how: str) -> None:
    env.register_source("users", Breaker(how))
    with pytest.raises(cb.SourceError) as info:
        env.execute(SEED).to_arrow_table()
    assert "users" in str(info.value)


# --- apply_filters at most once per scan ---------------------------------------------------------


def test_once_per_query(env: cb.Environment) -> None:
    env.config.set("planner.plan-cache.size", "0")
    probe = Probe(USERS)
    env.register_source("users", probe)
    for n in range(1, 4):
        env.execute(SEED).to_arrow_table()
        assert len(probe.calls) == n
        assert len(probe.scans) == n


def test_once_per_plan_with_the_plan_cache(env: cb.Environment) -> None:
    # A repeated query reuses its plan: the filters were offered when it was planned, and only
    # the scan runs again.
    probe = Probe(USERS)
    env.register_source("users", probe)
    for n in range(1, 4):
        env.execute(SEED).to_arrow_table()
        assert len(probe.calls) == 1
        assert len(probe.scans) == n


def test_once_per_scan_in_a_self_join(env: cb.Environment) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    sql = (
        "SELECT a.id, b.id FROM users a JOIN users b ON a.id = b.id "
        "WHERE a.user.age < 30 AND b.user.name LIKE '%e%'"
    )
    plan = env.explain(sql)
    assert "filter=[<(user.age, 30)]" in plan
    assert "filter=[LIKE(user.name, '%e%')]" in plan
    probe.reset()
    rows = env.execute(sql).fetchall()
    assert sorted(rows) == [(5, 5)]
    assert sorted(str(c[0]) for c in probe.calls) == ["<(user.age, 30)", "LIKE(user.name, '%e%')"]
    assert len(probe.calls) == 2
    assert len(probe.scans) == 2


def test_once_per_scan_in_a_union(env: cb.Environment) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    sql = (
        "SELECT id FROM users WHERE user.age < 30 "
        "UNION ALL SELECT id FROM users WHERE user.age > 30"
    )
    ids = first_column(env.execute(sql))
    assert sorted(ids, key=str) == sorted([1, 5, None, 2, 7], key=str)
    assert len(probe.calls) == 2 and len(probe.scans) == 2


# (filter with {v} for its constant, the constants): one shape of nested filter each
NESTED_SHAPES: list[tuple[str, list[int]]] = [
    ("user.age < {v}", [30, 25, 100, -1, 41]),
    ("user.age >= {v} OR user.name = 'ann'", [30, 0, 99]),
    ("NOT (user.age = {v}) AND id > 1", [40, 29, 7]),
]


@pytest.mark.parametrize("kind", ["arrow", "parquet"])
@pytest.mark.parametrize(("where", "values"), NESTED_SHAPES, ids=[w for w, _ in NESTED_SHAPES])
def test_a_nested_filters_shape_is_answered_once_in_the_jvm(
    env: cb.Environment,
    transport: str,
    parquet_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    where: str,
    values: list[int],
) -> None:
    # An Arrow table and a filesystem table answer an offer by its shape: the JVM keeps the
    # answer for a filter on a field of a ROW column as for one on a column, so a new constant
    # is not offered to Python again (a gateway's JVM asks Python at each planning, the
    # explain's and the query's, and Python answers from its own kept answer). The plan shows
    # the new constant in the scan, and the rows, NULLs included, are DuckDB's.
    from calcite_bridge.sources import _calls

    offers: list[str] = []
    original = _calls.SourceCalls.apply_filters

    def apply_filters(self: Any, filters_json: str) -> str:
        offers.append(filters_json)
        return original(self, filters_json)

    monkeypatch.setattr(_calls.SourceCalls, "apply_filters", apply_filters)
    if kind == "arrow":
        env.register_source("users", ArrowTableSource(USERS))
    else:
        env.execute(USERS_DDL.format(path=parquet_dir))
    con = duckdb.connect()
    con.register("users", USERS)
    for v in values:
        sql = f"SELECT id, user.name, user.age FROM users WHERE {where.format(v=v)}"
        scan = [line for line in env.explain(sql).splitlines() if "BridgeTableScan" in line]
        assert len(scan) == 1 and f", {v})" in scan[0], (sql, scan)
        got = env.execute(sql).fetchall()
        assert canon(got) == canon(con.execute(duck_sql(sql)).fetchall()), sql
    assert len(offers) == (2 * len(values) if transport == "py4j" else 1), offers


def test_self_join_with_computed_key_pushes_both_sides(env: cb.Environment) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    sql = (
        "SELECT a.id, b.id FROM users a JOIN users b ON a.id = b.id + 1 "
        "WHERE a.user.age < 30 AND b.user.age > 30"
    )
    plan = env.explain(sql)
    assert "filter=[>(user.age, 30)]" in plan
    probe.reset()
    env.execute(sql).fetchall()
    assert len(probe.calls) == 2


# --- str() quoting -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "text"),
    [
        (("user", "age"), "user.age"),
        (("a.b", "c"), "`a.b`.c"),
        (("a", "b.c"), "a.`b.c`"),
        (("a`b", "c"), "`a``b`.c"),
        (("a", "b", "c", "d"), "a.b.c.d"),
    ],
)
def test_str_quotes_names_with_dots(names: tuple[str, ...], text: str) -> None:
    ref = NestedFieldReference(names, tuple(range(len(names))), "INT")
    assert str(ref) == text
    assert str(Call("<", (ref, Literal(30, "INT")), "BOOLEAN")) == f"<({text}, 30)"


def test_dotted_names_are_not_confused(env: cb.Environment) -> None:
    """A column ``a.b`` and a column ``a`` with a field ``b`` are different references."""
    both = pa.table(
        {
            "a.b": pa.array([1, 2], pa.int64()),
            "a": pa.array([{"b": 2}, {"b": 1}], pa.struct([("b", pa.int64())])),
        }
    )
    probe = Probe(both)
    env.register_source("t", probe)
    assert env.execute("SELECT `a.b` FROM t WHERE `a.b` > 1").fetchall() == [(2,)]
    assert [str(f) for f in probe.calls[-1]] == [">(`a.b`, 1)"]
    assert env.execute("SELECT `a.b` FROM t WHERE a.b > 1").fetchall() == [(1,)]
    assert [str(f) for f in probe.calls[-1]] == [">(a.b, 1)"]


# --- Parquet row groups ------------------------------------------------------------------------


@pytest.fixture
def sorted_parquet(tmp_path: Path) -> Path:
    """1000 rows sorted by ``id`` and by ``user.age``, in ten row groups; every 97th user NULL."""
    n = 1000
    table = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "user": pa.array(
                [None if i % 97 == 0 else {"name": f"n{i}", "age": i} for i in range(n)], USER
            ),
        }
    )
    d = tmp_path / "sorted"
    d.mkdir()
    pq.write_table(table, d / "data.parquet", row_group_size=100)
    assert pq.ParquetFile(d / "data.parquet").num_row_groups == 10
    return d


def kept_row_groups(d: Path, request: ScanRequest) -> list[int]:
    """The row groups the filesystem connector reads for the filters the scan received."""
    assert request.filters
    pruned = prune_row_groups(ds.dataset(d, format="parquet"), request.filters)
    return [rg.id for fragment in pruned.get_fragments() for rg in fragment.row_groups]


def test_parquet_row_groups_are_pruned_by_a_top_level_filter(
    env: cb.Environment, sorted_parquet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = FileSystemProbe(monkeypatch)
    env.execute(USERS_DDL.format(path=sorted_parquet))
    ids = first_column(env.execute("SELECT id FROM users WHERE id >= 250 AND id < 320"))
    assert sorted(ids) == list(range(250, 320))
    assert kept_row_groups(sorted_parquet, probe.scans[0]) == [2, 3]


def test_nested_filter_on_sorted_parquet_is_right(
    env: cb.Environment, sorted_parquet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = FileSystemProbe(monkeypatch)
    env.execute(USERS_DDL.format(path=sorted_parquet))
    sql = "SELECT id FROM users WHERE user.age >= 250 AND user.age < 320"
    assert "filter=[and(>=(user.age, 250), <(user.age, 320))]" in env.explain(sql)
    probe.reset()
    ids = sorted(first_column(env.execute(sql)))
    expected = [i for i in range(250, 320) if i % 97 != 0]
    assert ids == expected
    con = duckdb.connect()
    duck = con.execute(
        f"SELECT id FROM read_parquet('{sorted_parquet}/data.parquet') "
        'WHERE "user".age >= 250 AND "user".age < 320'
    ).fetchall()
    assert sorted(r[0] for r in duck) == expected
    assert [str(f) for f in probe.scans[0].filters] == [">=(user.age, 250)", "<(user.age, 320)"]


def test_parquet_row_groups_are_pruned_by_a_nested_filter(
    env: cb.Environment, sorted_parquet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = FileSystemProbe(monkeypatch)
    env.execute(USERS_DDL.format(path=sorted_parquet))
    env.execute("SELECT id FROM users WHERE user.age >= 250 AND user.age < 320").fetchall()
    assert kept_row_groups(sorted_parquet, probe.scans[0]) == [2, 3]


# --- the seed, exactly as the issue writes it -----------------------------------------------------


def test_seed_against_a_python_source(env: cb.Environment) -> None:
    env.register_source("users", ArrowTableSource(USERS))
    plan = env.explain("SELECT * FROM users WHERE user.age < 30")
    assert "BridgeTableScan(table=[[users]], filter=[<(user.age, 30)])" in plan
    rows = env.execute("SELECT * FROM users WHERE user.age < 30").to_pylist()
    assert sorted(r["user"]["age"] for r in rows) == [20, 25, 29]


def test_seed_against_a_filesystem_table(env: cb.Environment, parquet_dir: Path) -> None:
    env.execute(USERS_DDL.format(path=parquet_dir))
    plan = env.explain("SELECT * FROM users WHERE user.age < 30")
    assert "BridgeTableScan(table=[[users]], filter=[<(user.age, 30)])" in plan
    rows = env.execute("SELECT * FROM users WHERE user.age < 30").to_pylist()
    assert sorted(r["user"]["age"] for r in rows) == [20, 25, 29]


def test_filter_above_a_union_reaches_every_branch(
    env: cb.Environment, connect: Callable[..., cb.Environment]
) -> None:
    probe = Probe(USERS)
    env.register_source("users", probe)
    sql = (
        "SELECT id FROM (SELECT id, `user` FROM users UNION ALL "
        "SELECT id + 100 AS id, `user` FROM users) AS u WHERE u.`user`.age < 30"
    )
    plan = env.explain(sql)
    assert plan.count("filter=[<(user.age, 30)]") == 2, plan
    probe.reset()
    ids = first_column(env.execute(sql))
    assert len(probe.calls) == 2 and len(probe.scans) == 2
    assert all([str(f) for f in s.filters] == ["<(user.age, 30)"] for s in probe.scans)

    # The result against a source that accepts nothing; rows whose user or age is NULL are out.
    other = connect()
    try:
        other.register_source("users", Probe(USERS, "none"))
        expected = first_column(other.execute(sql))
    finally:
        other.close()
    assert sorted(ids, key=str) == sorted(expected, key=str)
    # The row with a NULL id has age 20: it comes out of both branches.
    assert sorted(ids, key=str) == sorted([1, 5, None, 101, 105, None], key=str)
    nulls = {i for i in NULL_IDS["users"] if i is not None}
    assert not set(ids) & (nulls | {i + 100 for i in nulls})
