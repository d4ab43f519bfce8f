-- DECIMAL expressions the planner folds to a constant, each next to the same expression over a
-- VALUES column, which is computed while the query runs: both round as Flink does (format: see
-- string.sql).

-- function: CAST
CAST(1.005 AS DECIMAL(10, 2))
CAST(-1.005 AS DECIMAL(10, 2))
CAST(2.5 AS DECIMAL(2, 0))
CAST(CAST(NULL AS DECIMAL(4, 3)) AS DECIMAL(10, 2))
SELECT CAST(x AS DECIMAL(10, 2)), CAST(-x AS DECIMAL(10, 2)) FROM (VALUES (1.005)) AS t(x)
SELECT CAST(x AS DECIMAL(2, 0)) FROM (VALUES (2.5), (CAST(NULL AS DECIMAL(2, 1)))) AS t(x)
CAST(2.0 / 3 AS DECIMAL(5, 3))
SELECT CAST(x / 3 AS DECIMAL(5, 3)) FROM (VALUES (2.0)) AS t(x)

-- function: DIVIDE
2.0 / 3
10.0 / 7
SELECT a / b, x / 3 FROM (VALUES (CAST(1 AS DECIMAL(10, 2)), CAST(3 AS DECIMAL(10, 2)), 2.0)) AS t(a, b, x)
2.0 / 3 * 3
SELECT x / 3 * 3 FROM (VALUES (2.0), (CAST(NULL AS DECIMAL(2, 1)))) AS t(x)

-- function: ROUND
ROUND(2.675, 2)
ROUND(-2.5, 0)
SELECT ROUND(x, 2), ROUND(y, 0) FROM (VALUES (2.675, -2.5)) AS t(x, y)

-- function: TIMES
1.15 * 1.15
SELECT x * x FROM (VALUES (1.15), (CAST(NULL AS DECIMAL(3, 2)))) AS t(x)
