"""Everyday analytics over Parquet files through the filesystem connector, against DuckDB alone.

Taxi-like trips in 4 Parquet files (2 M rows by default): a nested ``loc ROW<zone, borough>``,
an ``ARRAY<STRING>`` of tags, NULLs in both and in the fare, microsecond timestamps, and a
small dimension table of boroughs. Each query runs on ``enumerable``, ``duckdb`` and ``auto``
and, in the same run, on DuckDB alone reading the same files with ``read_parquet``; every
backend must return the peer's rows (compared as sorted lists of rows).

    .venv/bin/python bench/files_workload.py [--rows N] [--repeat R] [query ...]
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _common import BACKENDS, as_table, duck_version, emit, record, started_env

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
}


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
    times: tuple[list[float], list[float]] = ([], [])
    ours()
    peer()
    for _ in range(repeat):
        for fn, out in ((ours, times[0]), (peer, times[1])):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    return tuple(  # type: ignore[return-value]
        {
            "median_ms": round(statistics.median(t) * 1e3, 3),
            "min_ms": round(min(t) * 1e3, 3),
            "max_ms": round(max(t) * 1e3, 3),
            "runs": repeat,
        }
        for t in times
    )


def _watch_scans() -> list[str]:
    """Records how each scan of a statement on DuckDB is read: ``read_parquet`` when DuckDB reads
    the files itself, ``arrow`` when they reach it through Python."""
    from calcite_bridge import _duckdb

    seen: list[str] = []
    original = _duckdb.run

    def run(sql: str, scans: list[Any], *rest: Any, **kw: Any) -> Any:
        seen.extend("read_parquet" if isinstance(s, _duckdb.Query) else "arrow" for s in scans)
        return original(sql, scans, *rest, **kw)

    _duckdb.run = run  # type: ignore[assignment]
    return seen


def run(
    rows: int = 2_000_000, repeat: int = 7, only: list[str] | None = None, quick: bool = False
) -> Iterator[dict[str, Any]]:
    if quick:
        rows, repeat = min(rows, 200_000), min(repeat, 3)
    import duckdb

    tmp = Path(tempfile.mkdtemp(prefix="cb-bench-files-"))
    try:
        trips, zones = write_files(tmp, rows)
        files = sorted(str(p) for p in trips.iterdir())
        listed = "[" + ", ".join(f"'{f}'" for f in files) + "]"
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
        con = duckdb.connect()
        seen = _watch_scans()
        for name, (ours_sql, duck_template) in QUERIES.items():
            if only and name not in only:
                continue
            duck_sql = duck_template.format(
                trips=f"read_parquet({listed})", zones=f"read_parquet('{zones}')", files=listed
            )
            expected = _rows(as_table(con.sql(duck_sql).arrow()))
            for backend in BACKENDS:
                seen.clear()
                got = _rows(env.sql(ours_sql, backend=backend).to_arrow_table())
                read = "/".join(sorted(set(seen))) or "no DuckDB"
                assert got == expected, (name, backend, got[:5], expected[:5])
                plan = env.explain(ours_sql, backend=backend).splitlines()
                ours, peer = interleaved(
                    lambda q=ours_sql, b=backend: env.sql(q, backend=b).to_arrow_table(),
                    lambda q=duck_sql: as_table(con.sql(q).arrow()),
                    repeat,
                )
                ratio = ours["median_ms"] / peer["median_ms"]
                gated = backend != "enumerable"
                yield record(
                    f"files_{name}[{backend}]",
                    ours,
                    {"name": f"{duck_version()} read_parquet", **peer},
                    ratio,
                    "ms",
                    f"<= {TARGET_RATIO}x DuckDB alone" if gated else None,
                    ratio <= TARGET_RATIO if gated else None,
                    f"{rows} rows in 4 Parquet files; {len(expected)} result rows; plan root "
                    f"{plan[0].strip().split('(')[0]}; scans read by {read}; "
                    f"median of {repeat} after 1 warm-up, run in turn with DuckDB's",
                )
        env.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("queries", nargs="*", help="only these queries (default: every one)")
    args = parser.parse_args()
    for rec in run(args.rows, args.repeat, args.queries):
        emit(rec)


if __name__ == "__main__":
    main()
