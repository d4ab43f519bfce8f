-- Functions called on table columns: every argument comes from the rows of a VALUES list
-- with a row of NULLs and edge values (empty strings, multi-byte characters, negative numbers,
-- zero, large values, spaces around text), so each function runs on Calcite's engine and on
-- each backend's translation rather than being folded by the planner.

-- function: SUBSTRING
SELECT id, SUBSTRING(s FROM n FOR p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, SUBSTRING(s FROM n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, SUBSTR(s, n, p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, SUBSTR(s, n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: LPAD
SELECT id, LPAD(s, p, '*✓') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, LPAD(s, n, 'ab') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: RPAD
SELECT id, RPAD(s, p, '*✓') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, RPAD(s, 8, s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: TRIM
SELECT id, TRIM(s), LTRIM(s), RTRIM(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, TRIM(BOTH 'l' FROM s), TRIM(LEADING 'h' FROM s), TRIM(TRAILING 'o' FROM s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, TRIM(BOTH d FROM s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: BTRIM
SELECT id, BTRIM(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, BTRIM(s, d) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: LTRIM
SELECT id, LTRIM(s, d), RTRIM(s, d) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: REPEAT
SELECT id, REPEAT(s, p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REPEAT(s, n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REPLACE
SELECT id, REPLACE(s, 'l', 'L✓') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REPLACE(s, '', 'x') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REPLACE(s, d, '') FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: REGEXP_REPLACE
SELECT id, REGEXP_REPLACE(s, '[lo]+', '#') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REGEXP_REPLACE(s, '^\s+|\s+$', '') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP_EXTRACT
SELECT id, REGEXP_EXTRACT(s, '([a-z]+)', 1) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REGEXP_EXTRACT(s, '(l+)(o)?', 2) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, REGEXP_EXTRACT(s, '(.)', p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP
SELECT id, REGEXP(s, 'l+') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP_COUNT
SELECT id, REGEXP_COUNT(s, 'l') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP_INSTR
SELECT id, REGEXP_INSTR(s, 'o') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP_SUBSTR
SELECT id, REGEXP_SUBSTR(s, '[A-Z][a-z]*') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REGEXP_EXTRACT_ALL
SELECT id, REGEXP_EXTRACT_ALL(s, '(l)') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: SPLIT_INDEX
SELECT id, SPLIT_INDEX(s, d, 0), SPLIT_INDEX(s, d, 2) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id
SELECT id, SPLIT_INDEX(s, ',', 3) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id
SELECT id, SPLIT_INDEX(s, ' ', p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: LOCATE
SELECT id, LOCATE('l', s), LOCATE('l', s, 4) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, LOCATE('', s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, LOCATE('o', s, n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: INSTR
SELECT id, INSTR(s, 'o') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, INSTR(s, d) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: POSITION
SELECT id, POSITION('l' IN s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, POSITION(d IN s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: LEFT
SELECT id, LEFT(s, p), RIGHT(s, p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, LEFT(s, n), RIGHT(s, n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: REVERSE
SELECT id, REVERSE(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: INITCAP
SELECT id, INITCAP(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, INITCAP(s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: UPPER
SELECT id, UPPER(s), LOWER(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: CONCAT
SELECT id, CONCAT(s, '|', s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, CONCAT(s, CAST(n AS STRING)) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, s || '-' || s FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: CONCAT_WS
SELECT id, CONCAT_WS('✓', s, CAST(n AS STRING), CAST(p AS STRING)) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, CONCAT_WS(d, s, s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: CHAR_LENGTH
SELECT id, CHAR_LENGTH(s), CHARACTER_LENGTH(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, CHAR_LENGTH(s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: TO_BASE64
SELECT id, TO_BASE64(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: FROM_BASE64
SELECT id, FROM_BASE64(TO_BASE64(s)) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, FROM_BASE64(s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: ASCII
SELECT id, ASCII(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: CHR
SELECT id, CHR(p), CHR(n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, CHR(i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: TRANSLATE
SELECT id, TRANSLATE(s, 'lo', 'LØ') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, TRANSLATE(s, 'lé', 'x') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: ELT
SELECT id, ELT(p, 'a', 'b', 'c') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, ELT(2, a, b) FROM (VALUES (1, 'x', 'y'), (2, '', 'é✓'), (3, 'x', CAST(NULL AS STRING)), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, a, b) ORDER BY id

-- function: PARSE_URL
SELECT id, PARSE_URL(u, 'HOST'), PARSE_URL(u, 'PATH') FROM (VALUES (1, 'http://user@example.com:8080/path/p.html?q=1&r=%C3%A9#frag'), (2, 'https://example.com'), (3, 'not a url'), (4, ''), (5, CAST(NULL AS STRING))) AS t(id, u) ORDER BY id
SELECT id, PARSE_URL(u, 'QUERY'), PARSE_URL(u, 'QUERY', 'r') FROM (VALUES (1, 'http://user@example.com:8080/path/p.html?q=1&r=%C3%A9#frag'), (2, 'https://example.com'), (3, 'not a url'), (4, ''), (5, CAST(NULL AS STRING))) AS t(id, u) ORDER BY id
SELECT id, PARSE_URL(u, 'PROTOCOL'), PARSE_URL(u, 'REF'), PARSE_URL(u, 'AUTHORITY'), PARSE_URL(u, 'USERINFO'), PARSE_URL(u, 'FILE') FROM (VALUES (1, 'http://user@example.com:8080/path/p.html?q=1&r=%C3%A9#frag'), (2, 'https://example.com'), (3, 'not a url'), (4, ''), (5, CAST(NULL AS STRING))) AS t(id, u) ORDER BY id

-- function: STR_TO_MAP
SELECT id, STR_TO_MAP(s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id
SELECT id, STR_TO_MAP(s, d, '=') FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id
SELECT id, STR_TO_MAP(s, ' ', 'l') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: OVERLAY
SELECT id, OVERLAY(s PLACING '✓' FROM 2 FOR 1) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: SPLIT
SELECT id, SPLIT(s, d) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: STARTSWITH
SELECT id, STARTSWITH(s, 'he'), ENDSWITH(s, 'lo') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: LIKE
SELECT id, s LIKE '%l%', s LIKE '_' FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: SIMILAR
SELECT id, s SIMILAR TO '[a-z]+' FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: URL_ENCODE
SELECT id, URL_ENCODE(s), URL_DECODE(URL_ENCODE(s)) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: TRY_CAST
SELECT id, TRY_CAST(s AS INT) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: ROUND
SELECT id, ROUND(d, sc), ROUND(x, sc) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, ROUND(i, sc) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, ROUND(d), ROUND(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, ROUND(x * i, 0) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: TRUNCATE
SELECT id, TRUNCATE(d, sc), TRUNCATE(x, sc) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, TRUNCATE(i, -1), TRUNCATE(d) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: MOD
SELECT id, MOD(a, b) FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id
SELECT id, MOD(i, 3), MOD(d, 2) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, a % b, a / b FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id
SELECT id, a / CAST(b AS DOUBLE) FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id

-- function: POWER
SELECT id, POWER(x, 2), POWER(i, 2) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, POWER(d, sc) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, POWER(a, b) FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id

-- function: LOG
SELECT id, LN(x), LOG10(x), LOG2(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, LOG(x), LOG(2, x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, LN(d), LOG10(i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, LOG(b, a) FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id

-- function: SIGN
SELECT id, SIGN(i), SIGN(d), SIGN(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: ABS
SELECT id, ABS(i), ABS(d), ABS(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: CEIL
SELECT id, CEIL(d), FLOOR(d) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CEIL(x), FLOOR(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CEILING(i), FLOOR(i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: SQRT
SELECT id, SQRT(x), SQRT(d) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: EXP
SELECT id, EXP(CAST(sc AS DOUBLE)), EXP(d) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: CAST
SELECT id, CAST(s AS INT) FROM (VALUES (1, '42'), (2, ' -7 '), (3, '1.5e3'), (4, '12.345'), (5, CAST(NULL AS STRING)), (6, '')) AS t(id, s) ORDER BY id
SELECT id, TRY_CAST(s AS INT), TRY_CAST(s AS DECIMAL(10, 2)), TRY_CAST(s AS DOUBLE) FROM (VALUES (1, '42'), (2, ' -7 '), (3, '1.5e3'), (4, '12.345'), (5, CAST(NULL AS STRING)), (6, '')) AS t(id, s) ORDER BY id
SELECT id, CAST(s AS DOUBLE) FROM (VALUES (1, '42'), (2, ' -7 '), (3, '1.5e3'), (4, '12.345'), (5, CAST(NULL AS STRING)), (6, '')) AS t(id, s) ORDER BY id
SELECT id, CAST(s AS DECIMAL(10, 2)) FROM (VALUES (1, '42'), (2, ' -7 '), (3, '1.5e3'), (4, '12.345'), (5, CAST(NULL AS STRING)), (6, '')) AS t(id, s) ORDER BY id
SELECT id, CAST(d AS INT), CAST(x AS BIGINT) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CAST(d AS STRING), CAST(x AS STRING), CAST(i AS STRING) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CAST(d AS DECIMAL(5, 1)) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CAST(x AS DECIMAL(10, 2)) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CAST(ts AS DATE), CAST(d AS TIMESTAMP(3)) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, CAST(ts AS STRING), CAST(d AS STRING) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, CAST(CAST(ts AS STRING) AS TIMESTAMP(3)), CAST(CAST(d AS STRING) AS DATE) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, TRY_CAST(ds AS DATE), TRY_CAST(tss AS TIMESTAMP(3)) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, CAST(ds AS DATE) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: BIN
SELECT id, BIN(i), HEX(i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, BIN(a), BIN(CAST(b AS BIGINT)) FROM (VALUES (1, 7, 2), (2, -7, 2), (3, 7, -2), (4, 0, 5), (5, CAST(NULL AS INT), 3), (6, 5, CAST(NULL AS INT))) AS t(id, a, b) ORDER BY id

-- function: HEX
SELECT id, HEX(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: UNHEX
SELECT id, UNHEX(HEX(s)) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, UNHEX(s) FROM (VALUES (1, 'a,b,,c', ','), (2, '', ','), (3, 'é✓é✓', '✓'), (4, ' x y ', ' '), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, s, d) ORDER BY id

-- function: DECIMAL
SELECT id, d + d, d - 1, d * d, d / 3 FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, d * i, d + x FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, d / CAST(0.7 AS DECIMAL(3, 1)), d * CAST(1.5 AS DECIMAL(2, 1)) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, SUM(d) OVER (), d FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: RAND
SELECT id, RAND(i) >= 0 FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: DEGREES
SELECT id, DEGREES(x), RADIANS(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: SIN
SELECT id, SIN(x), COS(x), TAN(x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: ATAN2
SELECT id, ATAN2(x, CAST(i AS DOUBLE)) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: IF
SELECT id, IF(n > 0, s, 'neg') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, IF(i > 0, d, x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: IFNULL
SELECT id, IFNULL(s, 'none'), IFNULL(n, -99) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, IFNULL(d, 1.5) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: COALESCE
SELECT id, COALESCE(s, CAST(n AS STRING), 'x') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, COALESCE(d, x, i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, COALESCE(i, sc, 0) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: NULLIF
SELECT id, NULLIF(s, ''), NULLIF(n, p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, NULLIF(i, 0), NULLIF(d, 0) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: GREATEST
SELECT id, GREATEST(i, sc), LEAST(i, sc) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, GREATEST(i, x), LEAST(i, x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, GREATEST(d, i), LEAST(d, i) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, GREATEST(s, 'hello'), LEAST(s, 'hello') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, GREATEST(d, x), LEAST(d, x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: CASE
SELECT id, CASE WHEN s IS NULL THEN 'null' WHEN s = '' THEN 'empty' ELSE UPPER(s) END FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, CASE i WHEN 0 THEN 'zero' WHEN 7 THEN 'seven' ELSE 'other' END FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CASE WHEN i > 0 THEN d WHEN i < 0 THEN x END FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, CASE sc WHEN 1 THEN i ELSE d END FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: IS_DIGIT
SELECT id, IS_DIGIT(s), IS_ALPHA(s), IS_DECIMAL(s) FROM (VALUES (1, '42'), (2, ' -7 '), (3, '1.5e3'), (4, '12.345'), (5, CAST(NULL AS STRING)), (6, '')) AS t(id, s) ORDER BY id
SELECT id, IS_DIGIT(s), IS_ALPHA(s), IS_DECIMAL(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: IS
SELECT id, s IS NULL, s IS NOT NULL, s IS DISTINCT FROM 'hello' FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, i = sc IS TRUE, i > sc IS UNKNOWN, i IS NOT DISTINCT FROM sc FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: BETWEEN
SELECT id, i BETWEEN -7 AND sc, d NOT BETWEEN 0 AND 100 FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id

-- function: IN
SELECT id, i IN (0, 7, sc), sc NOT IN (1, 2) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, s IN ('hello', '', 'x') FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: DATE_FORMAT
SELECT id, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS'), DATE_FORMAT(ts, 'EEE dd/MM/yy') FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, DATE_FORMAT(tss, 'yyyy/MM/dd') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, DATE_FORMAT(d, 'yyyyMMdd') FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: TO_DATE
SELECT id, TO_DATE(ds) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, TO_DATE(REPLACE(ds, '-', ''), 'yyyyMMdd') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: TO_TIMESTAMP
SELECT id, TO_TIMESTAMP(tss) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, TO_TIMESTAMP(ds, 'yyyy-MM-dd') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: UNIX_TIMESTAMP
SELECT id, UNIX_TIMESTAMP(tss) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, UNIX_TIMESTAMP(ds, 'yyyy-MM-dd') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: FROM_UNIXTIME
SELECT id, FROM_UNIXTIME(n) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, FROM_UNIXTIME(n, 'yyyy-MM-dd HH') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: TO_TIMESTAMP_LTZ
SELECT id, TO_TIMESTAMP_LTZ(n, 0) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id
SELECT id, TO_TIMESTAMP_LTZ(n * 1000, 3) FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: TIMESTAMPADD
SELECT id, TIMESTAMPADD(DAY, n, ts), TIMESTAMPADD(MONTH, n, d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, TIMESTAMPADD(SECOND, n, ts), TIMESTAMPADD(YEAR, n, ts) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, TIMESTAMPADD(HOUR, n, d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: TIMESTAMPDIFF
SELECT id, TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00'), TIMESTAMPDIFF(MONTH, d, DATE '2024-01-31') FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, TIMESTAMPDIFF(SECOND, CAST(d AS TIMESTAMP(3)), ts) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, TIMESTAMPDIFF(YEAR, d, DATE '2024-02-28'), TIMESTAMPDIFF(WEEK, d, DATE '2024-02-28') FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: EXTRACT
SELECT id, EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(DAY FROM ts), EXTRACT(HOUR FROM ts), EXTRACT(SECOND FROM ts) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, EXTRACT(DOW FROM d), EXTRACT(DOY FROM d), EXTRACT(WEEK FROM d), EXTRACT(QUARTER FROM d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, EXTRACT(MILLISECOND FROM ts), EXTRACT(EPOCH FROM ts) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, YEAR(d), QUARTER(d), MONTH(d), WEEK(d), DAYOFYEAR(d), DAYOFMONTH(d), DAYOFWEEK(d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, HOUR(ts), MINUTE(ts), SECOND(ts) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: FLOOR
SELECT id, FLOOR(ts TO HOUR), CEIL(ts TO HOUR) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, FLOOR(ts TO MONTH), CEIL(ts TO MONTH) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, FLOOR(d TO YEAR), CEIL(d TO YEAR) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, FLOOR(ts TO WEEK), FLOOR(d TO QUARTER) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, FLOOR(ts TO SECOND), CEIL(ts TO SECOND) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: DATE_ADD
SELECT id, d + INTERVAL '1' DAY, ts - INTERVAL '1' HOUR, ts + INTERVAL '1' MONTH FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id
SELECT id, d - DATE '2000-01-01' FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: LAST_DAY
SELECT id, LAST_DAY(d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: DAYNAME
SELECT id, DAYNAME(d), MONTHNAME(d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: DATEDIFF
SELECT id, DATEDIFF(d, DATE '2024-01-01') FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: CONVERT_TZ
SELECT id, CONVERT_TZ(tss, 'UTC', 'Asia/Kolkata') FROM (VALUES (1, '2024-02-29', '2024-02-29 13:45:30', 0), (2, '1970-01-01', '1970-01-01 00:00:00', -1), (3, '2023-12-31', '2023-12-31 23:59:59.123', 1000000000), (4, 'not a date', 'garbage', 86400), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS BIGINT))) AS t(id, ds, tss, n) ORDER BY id

-- function: ARRAY
SELECT id, ARRAY[a, b, c] FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: CARDINALITY
SELECT id, CARDINALITY(ARRAY[a, b, c]), CARDINALITY(ARRAY[a]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_ELEMENT
SELECT id, ARRAY[a, b, c][1], ARRAY[a, b, c][2] FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY[10, 20, 30][c] FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_APPEND
SELECT id, ARRAY_APPEND(ARRAY[a, b], c), ARRAY_PREPEND(ARRAY[a, b], c) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_CONCAT
SELECT id, ARRAY_CONCAT(ARRAY[a], ARRAY[b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_CONTAINS
SELECT id, ARRAY_CONTAINS(ARRAY[a, b], c) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY_CONTAINS(ARRAY[a, b, c], 0) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY_CONTAINS(ARRAY[a, 'x'], b) FROM (VALUES (1, 'x', 'y'), (2, '', 'é✓'), (3, 'x', CAST(NULL AS STRING)), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, a, b) ORDER BY id

-- function: ARRAY_POSITION
SELECT id, ARRAY_POSITION(ARRAY[a, b, c], c), ARRAY_POSITION(ARRAY[a, b, c], -1) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_DISTINCT
SELECT id, ARRAY_DISTINCT(ARRAY[a, b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_REMOVE
SELECT id, ARRAY_REMOVE(ARRAY[a, b, c], a) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY_REMOVE(ARRAY[a, b, c], 0) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_REVERSE
SELECT id, ARRAY_REVERSE(ARRAY[a, b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_SLICE
SELECT id, ARRAY_SLICE(ARRAY[a, b, c], 2), ARRAY_SLICE(ARRAY[a, b, c], c, 3) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY_SLICE(ARRAY[a, b, c], -2, -1) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_SORT
SELECT id, ARRAY_SORT(ARRAY[a, b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id
SELECT id, ARRAY_SORT(ARRAY[a, b, c], FALSE) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_UNION
SELECT id, ARRAY_UNION(ARRAY[a, b], ARRAY[b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_EXCEPT
SELECT id, ARRAY_EXCEPT(ARRAY[a, b, c], ARRAY[b]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_INTERSECT
SELECT id, ARRAY_INTERSECT(ARRAY[a, b, c], ARRAY[c, 1]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_MAX
SELECT id, ARRAY_MAX(ARRAY[a, b, c]), ARRAY_MIN(ARRAY[a, b, c]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: ARRAY_JOIN
SELECT id, ARRAY_JOIN(ARRAY[a, b], ','), ARRAY_JOIN(ARRAY[a, b], ',', 'N') FROM (VALUES (1, 'x', 'y'), (2, '', 'é✓'), (3, 'x', CAST(NULL AS STRING)), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, a, b) ORDER BY id
SELECT id, ARRAY_JOIN(ARRAY[a, b, a], b) FROM (VALUES (1, 'x', 'y'), (2, '', 'é✓'), (3, 'x', CAST(NULL AS STRING)), (5, CAST(NULL AS STRING), CAST(NULL AS STRING))) AS t(id, a, b) ORDER BY id

-- function: MAP
SELECT id, MAP[k, v] FROM (VALUES (1, 'a', 1), (2, 'b', 2), (3, 'z', CAST(NULL AS INT)), (5, CAST(NULL AS STRING), CAST(NULL AS INT))) AS t(id, k, v) ORDER BY id
SELECT id, MAP[k, v][k], MAP['a', v]['a'] FROM (VALUES (1, 'a', 1), (2, 'b', 2), (3, 'z', CAST(NULL AS INT)), (5, CAST(NULL AS STRING), CAST(NULL AS INT))) AS t(id, k, v) ORDER BY id
SELECT id, CARDINALITY(MAP[k, v, 'c', 3]) FROM (VALUES (1, 'a', 1), (2, 'b', 2), (3, 'z', CAST(NULL AS INT)), (5, CAST(NULL AS STRING), CAST(NULL AS INT))) AS t(id, k, v) ORDER BY id

-- function: MAP_KEYS
SELECT id, MAP_KEYS(MAP[k, v]), MAP_VALUES(MAP[k, v]) FROM (VALUES (1, 'a', 1), (2, 'b', 2), (3, 'z', CAST(NULL AS INT)), (5, CAST(NULL AS STRING), CAST(NULL AS INT))) AS t(id, k, v) ORDER BY id

-- function: MAP_FROM_ARRAYS
SELECT id, MAP_FROM_ARRAYS(ARRAY[k], ARRAY[v]) FROM (VALUES (1, 'a', 1), (2, 'b', 2), (3, 'z', CAST(NULL AS INT)), (5, CAST(NULL AS STRING), CAST(NULL AS INT))) AS t(id, k, v) ORDER BY id

-- function: ELEMENT
SELECT id, ELEMENT(ARRAY[a]) FROM (VALUES (1, 1, 2, 3), (2, 3, CAST(NULL AS INT), 1), (3, -1, -1, 0), (4, 0, 0, 0), (5, CAST(NULL AS INT), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, a, b, c) ORDER BY id

-- function: JSON_VALUE
SELECT id, JSON_VALUE(j, '$.a') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_VALUE(j, '$.a' RETURNING INT), JSON_VALUE(j, '$.s') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_VALUE(j, '$.b[2].c'), JSON_VALUE(j, '$[1]') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_VALUE(j, '$.a' DEFAULT 'dflt' ON EMPTY) FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_VALUE(j, 'lax $.z' DEFAULT 'none' ON EMPTY DEFAULT 'bad' ON ERROR) FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id

-- function: JSON_QUERY
SELECT id, JSON_QUERY(j, '$.b') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_QUERY(j, '$') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_QUERY(j, '$.b' WITH WRAPPER), JSON_QUERY(j, '$.a' WITH CONDITIONAL WRAPPER) FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_QUERY(j, '$.b' RETURNING ARRAY<STRING>) FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id

-- function: JSON_EXISTS
SELECT id, JSON_EXISTS(j, '$.a'), JSON_EXISTS(j, '$.b[2]') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
SELECT id, JSON_EXISTS(j, '$[0]') FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id

-- function: IS_JSON
SELECT id, j IS JSON, j IS JSON OBJECT, j IS JSON ARRAY FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id

-- function: JSON_OBJECT
SELECT id, JSON_OBJECT('s' VALUE s, 'n' VALUE n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, JSON_OBJECT('s' VALUE s ABSENT ON NULL) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, JSON_OBJECT('d' VALUE d, 'x' VALUE x) FROM (VALUES (1, 7, CAST(12.345 AS DECIMAL(10, 3)), 2.5E0, 1), (2, -7, CAST(-12.345 AS DECIMAL(10, 3)), -2.5E0, 0), (3, 0, CAST(0 AS DECIMAL(10, 3)), 0.0E0, -1), (4, 2147483647, CAST(9999999.999 AS DECIMAL(10, 3)), 1.0E300, 2), (5, CAST(NULL AS INT), CAST(NULL AS DECIMAL(10, 3)), CAST(NULL AS DOUBLE), CAST(NULL AS INT))) AS t(id, i, d, x, sc) ORDER BY id
SELECT id, JSON_OBJECT('ts' VALUE ts, 'd' VALUE d) FROM (VALUES (1, TIMESTAMP '2024-02-29 13:45:30.123', DATE '2024-02-29', 5), (2, TIMESTAMP '1970-01-01 00:00:00', DATE '1970-01-01', -1), (3, TIMESTAMP '1969-12-31 23:59:59.999', DATE '1900-03-01', 0), (4, TIMESTAMP '2023-12-31 23:59:59', DATE '2023-12-31', 1000), (5, CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS DATE), CAST(NULL AS INT))) AS t(id, ts, d, n) ORDER BY id

-- function: JSON_ARRAY
SELECT id, JSON_ARRAY(s, n, p) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id
SELECT id, JSON_ARRAY(s, n NULL ON NULL) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: JSON_STRING
SELECT id, JSON_STRING(s), JSON_STRING(n) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: JSON_QUOTE
SELECT id, JSON_QUOTE(s) FROM (VALUES (1, 'hello', 2, 3), (2, '', 0, 0), (3, ' é✓ x ', -1, 2), (4, 'Hello World', 100, -1), (5, CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS INT))) AS t(id, s, n, p) ORDER BY id

-- function: JSON_UNQUOTE
SELECT id, JSON_UNQUOTE(JSON_VALUE(j, '$.s')) FROM (VALUES (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "s": "é✓"}'), (2, '{"a": null, "b": []}'), (3, '[1, 2]'), (4, 'not json'), (5, CAST(NULL AS STRING))) AS t(id, j) ORDER BY id
