"""Everyday analytics over files through the filesystem connector, against DuckDB alone.

Taxi-like trips (2 M rows by default): a nested ``loc ROW<zone, borough>``, an
``ARRAY<STRING>`` of tags, NULLs in both and in the fare, microsecond timestamps, and a small
dimension table of boroughs.

- Parquet, 4 files: the 15 queries of issue 32 and one of the clock (``QUERIES``) on
  ``enumerable``, ``duckdb`` and ``auto``, each against DuckDB alone reading the same files
  with ``read_parquet``.
- CSV and JSON lines, the same rows flattened (``zone`` and ``borough`` columns, no tags), as one
  file and as 4 files: the queries of ``FLAT_QUERIES`` (explicit column lists and ``*``) on
  ``auto``, each against DuckDB alone reading the same files with ``read_csv`` / ``read_json``.

Every backend must return the peer's rows (compared as sorted lists of rows).

    .venv/bin/python bench/files_workload.py [--rows N] [--repeat R] [--formats parquet,csv,json]
        [--backends enumerable,duckdb,auto]
        [query ...]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _common import (
    BACKENDS,
    as_table,
    duck_version,
    emit,
    in_ms,
    record,
    started_env,
    timed_in_turn,
)

TARGET_RATIO = 2.0

# name -> (our SQL, DuckDB's SQL over {trips} and {zones}); the queries of issue 32's table
# that run on DuckDB.
QUERIES: dict[str, tuple[str, str]] = {
    "group_by_nested_field": (
        "SELECT t.loc.borough, COUNT(*) AS n, SUM(fare) AS s FROM trips t GROUP BY t.loc.borough",
        "SELECT t.loc.borough, COUNT(*) AS n, SUM(fare) AS s FROM {trips} t GROUP BY t.loc.borough",
    ),
    "top_n_zones": (
        "SELECT t.loc.zone AS zone, COUNT(*) AS n FROM trips t GROUP BY t.loc.zone "
        "ORDER BY n DESC, zone LIMIT 10",
        "SELECT t.loc.zone AS zone, COUNT(*) AS n FROM {trips} t GROUP BY t.loc.zone "
        "ORDER BY n DESC, zone LIMIT 10",
    ),
    "join_on_nested_field": (
        "SELECT z.region, COUNT(*) AS n, SUM(t.fare) AS s FROM trips t "
        "JOIN zones z ON t.loc.borough = z.borough GROUP BY z.region",
        "SELECT z.region, COUNT(*) AS n, SUM(t.fare) AS s FROM {trips} t "
        "JOIN {zones} z ON t.loc.borough = z.borough GROUP BY z.region",
    ),
    "row_number_top2": (
        "SELECT borough, zone, n FROM (SELECT borough, zone, n, ROW_NUMBER() OVER "
        "(PARTITION BY borough ORDER BY n DESC, zone) AS rn FROM (SELECT t.loc.borough AS "
        "borough, t.loc.zone AS zone, COUNT(*) AS n FROM trips t GROUP BY t.loc.borough, "
        "t.loc.zone)) WHERE rn <= 2",
        "SELECT borough, zone, n FROM (SELECT borough, zone, n, ROW_NUMBER() OVER "
        "(PARTITION BY borough ORDER BY n DESC, zone) AS rn FROM (SELECT t.loc.borough AS "
        "borough, t.loc.zone AS zone, COUNT(*) AS n FROM {trips} t GROUP BY t.loc.borough, "
        "t.loc.zone)) WHERE rn <= 2",
    ),
    "selective_nested_filter": (
        "SELECT COUNT(*) AS n, SUM(fare) AS s FROM trips t WHERE t.loc.zone = 'z0007'",
        "SELECT COUNT(*) AS n, SUM(fare) AS s FROM {trips} t WHERE t.loc.zone = 'z0007'",
    ),
    "count_distinct_nested": (
        "SELECT COUNT(DISTINCT t.loc.zone) AS n FROM trips t",
        "SELECT COUNT(DISTINCT t.loc.zone) AS n FROM {trips} t",
    ),
    "group_by_file_name": (
        "SELECT fname AS f, COUNT(*) AS n FROM trips GROUP BY fname",
        "SELECT parse_filename(filename) AS f, COUNT(*) AS n "
        "FROM read_parquet({files}, filename = true) GROUP BY f",
    ),
    "group_by_extract_hour": (
        "SELECT EXTRACT(HOUR FROM pickup) AS h, COUNT(*) AS n FROM trips "
        "GROUP BY EXTRACT(HOUR FROM pickup)",
        "SELECT date_part('hour', pickup) AS h, COUNT(*) AS n FROM {trips} GROUP BY h",
    ),
    "floor_to_hour": (
        "SELECT FLOOR(pickup TO HOUR) AS hr, COUNT(*) AS n FROM trips "
        "GROUP BY FLOOR(pickup TO HOUR) ORDER BY n DESC, hr LIMIT 10",
        "SELECT date_trunc('hour', pickup) AS hr, COUNT(*) AS n FROM {trips} "
        "GROUP BY hr ORDER BY n DESC, hr LIMIT 10",
    ),
    "percentile_by_borough": (
        "SELECT t.loc.borough AS b, PERCENTILE(fare, 0.5) AS p FROM trips t GROUP BY t.loc.borough",
        "SELECT t.loc.borough AS b, quantile_cont(fare, 0.5) AS p FROM {trips} t "
        "GROUP BY t.loc.borough",
    ),
    "cross_join_unnest": (
        "SELECT tag, COUNT(*) AS n FROM trips CROSS JOIN UNNEST(tags) AS u(tag) GROUP BY tag",
        "SELECT tag, COUNT(*) AS n FROM (SELECT unnest(tags) AS tag FROM {trips}) GROUP BY tag",
    ),
    "avg_timestampdiff": (
        "SELECT AVG(TIMESTAMPDIFF(MINUTE, pickup, dropoff)) AS m FROM trips",
        "SELECT CAST(sum(m) // count(m) AS INTEGER) AS m FROM (SELECT CAST("
        "(epoch_us(dropoff) - epoch_us(pickup)) // 60000000 AS INTEGER) AS m FROM {trips})",
    ),
    "cardinality_array_contains": (
        "SELECT CARDINALITY(tags) AS c, COUNT(*) AS n, "
        "SUM(CASE WHEN ARRAY_CONTAINS(tags, 't1') THEN 1 ELSE 0 END) AS k "
        "FROM trips GROUP BY CARDINALITY(tags)",
        "SELECT CAST(len(tags) AS INTEGER) AS c, COUNT(*) AS n, "
        "CAST(SUM(CASE WHEN list_contains(tags, 't1') THEN 1 ELSE 0 END) AS INTEGER) AS k "
        "FROM {trips} GROUP BY c",
    ),
    # Not of issue 32: the clock functions, which run on DuckDB (the statement's start).
    "before_the_statements_start": (
        "SELECT COUNT(*) AS n FROM trips WHERE pickup < LOCALTIMESTAMP "
        "AND CAST(pickup AS DATE) <= CURRENT_DATE",
        "SELECT COUNT(*) AS n FROM {trips} WHERE pickup < CAST(get_current_timestamp() AS "
        "TIMESTAMP) AND CAST(pickup AS DATE) <= current_date",
    ),
    "four_columns_filter": (
        "SELECT id, pickup, fare, passengers FROM trips WHERE passengers = 2 AND fare > 45",
        "SELECT id, pickup, fare, passengers FROM {trips} WHERE passengers = 2 AND fare > 45",
    ),
}

# The flat tables of CSV and JSON files: name -> (our SQL, DuckDB's SQL over {trips} and
# {zones}).
FLAT_QUERIES: dict[str, tuple[str, str]] = {
    "group_by_column": (
        "SELECT borough, COUNT(*) AS n, SUM(fare) AS s FROM trips GROUP BY borough",
        "SELECT borough, COUNT(*) AS n, SUM(fare) AS s FROM {trips} GROUP BY borough",
    ),
    "top_n_zones": (
        "SELECT zone, COUNT(*) AS n FROM trips GROUP BY zone ORDER BY n DESC, zone LIMIT 10",
        "SELECT zone, COUNT(*) AS n FROM {trips} GROUP BY zone ORDER BY n DESC, zone LIMIT 10",
    ),
    "join_dimension": (
        "SELECT z.region, COUNT(*) AS n, SUM(t.fare) AS s FROM trips t "
        "JOIN zones z ON t.borough = z.borough GROUP BY z.region",
        "SELECT z.region, COUNT(*) AS n, SUM(t.fare) AS s FROM {trips} t "
        "JOIN {zones} z ON t.borough = z.borough GROUP BY z.region",
    ),
    "selective_filter": (
        "SELECT COUNT(*) AS n, SUM(fare) AS s FROM trips WHERE zone = 'z0007'",
        "SELECT COUNT(*) AS n, SUM(fare) AS s FROM {trips} WHERE zone = 'z0007'",
    ),
    "count_distinct": (
        "SELECT COUNT(DISTINCT zone) AS n FROM trips",
        "SELECT COUNT(DISTINCT zone) AS n FROM {trips}",
    ),
    "four_columns_filter": (
        "SELECT id, zone, fare, passengers FROM trips WHERE passengers = 2 AND fare > 45",
        "SELECT id, zone, fare, passengers FROM {trips} WHERE passengers = 2 AND fare > 45",
    ),
    "star_filter": (
        "SELECT * FROM trips WHERE passengers = 2 AND fare > 49",
        "SELECT * FROM {trips} WHERE passengers = 2 AND fare > 49",
    ),
}
FLAT_DDL = (
    "CREATE TABLE trips (id BIGINT, pickup TIMESTAMP(6), zone STRING, borough STRING, "
    "fare DOUBLE, passengers INT) WITH ('connector' = 'filesystem', 'path' = '{path}', "
    "'format' = '{fmt}')"
)


def write_flat(root: Path, parquet: Path, fmt: str, files: int) -> Path:
    """The trips of ``parquet`` flattened into ``files`` CSV or JSON-lines files under root."""
    import duckdb

    out = root / f"trips_{fmt}_{files}"
    out.mkdir()
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE flat AS SELECT id, pickup, loc.zone AS zone, loc.borough AS borough, fare, "
        f"passengers FROM read_parquet('{parquet}/*.parquet') ORDER BY id"
    )
    total = con.execute("SELECT COUNT(*) FROM flat").fetchone()[0]  # type: ignore[index]
    per = -(-total // files)
    for i in range(files):
        part = out / f"part-{i}.{fmt}"
        chunk = f"SELECT * FROM flat WHERE id >= {i * per} AND id < {(i + 1) * per}"
        if fmt == "csv":
            con.execute(f"COPY ({chunk}) TO '{part}' (FORMAT csv, HEADER)")
        else:
            con.execute(
                f"COPY (SELECT id, strftime(pickup, '%Y-%m-%d %H:%M:%S.%f') AS pickup, zone, "
                f"borough, fare, passengers FROM ({chunk})) TO '{part}' (FORMAT json)"
            )
    con.close()
    return out


def write_files(root: Path, rows: int, files: int = 4) -> tuple[Path, Path]:
    """The trips directory (``files`` Parquet files) and the zones file, written by DuckDB."""
    import duckdb

    trips = root / "trips"
    trips.mkdir()
    con = duckdb.connect()
    per = rows // files
    for i in range(files):
        con.execute(
            f"""COPY (SELECT r::BIGINT AS id,
                  TIMESTAMP '2024-01-01' + INTERVAL (r * 7919 % 31536000000000) MICROSECOND
                      AS pickup,
                  TIMESTAMP '2024-01-01' + INTERVAL (r * 7919 % 31536000000000 + 60000000
                      + r % 3600000000) MICROSECOND AS dropoff,
                  CASE WHEN r % 97 = 0 THEN NULL
                       ELSE struct_pack(zone := 'z' || lpad((hash(r) % 260)::VARCHAR, 4, '0'),
                                        borough := 'b' || (hash(r) % 260 % 6)::VARCHAR) END
                      AS loc,
                  CASE WHEN r % 13 = 0 THEN NULL
                       ELSE ['t' || (r % 5)::VARCHAR, 't' || (r % 7)::VARCHAR] END AS tags,
                  CASE WHEN r % 31 = 0 THEN NULL ELSE (r % 5000) / 100.0 END::DOUBLE AS fare,
                  (r % 6)::INTEGER AS passengers
                FROM range({i * per}, {(i + 1) * per}) t(r))
              TO '{trips}/part-{i}.parquet' (FORMAT parquet, ROW_GROUP_SIZE 100000)"""
        )
    zones = root / "zones.parquet"
    con.execute(
        "COPY (SELECT 'b' || i::VARCHAR AS borough, 'r' || (i % 3)::VARCHAR AS region "
        f"FROM range(6) t(i)) TO '{zones}' (FORMAT parquet)"
    )
    con.close()
    return trips, zones


def _rows(table: Any) -> list[tuple[Any, ...]]:
    def key(value: Any) -> Any:
        return (value is None, float(f"{value:.9g}") if isinstance(value, float) else value)

    rows = [
        tuple(key(v)[1] if isinstance(v, float) else v for v in r.values())
        for r in table.to_pylist()
    ]
    return sorted(rows, key=lambda r: tuple(key(v) for v in r))


def interleaved(
    ours: Callable[[], Any], peer: Callable[[], Any], repeat: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Timings of ``ours`` and ``peer`` run in turn, ``repeat`` times each after a warm-up of
    each, so that a change of the machine's load weighs on both alike."""
    ours_t, peer_t = timed_in_turn((ours, peer), repeat)
    return in_ms(ours_t), in_ms(peer_t)


def _watch_scans() -> list[str]:
    """Records how each scan of a statement on DuckDB is read: ``files`` when DuckDB reads the
    files itself (``read_parquet``, ``read_csv``, ``read_json``), ``arrow`` when they reach it
    through Python."""
    from calcite_bridge import _duckdb

    seen: list[str] = []
    original = _duckdb.run

    def run(sql: str, scans: list[Any], *rest: Any, **kw: Any) -> Any:
        seen.extend("files" if isinstance(s, _duckdb.Query) else "arrow" for s in scans)
        return original(sql, scans, *rest, **kw)

    _duckdb.run = run  # type: ignore[assignment]
    return seen


def _measure(
    env: Any,
    con: Any,
    label: str,
    ours_sql: str,
    duck_sql: str,
    backends: tuple[str, ...],
    repeat: int,
    peer_name: str,
    notes: str,
    seen: list[str],
) -> Iterator[dict[str, Any]]:
    expected = _rows(as_table(con.sql(duck_sql).arrow()))
    import calcite_bridge as cb

    for backend in backends:
        seen.clear()
        try:
            got = _rows(env.sql(ours_sql, backend=backend).to_arrow_table())
        except cb.UnsupportedError as e:
            reason = str(e).splitlines()[0]
            yield record(
                f"files_{label}[{backend}]", {}, None, None, "ms", None, None, f"{notes}; {reason}"
            )
            continue
        read = "/".join(sorted(set(seen))) or "no DuckDB"
        assert got == expected, (label, backend, got[:5], expected[:5])
        plan = env.explain(ours_sql, backend=backend).splitlines()
        ours, peer = interleaved(
            lambda q=ours_sql, b=backend: env.sql(q, backend=b).to_arrow_table(),
            lambda q=duck_sql: as_table(con.sql(q).arrow()),
            repeat,
        )
        ratio = ours["median_ms"] / peer["median_ms"]
        gated = backend != "enumerable"
        yield record(
            f"files_{label}[{backend}]",
            ours,
            {"name": f"{duck_version()} {peer_name}", **peer},
            ratio,
            "ms",
            f"<= {TARGET_RATIO}x DuckDB alone" if gated else None,
            ratio <= TARGET_RATIO if gated else None,
            f"{notes}; {len(expected)} result rows; plan root "
            f"{plan[0].strip().split('(')[0]}; scans read by {read}; "
            f"median of {repeat} after 1 warm-up, run in turn with DuckDB's",
        )


def run(
    rows: int = 2_000_000,
    repeat: int = 7,
    only: list[str] | None = None,
    quick: bool = False,
    formats: tuple[str, ...] = ("parquet", "csv", "json"),
    backends: tuple[str, ...] = BACKENDS,
) -> Iterator[dict[str, Any]]:
    if quick:
        rows, repeat = min(rows, 200_000), min(repeat, 3)
    import duckdb

    tmp = Path(tempfile.mkdtemp(prefix="cb-bench-files-"))
    try:
        trips, zones = write_files(tmp, rows)
        files = sorted(str(p) for p in trips.iterdir())
        listed = "[" + ", ".join(f"'{f}'" for f in files) + "]"
        con = duckdb.connect()
        seen = _watch_scans()
        if "parquet" in formats:
            env = started_env()
            env.execute(
                "CREATE TABLE trips (id BIGINT, pickup TIMESTAMP(6), dropoff TIMESTAMP(6), "
                "loc ROW<zone STRING, borough STRING>, tags ARRAY<STRING>, fare DOUBLE, "
                "passengers INT, fname STRING METADATA FROM 'file.name' VIRTUAL) "
                f"WITH ('connector' = 'filesystem', 'path' = '{trips}', 'format' = 'parquet')"
            )
            env.execute(
                "CREATE TABLE zones (borough STRING, region STRING) "
                f"WITH ('connector' = 'filesystem', 'path' = '{zones}', 'format' = 'parquet')"
            )
            for name, (ours_sql, duck_template) in QUERIES.items():
                if only and name not in only:
                    continue
                duck_sql = duck_template.format(
                    trips=f"read_parquet({listed})",
                    zones=f"read_parquet('{zones}')",
                    files=listed,
                )
                yield from _measure(
                    env,
                    con,
                    name,
                    ours_sql,
                    duck_sql,
                    backends,
                    repeat,
                    "read_parquet",
                    f"{rows} rows in 4 Parquet files",
                    seen,
                )
            env.close()
        for fmt in (f for f in ("csv", "json") if f in formats):
            for count in (1, 4):
                path = write_flat(tmp, trips, fmt, count)
                flat = sorted(str(p) for p in path.iterdir())
                names = "[" + ", ".join(f"'{f}'" for f in flat) + "]"
                reader = f"read_{fmt}({names})"
                env = started_env()
                env.execute(FLAT_DDL.format(path=path, fmt=fmt))
                env.execute(
                    "CREATE TABLE zones (borough STRING, region STRING) WITH ('connector' = "
                    f"'filesystem', 'path' = '{zones}', 'format' = 'parquet')"
                )
                for name, (ours_sql, duck_template) in FLAT_QUERIES.items():
                    if only and name not in only:
                        continue
                    duck_sql = duck_template.format(trips=reader, zones=f"read_parquet('{zones}')")
                    yield from _measure(
                        env,
                        con,
                        f"{fmt}{count}_{name}",
                        ours_sql,
                        duck_sql,
                        ("auto",),
                        repeat,
                        f"read_{fmt}",
                        f"{rows} rows in {count} {fmt.upper()} file{'s' if count > 1 else ''}",
                        seen,
                    )
                env.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--formats", default="parquet,csv,json")
    parser.add_argument(
        "--backends",
        default=",".join(BACKENDS),
        help="the Parquet queries' backends (a large --rows is slow on enumerable)",
    )
    parser.add_argument("queries", nargs="*", help="only these queries (default: every one)")
    args = parser.parse_args()
    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    backends = tuple(b.strip() for b in args.backends.split(",") if b.strip())
    for rec in run(args.rows, args.repeat, args.queries, formats=formats, backends=backends):
        emit(rec)


if __name__ == "__main__":
    main()
