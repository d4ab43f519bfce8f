-- Flink's PARSE_JSON and TRY_PARSE_JSON (a VARIANT), OBJECT_OF and OBJECT_UPDATE (format: see
-- string.sql). PyFlink cannot read back a VARIANT or a structured type, so each case gives its
-- type, a test for NULL, its JSON text or a field.

-- function: PARSE_JSON
TYPEOF(PARSE_JSON('{"a": 1}'))
TYPEOF(PARSE_JSON(CAST(NULL AS STRING)))
PARSE_JSON(CAST(NULL AS STRING)) IS NULL
PARSE_JSON('[1, 2]') IS NULL
JSON_STRING(PARSE_JSON('{"a": [1, 2.5, "x", null, true]}'))
JSON_STRING(PARSE_JSON('"text"'))
JSON_STRING(PARSE_JSON('null'))
JSON_STRING(PARSE_JSON('{"a": 1, "a": 2}', TRUE))
SELECT PARSE_JSON('{bad') IS NULL
SELECT PARSE_JSON('{"a": 1, "a": 2}') IS NULL
SELECT JSON_STRING(PARSE_JSON(s)) FROM (VALUES ('{"k": "v"}'), (CAST(NULL AS STRING)), ('12')) AS t(s)

-- function: TRY_PARSE_JSON
TYPEOF(TRY_PARSE_JSON('1'))
TRY_PARSE_JSON('{bad') IS NULL
TRY_PARSE_JSON('{"a": 1}') IS NULL
TRY_PARSE_JSON(CAST(NULL AS STRING)) IS NULL
TRY_PARSE_JSON('{"a": 1, "a": 2}') IS NULL
JSON_STRING(TRY_PARSE_JSON('[true, {"b": null}]'))
SELECT TRY_PARSE_JSON(s) IS NULL FROM (VALUES ('{"k": 1}'), ('nope'), (CAST(NULL AS STRING))) AS t(s)

-- function: OBJECT_OF
OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42).name
OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42).age
OBJECT_OF('com.example.User', 'name', CAST(NULL AS STRING)).name
TYPEOF(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42))
SELECT OBJECT_OF('com.example.User', 'n', x).n FROM (VALUES (1), (CAST(NULL AS INT))) AS t(x)
SELECT TYPEOF(OBJECT_OF('com.example.User', 'n', x)) FROM (VALUES (CAST(NULL AS INT))) AS t(x)
SELECT OBJECT_OF('com.example.User', 'n', x) IS NULL FROM (VALUES (1), (CAST(NULL AS INT))) AS t(x)
SELECT TYPEOF(CASE WHEN x > 0 THEN OBJECT_OF('com.example.User', 'n', x) END) FROM (VALUES (1)) AS t(x)
SELECT (CASE WHEN x > 0 THEN OBJECT_OF('com.example.User', 'n', x) END).n FROM (VALUES (1), (CAST(NULL AS INT))) AS t(x)

-- function: OBJECT_UPDATE
OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42), 'age', 43).age
OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42), 'age', 43).name
OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42), 'age', CAST(NULL AS INT)).age
SELECT OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob'), 'nope', 1).name
TYPEOF(OBJECT_UPDATE(OBJECT_OF('com.example.User', 'name', 'Bob', 'age', 42), 'age', CAST(NULL AS INT)))

-- function: JSON_STRING
JSON_STRING(TIME '22:13:20')
JSON_STRING(CAST(NULL AS DATE))
JSON_STRING(TIMESTAMP '2023-11-14 22:13:20')
JSON_STRING(X'41')
JSON_STRING(MAP['a', 1])
JSON_STRING(TIMESTAMP '2023-11-14 22:13:20.120')
JSON_STRING(CAST(TIMESTAMP '2023-11-14 22:13:20' AS TIMESTAMP_LTZ(3)))
SELECT JSON_STRING(t) FROM (VALUES (TIMESTAMP '1969-12-31 23:59:59.5'), (CAST(NULL AS TIMESTAMP(1)))) AS v(t)
