"""A script that ends while it still holds results of every kind: tables, an unread result, a
half-fetched one, the batches of a stream, a DuckDB result, and rows an INSERT wrote into a
Python source. Run by tests/test_exit.py, which
expects it to exit 0 and print nothing on stderr. Arguments: [GATEWAY TOKEN]."""

import sys

import pyarrow as pa

import calcite_bridge as cb


class Keeper:
    """A Python source that keeps the rows written to it."""

    def __init__(self) -> None:
        self.tables: list[pa.Table] = []

    def schema(self) -> pa.Schema:
        return pa.schema([("i", pa.int32()), ("s", pa.string())])

    def scan(self, request: object) -> pa.Table:
        return pa.concat_tables([self.schema().empty_table(), *self.tables])

    def write(self, table: pa.Table) -> None:
        self.tables.append(table)


kwargs = {"gateway": sys.argv[1], "token": sys.argv[2]} if len(sys.argv) > 2 else {}
env = cb.connect(**kwargs)
env.execute("CREATE TABLE m (i INT, s STRING) WITH ('connector' = 'memory')")
env.execute("INSERT INTO m VALUES (1, 'a'), (2, NULL), (3, 'c')")
keeper = Keeper()
env.register_source("kept", keeper)
env.execute("INSERT INTO kept SELECT i, s FROM m")
env.register_arrow("big", pa.table({"x": pa.array(range(200_000), pa.int64())}))

kept = env.sql("SELECT * FROM m", backend="enumerable").to_arrow_table()
columns = [kept.column(0), kept.column("s").chunk(0)]
unread = env.sql("SELECT i FROM m", backend="enumerable")
half = env.sql("SELECT x FROM big WHERE x % 2 = 0", backend="enumerable")
half.fetchone()
batches = list(env.sql("SELECT x, x + 1 AS y FROM big", backend="enumerable").to_arrow_reader())
# The DuckDB backend runs in the process that reads the results: not behind a gateway.
backend = "enumerable" if kwargs else "duckdb"
frame = env.sql("SELECT COUNT(*) AS n FROM m", backend=backend).to_arrow_table()
assert sum(t.num_rows for t in keeper.tables) == 3
print("ok", kept.num_rows, sum(b.num_rows for b in batches), frame.column(0)[0].as_py())
