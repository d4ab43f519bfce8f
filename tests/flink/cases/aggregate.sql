-- Flink's aggregate and window functions (format: see string.sql). Each case is a whole query
-- over VALUES; a query of several rows orders them.

-- function: FIRST_VALUE
SELECT FIRST_VALUE(x) FROM (VALUES (1), (2), (3)) AS t(x)
SELECT FIRST_VALUE(x) FROM (VALUES (CAST(NULL AS INT)), (2), (3)) AS t(x)
SELECT FIRST_VALUE(s) FROM (VALUES ('a'), ('b')) AS t(s)
SELECT FIRST_VALUE(x) FROM (VALUES (CAST(NULL AS BIGINT))) AS t(x)
SELECT k, FIRST_VALUE(x) FROM (VALUES (1, 10), (1, 20), (2, CAST(NULL AS INT))) AS t(k, x) GROUP BY k ORDER BY k

-- function: LAST_VALUE
SELECT LAST_VALUE(x) FROM (VALUES (1), (2), (3)) AS t(x)
SELECT LAST_VALUE(x) FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(x)
SELECT LAST_VALUE(d) FROM (VALUES (1.5), (2.25)) AS t(d)
SELECT k, LAST_VALUE(x) FROM (VALUES (1, 10), (1, 20), (2, CAST(NULL AS INT))) AS t(k, x) GROUP BY k ORDER BY k

-- function: LAG
SELECT x, LAG(x) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) AS t(x) ORDER BY x
SELECT x, LAG(x, 2, 0) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) AS t(x) ORDER BY x

-- function: LEAD
SELECT x, LEAD(x) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) AS t(x) ORDER BY x
SELECT x, LEAD(x, 1, -1) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) AS t(x) ORDER BY x

-- function: CUME_DIST
SELECT x, CUME_DIST() OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3)) AS t(x) ORDER BY x
SELECT k, x, CUME_DIST() OVER (PARTITION BY k ORDER BY x) FROM (VALUES (1, 1), (1, 2), (2, 5)) AS t(k, x) ORDER BY k, x

-- function: PERCENT_RANK
SELECT x, PERCENT_RANK() OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3)) AS t(x) ORDER BY x
SELECT k, x, PERCENT_RANK() OVER (PARTITION BY k ORDER BY x) FROM (VALUES (1, 1), (1, 2), (2, 5)) AS t(k, x) ORDER BY k, x

-- function: COUNT
SELECT COUNT(*), COUNT(x) FROM (VALUES (1), (CAST(NULL AS INT))) AS t(x)
SELECT COUNT(DISTINCT x) FROM (VALUES (1), (1), (2)) AS t(x)

-- function: SUM
SELECT SUM(x) FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(x)
SELECT SUM(x) FROM (VALUES (CAST(NULL AS INT))) AS t(x)
SELECT SUM(d), COUNT(d) FROM (VALUES (1.5), (2.25)) AS t(d)

-- function: AVG
SELECT AVG(x) FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(x)
SELECT AVG(d) FROM (VALUES (1.0E0), (2.0E0)) AS t(d)

-- function: MIN
SELECT MIN(x), MIN(s) FROM (VALUES (3, 'b'), (1, 'a'), (CAST(NULL AS INT), CAST(NULL AS STRING))) AS t(x, s)

-- function: MAX
SELECT MAX(x), MAX(s) FROM (VALUES (3, 'b'), (1, 'a'), (CAST(NULL AS INT), CAST(NULL AS STRING))) AS t(x, s)

-- function: LISTAGG
SELECT LISTAGG(s) FROM (VALUES ('a'), ('b')) AS t(s)
SELECT LISTAGG(s, '-') FROM (VALUES ('a'), (CAST(NULL AS STRING)), ('b')) AS t(s)

-- function: STDDEV_POP
SELECT STDDEV_POP(x) FROM (VALUES (1.0E0), (3.0E0)) AS t(x)

-- function: STDDEV_SAMP
SELECT STDDEV_SAMP(x) FROM (VALUES (1.0E0), (3.0E0)) AS t(x)

-- function: VAR_POP
SELECT VAR_POP(x) FROM (VALUES (1.0E0), (3.0E0)) AS t(x)

-- function: VAR_SAMP
SELECT VAR_SAMP(x) FROM (VALUES (1.0E0), (3.0E0)) AS t(x)
