-- Edge cases of Flink's JSON functions: NULL in each position, invalid JSON, empty documents,
-- unicode and escapes, deep and out-of-range paths, numbers at the limits, ON EMPTY / ON ERROR
-- clauses, RETURNING types, and column inputs from VALUES.

-- function: JSON_VALUE
JSON_VALUE('{}', '$')
JSON_VALUE('', '$.a')
JSON_VALUE('{"a": null}', '$.a')
JSON_VALUE('{"a": "中😀"}', '$.a')
JSON_VALUE('{"a": "\u00e9"}', '$.a')
JSON_VALUE('{"a": {"b": {"c": "deep"}}}', '$.a.b.c')
JSON_VALUE('{"a": [1, 2, 3]}', '$.a[2]')
JSON_VALUE('{"a": [1, 2, 3]}', '$.a[5]')
JSON_VALUE('{"a": true}', '$.a')
JSON_VALUE('{"a": true}', '$.a' RETURNING BOOLEAN)
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING DOUBLE)
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING INT)
JSON_VALUE('{"a": "x"}', '$.a' RETURNING INT)
JSON_VALUE('{"a": "x"}', '$.a' RETURNING INT DEFAULT -1 ON ERROR)
JSON_VALUE('{"a": 12345678901234567890}', '$.a')
JSON_VALUE('{"a": 1e400}', '$.a')
JSON_VALUE('{"a": {"b": 1}}', '$.a')
JSON_VALUE('{"a": 1}', '$.b' ERROR ON EMPTY)
JSON_VALUE('{"a": 1}', 'lax $.a')
JSON_VALUE('{"a": 1}', 'strict $.b')
JSON_VALUE('{"a b": 1}', '$."a b"')
JSON_VALUE('{"a": 1}', CAST(NULL AS STRING))
JSON_VALUE('[1, 2]', '$[0]')
JSON_VALUE('{"a": "2024-02-29"}', '$.a' RETURNING DATE)
SELECT JSON_VALUE(j, p) FROM (VALUES ('{"a": 1}', '$.a'), ('{"a": 1}', '$.b'), ('[]', '$[0]'), ('bad', '$.a'), (CAST(NULL AS STRING), '$.a')) AS t(j, p)
JSON_VALUE('{"a": 1}', '$.a' RETURNING DOUBLE)
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING BIGINT)
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING DECIMAL(3, 1))
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING FLOAT)
JSON_VALUE('{"a": 1.5}', '$.a' RETURNING BOOLEAN)
JSON_VALUE('{"a": -0.0}', '$.a')
JSON_VALUE('{"a": 0.0000001}', '$.a')
JSON_VALUE('[1.5e3, 2]', '$[0]')
JSON_VALUE('{"a": 1.50}', 'lax $.a')
JSON_VALUE('{"a": "x"}', 'lax $.b' DEFAULT 'none' ON EMPTY)
JSON_VALUE('{"a": "x"}', 'strict $.b' DEFAULT 'none' ON ERROR)
JSON_VALUE('{"a": [1.5]}', 'strict $.a' DEFAULT 'arr' ON ERROR)
JSON_VALUE('{"a": 2.50}', '$.a' RETURNING STRING DEFAULT 'd' ON ERROR)
JSON_VALUE('{"a": 2.50}', '$.b' RETURNING DOUBLE)
SELECT JSON_VALUE(j, '$.a' RETURNING DOUBLE) FROM (VALUES ('{"a": 2.50}'), ('{"a": -1e400}'), ('{}'), (CAST(NULL AS STRING))) AS t(j)
SELECT JSON_VALUE(j, '$.a') FROM (VALUES ('{"a": 1.0}'), ('{"a": 7}'), ('{"a": 1E-7}'), ('{"a": true}')) AS t(j)
JSON_VALUE('{"a": "x"}', 'strict $.b' RETURNING DOUBLE DEFAULT 0.5 ON ERROR)
JSON_VALUE('{"a": 1}', 'lax $.b' RETURNING DOUBLE DEFAULT 7 ON EMPTY)
JSON_VALUE('{"a": 1}', 'lax $.b' RETURNING INT DEFAULT 7 ON EMPTY)
JSON_VALUE('{"a": 1.25}', '$.a' RETURNING VARCHAR(3))
JSON_VALUE('{"a": 1}', '$.a' RETURNING CHAR(3))
JSON_VALUE('{"a": 1}', '$.a' RETURNING TINYINT)
SELECT JSON_VALUE(j, '$.a' RETURNING INT) FROM (VALUES ('{"a": 3}'), ('{}'), (CAST(NULL AS STRING))) AS t(j)

-- function: JSON_QUERY
JSON_QUERY('{}', '$')
JSON_QUERY('[]', '$')
JSON_QUERY('{"a": null}', '$.a')
JSON_QUERY('{"a": "x"}', '$.a')
JSON_QUERY('{"a": "x"}', '$.a' WITH WRAPPER)
JSON_QUERY('{"a": [1, {"b": 2}]}', '$.a[1]')
JSON_QUERY('{"a": {"b": "中"}}', '$.a')
JSON_QUERY('bad', '$.a')
JSON_QUERY('{"a": 1}', '$.b')
JSON_QUERY('{"a": 1}', '$.b' EMPTY ARRAY ON EMPTY)
JSON_QUERY('{"a": 1}', '$.b' EMPTY OBJECT ON EMPTY)
JSON_QUERY('{"a": [1, 2]}', '$.a' WITHOUT WRAPPER)
JSON_QUERY('{"a": [1, 2]}', '$.a[*]' WITH WRAPPER)
JSON_QUERY('{"a": 1}', '$' RETURNING ARRAY<STRING>)
SELECT JSON_QUERY(j, '$.k') FROM (VALUES ('{"k": [1]}'), ('{"k": 1}'), ('{}'), (CAST(NULL AS STRING))) AS t(j)
JSON_QUERY('{"b": 1, "a": [1.50, 1e400]}', '$')
JSON_QUERY('{"a": [1.50, -0.0, 1e2]}', '$.a')
JSON_QUERY('{"a": 1.50}', '$.a' WITH WRAPPER)
JSON_QUERY('{"z": {"y": 1, "x": 2}, "a": 0}', '$')
JSON_QUERY('[1.50, 2e3]', '$' RETURNING ARRAY<STRING>)
SELECT JSON_QUERY(j, '$.k') FROM (VALUES ('{"k": [0.10]}'), ('{"k": {"b": 1e-400, "a": 2}}'), (CAST(NULL AS STRING))) AS t(j)

-- function: JSON_EXISTS
JSON_EXISTS('{}', '$')
JSON_EXISTS('{"a": null}', '$.a')
JSON_EXISTS('bad', '$.a')
JSON_EXISTS('{"a": [1]}', '$.a[3]')
JSON_EXISTS('{"a": 1}', 'strict $.b')
JSON_EXISTS('{"a": 1}', 'strict $.b' FALSE ON ERROR)
JSON_EXISTS('{"a": 1}', '$.a' TRUE ON ERROR)
JSON_EXISTS('', '$')
SELECT JSON_EXISTS(j, '$.a') FROM (VALUES ('{"a": 0}'), ('{"b": 0}'), ('nope'), (CAST(NULL AS STRING))) AS t(j)
JSON_EXISTS('{"a": 1e400}', '$.a')

-- function: JSON_STRING
JSON_STRING('')
JSON_STRING('中😀')
JSON_STRING(CAST('NaN' AS DOUBLE))
JSON_STRING(CAST(-0.0 AS DOUBLE))
JSON_STRING(CAST('12345678901234567890.123456789' AS DECIMAL(38, 9)))
JSON_STRING(ARRAY[CAST(NULL AS INT)])
JSON_STRING(ARRAY['a', CAST(NULL AS STRING)])

-- function: JSON_OBJECT
JSON_OBJECT('' VALUE 1)
JSON_OBJECT('a' VALUE 1, 'a' VALUE 2)
JSON_OBJECT('k' VALUE '中😀"')
JSON_OBJECT('k' VALUE CAST(1.50 AS DECIMAL(4, 2)))
JSON_OBJECT('k' VALUE CAST('NaN' AS DOUBLE))
JSON_OBJECT('k' VALUE DATE '2024-02-29')
JSON_OBJECT('k' VALUE TIMESTAMP '2024-02-29 10:00:00.123')
JSON_OBJECT('k' VALUE MAP['a', 1])
SELECT JSON_OBJECT('v' VALUE v) FROM (VALUES (1), (CAST(NULL AS INT))) AS t(v)
JSON_OBJECT('k' VALUE JSON('{"b": 1.50, "a": 1e400}'))
JSON_OBJECT('b' VALUE 1, 'a' VALUE 2)
JSON_OBJECT('k' VALUE MAP['b', 1, 'a', 2])

-- function: JSON_ARRAY
JSON_ARRAY('中', '"q"')
JSON_ARRAY(CAST(NULL AS INT) ABSENT ON NULL)
JSON_ARRAY(1.50, CAST(2 AS DOUBLE))
JSON_ARRAY(ARRAY[1, 2], MAP['k', 'v'])
SELECT JSON_ARRAY(v) FROM (VALUES ('a'), (CAST(NULL AS STRING))) AS t(v)
JSON_ARRAY(JSON('[1.50, 1e2]'))
JSON_ARRAY(MAP['b', 1, 'a', 2], JSON('{"d": 0.50, "c": 1}'))

-- function: IS_JSON
'' IS JSON
'null' IS JSON
'null' IS JSON SCALAR
'"x"' IS JSON VALUE
'{"a": 1,}' IS JSON
'[1, 2' IS JSON ARRAY
'{}' IS NOT JSON

-- function: JSON_QUOTE
JSON_QUOTE('tab	x')
JSON_QUOTE('😀')
JSON_QUOTE('<>&''')

-- function: JSON_UNQUOTE
JSON_UNQUOTE('"\\ud83d\\ude00"')
JSON_UNQUOTE('""')
JSON_UNQUOTE('"a\\tb"')
JSON_UNQUOTE('123')

-- function: JSON_ARRAYAGG
SELECT JSON_ARRAYAGG(v) FROM (VALUES (CAST(NULL AS INT))) AS t(v)
SELECT JSON_ARRAYAGG(v) FROM (VALUES ('中'), ('"')) AS t(v)

-- function: JSON_OBJECTAGG
SELECT JSON_OBJECTAGG(k VALUE v) FROM (VALUES ('a', 1), ('a', 2)) AS t(k, v)
SELECT JSON_OBJECTAGG(k VALUE v) FROM (VALUES ('b', 1), ('a', 2)) AS t(k, v)
