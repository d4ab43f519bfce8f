-- Flink's JSON functions. `-- function: NAME` starts a function's cases; see string.sql for the
-- format.

-- function: JSON_STRING
JSON_STRING(1)
JSON_STRING(1.5)
JSON_STRING(TRUE)
JSON_STRING('Hello, "World"')
JSON_STRING(ARRAY[1, 2])
JSON_STRING(CAST(NULL AS INT))
JSON_STRING(DATE '2023-11-14')
SELECT JSON_STRING(x) FROM (VALUES ('a'), (CAST(NULL AS STRING)), ('')) AS t(x)

-- function: IS_JSON
'{"a": 1}' IS JSON
'[1, 2]' IS JSON
'nope' IS JSON
'1' IS JSON SCALAR
'{"a": 1}' IS JSON OBJECT
'{"a": 1}' IS JSON ARRAY
'[1]' IS JSON ARRAY
CAST(NULL AS STRING) IS JSON
SELECT s IS JSON FROM (VALUES ('{}'), ('{'), (CAST(NULL AS STRING))) AS t(s)

-- function: JSON_EXISTS
JSON_EXISTS('{"a": true}', '$.a')
JSON_EXISTS('{"a": true}', '$.b')
JSON_EXISTS('{"a": [1, 2]}', '$.a[1]')
JSON_EXISTS(CAST(NULL AS STRING), '$.a')

-- function: JSON_VALUE
JSON_VALUE('{"a": "x"}', '$.a')
JSON_VALUE('{"a": 1}', '$.a')
JSON_VALUE('{"a": 1}', '$.a' RETURNING INT)
JSON_VALUE('{"a": 1}', '$.b')
JSON_VALUE('{"a": 1}', '$.b' DEFAULT 'none' ON EMPTY)
JSON_VALUE('{"a": [1, 2]}', '$.a')
JSON_VALUE(CAST(NULL AS STRING), '$.a')
JSON_VALUE('not json', '$.a')
SELECT JSON_VALUE(j, '$.k') FROM (VALUES ('{"k": "v"}'), ('{}'), (CAST(NULL AS STRING))) AS t(j)

-- function: JSON_QUERY
JSON_QUERY('{"a": {"b": 1}}', '$.a')
JSON_QUERY('{"a": [1, 2]}', '$.a')
JSON_QUERY('{"a": 1}', '$.a')
JSON_QUERY('{"a": [1, 2]}', '$.a' WITH WRAPPER)
JSON_QUERY('{"a": 1}', '$.a' WITH CONDITIONAL WRAPPER)
JSON_QUERY(CAST(NULL AS STRING), '$.a')

-- function: JSON_OBJECT
JSON_OBJECT('a' VALUE 1, 'b' VALUE 'x')
JSON_OBJECT()
JSON_OBJECT('a' VALUE CAST(NULL AS STRING))
JSON_OBJECT('a' VALUE CAST(NULL AS STRING) ABSENT ON NULL)
JSON_OBJECT('a' VALUE ARRAY[1, 2])
JSON_OBJECT('a' VALUE JSON_OBJECT('b' VALUE TRUE))

-- function: JSON_ARRAY
JSON_ARRAY(1, 'a', TRUE)
JSON_ARRAY()
JSON_ARRAY(1, CAST(NULL AS INT))
JSON_ARRAY(1, CAST(NULL AS INT) NULL ON NULL)
JSON_ARRAY(JSON_ARRAY(1))

-- function: JSON
JSON_OBJECT('a' VALUE JSON('{"b": 1}'))
