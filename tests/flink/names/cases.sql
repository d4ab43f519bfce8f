-- The column names of a query's result, as Flink names them. Tables: l(a INT, b INT) and
-- r(a INT, c INT), one row each. One query a line; tools/flink_names.py writes Flink's names to
-- golden.tsv, and tests/test_output_names.py checks them on every backend.
SELECT a, a FROM l
SELECT b, a, a FROM l
SELECT a, a, a, a0 FROM (SELECT a, a AS a0 FROM l)
SELECT a AS x, b AS x FROM l
SELECT a AS A, a FROM l
SELECT * FROM l JOIN r ON l.a = r.a
SELECT l.a, r.a FROM l JOIN r ON l.a = r.a
SELECT l.*, r.a, l.a FROM l JOIN r ON l.a = r.a
SELECT 1, 2, a + 1 FROM l
SELECT 1, * FROM l
SELECT EXPR$0, 1 FROM (SELECT 1)
SELECT a, a, COUNT(*) FROM l GROUP BY a
SELECT a, COUNT(*), a FROM l GROUP BY a
SELECT a, a FROM l UNION ALL SELECT b, b FROM l
SELECT a, a FROM l ORDER BY a
SELECT x.a, y.a, x.a FROM l AS x, l AS y
