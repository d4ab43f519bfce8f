"""The same DDL and SQL on Apache Spark (local[1]): Parquet and CSV files read by Spark itself,
a hidden file metadata column, columns the DDL does not declare discovered from the Parquet
files, MariaDB's COLUMN_GET over a column of dynamic-column blobs, and the nested filter Spark
pushes into its Parquet reader."""

import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import calcite_bridge as cb

folder = Path(tempfile.mkdtemp(prefix="calcite-bridge-demo-spark-"))

# Dynamic-column blobs (MariaDB's format), made by COLUMN_CREATE on Calcite's engine.
with cb.connect(backend="enumerable") as maker:
    blobs = [
        maker.sql(f"SELECT {blob}").fetchall()[0][0]
        for blob in (
            "COLUMN_CREATE('plan', 'gold', 'visits', 12)",
            "COLUMN_CREATE('plan', 'free')",
            "COLUMN_CREATE('visits', 3)",
            "CAST(NULL AS BYTES)",
        )
    ]

(folder / "users").mkdir()
users = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int64()),
        "user": pa.array(
            [
                {"name": "ann", "age": 25, "city": "Oslo"},
                {"name": "bob", "age": 35, "city": "Rome"},
                {"name": "cid", "age": None, "city": "Lima"},
                {"name": "dee", "age": 29, "city": "Oslo"},
            ],
            pa.struct([("name", pa.string()), ("age", pa.int32()), ("city", pa.string())]),
        ),
        # not in the DDL: found in the files when a query names them
        "score": pa.array([7, 3, None, 9], pa.int32()),
        "attrs": pa.array(blobs, pa.binary()),
    }
)
pq.write_table(users.slice(0, 2), folder / "users" / "part-0.parquet")
pq.write_table(users.slice(2), folder / "users" / "part-1.parquet")
(folder / "cities").mkdir()
(folder / "cities" / "cities.csv").write_text('city,country\nOslo,NO\nRome,IT\n"Lima",PE\n')

t0 = time.perf_counter()
env = cb.connect(
    backend="spark",
    config={
        "table.local-time-zone": "Europe/Oslo",
        # `*` leaves out metadata columns read from a key: `file` is hidden
        "table.column-expansion-strategy": "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS",
    },
)
# `...`: the columns the DDL does not list (score, attrs) are discovered from the Parquet files.
env.execute(
    f"""CREATE TABLE users (
          id BIGINT, `user` ROW<name STRING, age INT, city STRING>,
          file STRING METADATA FROM 'file.name' VIRTUAL,
          ...
        ) WITH ('connector' = 'filesystem', 'path' = '{folder / "users"}', 'format' = 'parquet')"""
)
env.execute(
    f"""CREATE TABLE cities (city STRING, country STRING)
        WITH ('connector' = 'filesystem', 'path' = '{folder / "cities"}', 'format' = 'csv')"""
)

print("SELECT * FROM users  -- `file` is hidden from *, and * shows declared columns only")
print("  ", env.sql("SELECT * FROM users").columns)
sql = (
    "SELECT u.id, u.`user`.name, u.file, u.score,"
    " COLUMN_GET(u.attrs, 'plan' AS CHAR) AS plan, c.country FROM users u "
    "JOIN cities c ON u.`user`.city = c.city WHERE u.`user`.age < 30 AND u.score > 5"
)
result = env.sql(sql)
print()
print(sql)
print("  ", result.columns)
for row in sorted(result.fetchall()):
    print("  ", row)
first = time.perf_counter() - t0

print()
print(env.explain(sql))
print(f"\nSpark's start and the first query: {first:.1f} s")
env.close()
