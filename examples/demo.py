"""An end-to-end tour: DDL, INSERT, nested access, computed columns, EXPLAIN, Arrow out."""

import time

import pyarrow as pa

import calcite_bridge as cb

t0 = time.perf_counter()
env = cb.connect()
env.execute(
    """CREATE TABLE emp (
         id INT NOT NULL, name STRING, salary DOUBLE,
         addr ROW<city STRING, zip INT>, tags ARRAY<STRING>, props MAP<STRING, STRING>,
         bonus AS salary * 0.1,
         inserted TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL
       ) WITH ('connector' = 'memory')"""
)
env.execute(
    """INSERT INTO emp (id, name, salary, addr, tags, props) VALUES
         (1, 'ann', 100.0, ROW('Paris', 75), ARRAY['a', 'b'], MAP['level', 'senior']),
         (2, 'bob', 40.0, ROW('Lyon', 69), ARRAY['c'], MAP['level', 'junior']),
         (3, 'cy', 80.0, NULL, NULL, NULL)"""
)
started = time.perf_counter() - t0

sql = (
    "SELECT name, addr.city, bonus, props['level'] AS level FROM emp WHERE salary > 50 ORDER BY id"
)
table = env.sql(sql).to_arrow_table()
print(sql)
for row in table.to_pylist():
    print("  ", row)
print()
print("Result schema:", env.validate(sql))
print()
print(env.explain(sql))
print()
dept = pa.table({"city": ["Paris", "Lyon"], "country": ["FR", "FR"]})
env.register_arrow("cities", dept)
print(
    env.sql(
        "SELECT c.country, COUNT(*) AS n, SUM(e.salary) AS total "
        "FROM emp e JOIN cities c ON e.addr.city = c.city GROUP BY c.country"
    ).fetchall()
)
try:
    env.sql("SELECT nme FROM emp")
except cb.SqlValidationError as e:
    print()
    print(e)
print(f"\nstart-up and first statements: {started:.2f} s")
# Arrow results live in JVM memory; drop them before the interpreter (and the JVM) exits.
del table
env.close()
