-- Flink's process table functions and model calls. In batch mode Flink 2.3 plans neither
-- TO_CHANGELOG nor FROM_CHANGELOG ("Cannot generate a valid execution plan"); here they are refused
-- as streaming only. ML_PREDICT calls a model of CREATE MODEL, which does not exist here.

-- function: TO_CHANGELOG
WITH t AS (SELECT * FROM (VALUES (1, 'a'), (2, CAST(NULL AS STRING))) AS v(k, s)) SELECT * FROM TO_CHANGELOG(input => TABLE t)
WITH t AS (SELECT * FROM (VALUES (1, 'a')) AS v(k, s)) SELECT * FROM TO_CHANGELOG(TABLE t)
SELECT TO_CHANGELOG(1)

-- function: FROM_CHANGELOG
WITH t AS (SELECT * FROM (VALUES ('INSERT', 1, 'a')) AS v(op, k, s)) SELECT * FROM FROM_CHANGELOG(input => TABLE t)
WITH t AS (SELECT * FROM (VALUES ('INSERT', 1, 'a'), ('DELETE', 1, 'a')) AS v(op, k, s)) SELECT * FROM FROM_CHANGELOG(input => TABLE t PARTITION BY k)

-- function: ML_PREDICT
WITH t AS (SELECT * FROM (VALUES (1, 'a')) AS v(k, s)) SELECT * FROM ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(s))
SELECT ML_PREDICT(1)
