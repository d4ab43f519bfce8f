-- ROW values chosen by conditional expressions (format: see string.sql). PyFlink's client cannot
-- read some ROW results ("EOFError: Ran out of input"), so most cases read the ROW as its text.

-- function: CASE
SELECT CAST(CASE WHEN a IS NULL THEN NULL ELSE ROW(a, s) END AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT CAST(CASE WHEN a > 1 THEN ROW(a, s) ELSE ROW(0, 'none') END AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT CAST(CASE WHEN a = 1 THEN ROW(a, 'one') WHEN a = 3 THEN ROW(a, 'three') END AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT (CASE WHEN a > 1 THEN ROW(a, s) ELSE ROW(0, 'none') END).EXPR$1 FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT CAST(CASE WHEN a > 1 THEN ROW(a, s) END AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT CAST(CASE WHEN a IS NULL THEN CAST(NULL AS ROW<n INT, t STRING>) ELSE CAST(ROW(a, s) AS ROW<n INT, t STRING>) END AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y')) AS t(a, s)
SELECT CASE WHEN a > 1 THEN CAST(ROW(a, s) AS ROW<n INT, t STRING>) END IS NULL FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT CAST(CASE WHEN a > 1 THEN ROW(a, ROW(s, a)) ELSE ROW(0, ROW('none', 0)) END AS STRING) FROM (VALUES (1, 'x'), (3, CAST(NULL AS STRING))) AS t(a, s)
SELECT (CASE WHEN a > 1 THEN ROW(a, ROW(s, a)) ELSE ROW(0, ROW('none', 0)) END).EXPR$1.EXPR$0 FROM (VALUES (1, 'x'), (3, CAST(NULL AS STRING))) AS t(a, s)

-- function: IF
SELECT IF(a > 1, ROW(a, s), ROW(0, 'none')) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)

-- function: COALESCE
SELECT CAST(COALESCE(CASE WHEN a > 1 THEN ROW(a, s) END, ROW(9, 'z')) AS STRING) FROM (VALUES (1, 'x'), (CAST(NULL AS INT), 'y'), (3, CAST(NULL AS STRING))) AS t(a, s)
