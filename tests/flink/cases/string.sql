-- Flink's string functions. `-- function: NAME` starts a function's cases; every other line that
-- is not blank and not a comment is one case: an expression, run as `SELECT <expression>`, or a
-- whole query (a line that starts with SELECT, VALUES or WITH).

-- function: CONCAT
CONCAT('ab', 'cd')
CONCAT('a', 'b', 'c', 'd')
CONCAT('a', CAST(NULL AS STRING))
CONCAT('x')
CONCAT('', '')
CONCAT('中', '😀')
SELECT CONCAT(a, b) FROM (VALUES ('a', 'b'), (CAST(NULL AS STRING), 'c'), ('d', '')) AS t(a, b)

-- function: CONCAT_WS
CONCAT_WS('-', 'a', 'b', 'c')
CONCAT_WS('-', 'a', CAST(NULL AS STRING), 'c')
CONCAT_WS(CAST(NULL AS STRING), 'a', 'b')
CONCAT_WS('', 'a', 'b')
CONCAT_WS(', ', 'x')
CONCAT_WS('-', CAST(NULL AS STRING))
SELECT CONCAT_WS(s, a, b) FROM (VALUES ('/', 'a', 'b'), ('/', CAST(NULL AS STRING), 'c'), (CAST(NULL AS STRING), 'd', 'e')) AS t(s, a, b)

-- function: LPAD
LPAD('hi', 5, '??')
LPAD('hello', 2, '??')
LPAD('hi', 4, '')
LPAD('hi', 0, 'x')
LPAD('hi', -1, 'x')
LPAD('hi', 5, 'xyz')
LPAD(CAST(NULL AS STRING), 5, 'x')
LPAD('hi', CAST(NULL AS INT), 'x')
LPAD('hi', 5, CAST(NULL AS STRING))
LPAD('中', 3, '😀')
LPAD('abc', 5, '')
LPAD('', 3, 'ab')

-- function: RPAD
RPAD('hi', 5, '??')
RPAD('hello', 2, '??')
RPAD('hi', 4, '')
RPAD('hi', 0, 'x')
RPAD('hi', -1, 'x')
RPAD('hi', 6, 'xyz')
RPAD(CAST(NULL AS STRING), 5, 'x')
RPAD('hi', CAST(NULL AS INT), 'x')

-- function: LTRIM
LTRIM('  ab  ')
LTRIM('xxabxx', 'x')
LTRIM('abcab', 'ab')
LTRIM(CAST(NULL AS STRING))
LTRIM('')
LTRIM('  ab', CAST(NULL AS STRING))

-- function: RTRIM
RTRIM('  ab  ')
RTRIM('xxabxx', 'x')
RTRIM('abcab', 'ab')
RTRIM(CAST(NULL AS STRING))
RTRIM('   ')

-- function: BTRIM
BTRIM('  ab  ')
BTRIM('xxabxx', 'x')
BTRIM('abcba', 'ab')
BTRIM(CAST(NULL AS STRING))
BTRIM('ab', CAST(NULL AS STRING))
BTRIM('xyaxy', 'yx')

-- function: TRIM
TRIM('  ab  ')
TRIM(BOTH 'x' FROM 'xxabxx')
TRIM(LEADING 'x' FROM 'xxabxx')
TRIM(TRAILING 'x' FROM 'xxabxx')
TRIM(CAST(NULL AS STRING))

-- function: REPEAT
REPEAT('ab', 3)
REPEAT('ab', 0)
REPEAT('ab', -2)
REPEAT('', 3)
REPEAT(CAST(NULL AS STRING), 3)
REPEAT('ab', CAST(NULL AS INT))

-- function: REGEXP_REPLACE
REGEXP_REPLACE('foobar', 'oo|ar', '')
REGEXP_REPLACE('a1b22c', '[0-9]+', '#')
REGEXP_REPLACE('abc', '(b)', '[$1]')
REGEXP_REPLACE('abc', 'x', 'y')
REGEXP_REPLACE(CAST(NULL AS STRING), 'a', 'b')
REGEXP_REPLACE('abc', CAST(NULL AS STRING), 'b')
REGEXP_REPLACE('abc', 'a', CAST(NULL AS STRING))
REGEXP_REPLACE('abc', '(', 'x')

-- function: REGEXP_EXTRACT
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 1)
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 0)
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)')
REGEXP_EXTRACT('foothebar', 'x(.*)', 1)
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 3)
REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', -1)
REGEXP_EXTRACT('abc', '(', 1)
REGEXP_EXTRACT('abcabc', 'b', 0)
REGEXP_EXTRACT(CAST(NULL AS STRING), 'a', 1)
REGEXP_EXTRACT('abc', CAST(NULL AS STRING), 1)
REGEXP_EXTRACT('abc', 'a', CAST(NULL AS INT))

-- function: REGEXP
REGEXP('abc', 'b')
REGEXP('abc', '^b')
REGEXP(CAST(NULL AS STRING), 'b')
REGEXP('abc', '(')

-- function: STARTSWITH
STARTSWITH('hello', 'he')
STARTSWITH('hello', 'lo')
STARTSWITH('hello', '')
STARTSWITH(CAST(NULL AS STRING), 'a')
STARTSWITH('a', CAST(NULL AS STRING))

-- function: ENDSWITH
ENDSWITH('hello', 'lo')
ENDSWITH('hello', 'he')
ENDSWITH('hello', '')
ENDSWITH(CAST(NULL AS STRING), 'a')

-- function: TRANSLATE
TRANSLATE('hello', 'el', 'ip')
TRANSLATE('hello', 'el', 'i')
TRANSLATE('hello', 'l', '')
TRANSLATE('hello', '', 'x')
TRANSLATE('a😀b', 'b', 'c')
TRANSLATE(CAST(NULL AS STRING), 'a', 'b')
TRANSLATE('abc', CAST(NULL AS STRING), 'b')
TRANSLATE('abc', 'a', CAST(NULL AS STRING))

-- function: LEFT
LEFT('hello', 2)
LEFT('hello', 0)
LEFT('hello', -1)
LEFT('hello', 10)
LEFT('😀ab', 1)
LEFT(CAST(NULL AS STRING), 2)
LEFT('hello', CAST(NULL AS INT))

-- function: RIGHT
RIGHT('hello', 2)
RIGHT('hello', 0)
RIGHT('hello', -1)
RIGHT('hello', 10)
RIGHT('ab😀', 1)
RIGHT(CAST(NULL AS STRING), 2)

-- function: LOCATE
LOCATE('l', 'hello')
LOCATE('l', 'hello', 4)
LOCATE('x', 'hello')
LOCATE('', 'hello')
LOCATE('l', 'hello', 0)
LOCATE('b', '😀b')
LOCATE('b', 'abab', -1)
LOCATE('l', 'hello', 10)
LOCATE(CAST(NULL AS STRING), 'hello')
LOCATE('l', CAST(NULL AS STRING))

-- function: INSTR
INSTR('hello', 'l')
INSTR('hello', 'x')
INSTR('😀b', 'b')
INSTR('hello', '')
INSTR(CAST(NULL AS STRING), 'l')
INSTR('hello', CAST(NULL AS STRING))

-- function: POSITION
POSITION('l' IN 'hello')
POSITION('x' IN 'hello')
POSITION(CAST(NULL AS STRING) IN 'hello')

-- function: REVERSE
REVERSE('hello')
REVERSE('')
REVERSE('a😀')
REVERSE('中😀a')
REVERSE(CAST(NULL AS STRING))

-- function: SPLIT_INDEX
SPLIT_INDEX('a,b,c', ',', 1)
SPLIT_INDEX('a,b,c', ',', 0)
SPLIT_INDEX('a,b,c', ',', 3)
SPLIT_INDEX('a,b,c', ',', -1)
SPLIT_INDEX('a,,c', ',', 1)
SPLIT_INDEX('a||b', '||', 1)
SPLIT_INDEX('abc', '', 0)
SPLIT_INDEX(',a,', ',', 0)
SPLIT_INDEX(',a,', ',', 2)
SPLIT_INDEX(CAST(NULL AS STRING), ',', 1)
SPLIT_INDEX('a,b', CAST(NULL AS STRING), 1)
SPLIT_INDEX('a,b', ',', CAST(NULL AS INT))

-- function: TO_BASE64
TO_BASE64('hello world')
TO_BASE64('')
TO_BASE64('中')
TO_BASE64(CAST(NULL AS STRING))

-- function: FROM_BASE64
FROM_BASE64('aGVsbG8gd29ybGQ=')
FROM_BASE64('')
FROM_BASE64('not base64!')
FROM_BASE64(CAST(NULL AS STRING))

-- function: CHR
CHR(65)
CHR(97)
CHR(0)
CHR(256)
CHR(-1)
CHR(321)
CHR(CAST(NULL AS INT))

-- function: ASCII
ASCII('A')
ASCII('abc')
ASCII('')
ASCII(CAST(NULL AS STRING))

-- function: SUBSTR
SUBSTR('hello', 2)
SUBSTR('hello', 2, 3)
SUBSTR('hello', 0, 2)
SUBSTR('hello', -2)
SUBSTR('hello', 2, -1)
SUBSTR('hello', 10)
SUBSTR('😀abc', 2, 2)
SUBSTR('hello', -10, 3)
SUBSTR(CAST(NULL AS STRING), 2)
SUBSTR('hello', CAST(NULL AS INT))

-- function: SUBSTRING
SUBSTRING('hello' FROM 2)
SUBSTRING('hello' FROM 2 FOR 3)
SUBSTRING('hello' FROM -2)
SUBSTRING(CAST(NULL AS STRING) FROM 2)

-- function: OVERLAY
OVERLAY('This is an old string' PLACING ' new' FROM 10 FOR 5)
OVERLAY('abcdef' PLACING 'xy' FROM 3)
OVERLAY(CAST(NULL AS STRING) PLACING 'x' FROM 1)

-- function: INITCAP
INITCAP('hello world')
INITCAP('hELLO wORLD')
INITCAP(CAST(NULL AS STRING))

-- function: UPPER
UPPER('abc')
UPPER(CAST(NULL AS STRING))

-- function: LOWER
LOWER('ABC')
LOWER(CAST(NULL AS STRING))

-- function: CHAR_LENGTH
CHAR_LENGTH('hello')
CHAR_LENGTH('')
CHAR_LENGTH(CAST(NULL AS STRING))

-- function: REPLACE
REPLACE('hello', 'l', 'L')
REPLACE('hello', '', 'x')
REPLACE('hello', 'l', '')
REPLACE(CAST(NULL AS STRING), 'l', 'L')

-- function: ELT
ELT(2, 'a', 'b', 'c')
ELT(4, 'a', 'b', 'c')
ELT(0, 'a', 'b')
ELT(CAST(NULL AS INT), 'a', 'b')
ELT(1, CAST(NULL AS STRING), 'b')
ELT(2, 'ab', 'c')

-- function: PRINTF
PRINTF('%d-%s', 1, 'a')
PRINTF('%5.2f', 3.14159)
PRINTF('%s and %s', 'a', CAST(NULL AS STRING))
PRINTF('%x', 255)
PRINTF(CAST(NULL AS STRING), 1)
PRINTF('%d', 'x')

-- function: URL_ENCODE
URL_ENCODE('a b&c=d')
URL_ENCODE(CAST(NULL AS STRING))
URL_ENCODE('中 ~*')

-- function: URL_DECODE
URL_DECODE('a+b%26c%3Dd')
URL_DECODE(CAST(NULL AS STRING))
URL_DECODE('%zz')
URL_DECODE('%E4%B8%AD')

-- function: JSON_QUOTE
JSON_QUOTE('a"b')
JSON_QUOTE(CAST(NULL AS STRING))
JSON_QUOTE('a/b\\c')
JSON_QUOTE('中')
JSON_QUOTE('')

-- function: JSON_UNQUOTE
JSON_UNQUOTE('"a\"b"')
JSON_UNQUOTE('abc')
JSON_UNQUOTE('"\\u4e2d"')
JSON_UNQUOTE('"a')
JSON_UNQUOTE(CAST(NULL AS STRING))

-- function: INET_ATON
INET_ATON('127.0.0.1')
INET_ATON('a.b')
INET_ATON('256.0.0.1')
INET_ATON('1.2.3')
INET_ATON(CAST(NULL AS STRING))
INET_ATON('01.2.3.4')

-- function: INET_NTOA
INET_NTOA(2130706433)
INET_NTOA(0)
INET_NTOA(-1)
INET_NTOA(CAST(NULL AS BIGINT))
INET_NTOA(4294967296)

-- Over columns, so that the functions run on rows rather than as constants folded when planning.
-- function: LPAD
SELECT LPAD(s, n, p) FROM (VALUES ('ab', 4, '*'), (CAST(NULL AS STRING), 3, '*'), ('abc', 2, 'x')) AS t(s, n, p)
-- function: LTRIM
SELECT LTRIM(s), RTRIM(s), BTRIM(s) FROM (VALUES ('  a  '), (CAST(NULL AS STRING)), ('b')) AS t(s)
-- function: REGEXP_EXTRACT
SELECT REGEXP_EXTRACT(s, '([a-z]+)([0-9]+)', 2) FROM (VALUES ('ab12'), ('x'), (CAST(NULL AS STRING))) AS t(s)
-- function: LOCATE
SELECT LOCATE(a, b), INSTR(b, a) FROM (VALUES ('b', 'abc'), ('z', 'abc'), (CAST(NULL AS STRING), 'abc')) AS t(a, b)
-- function: SPLIT_INDEX
SELECT SPLIT_INDEX(s, ',', i) FROM (VALUES ('a,b', 1), ('a,b', 5), (CAST(NULL AS STRING), 0)) AS t(s, i)
-- function: SUBSTR
SELECT SUBSTR(s, p, l) FROM (VALUES ('hello', 2, 2), ('hello', -3, 2), ('hello', 1, -1), (CAST(NULL AS STRING), 1, 1)) AS t(s, p, l)
-- function: TRANSLATE
SELECT TRANSLATE(s, 'ab', 'x') FROM (VALUES ('abc'), (CAST(NULL AS STRING))) AS t(s)
-- function: REVERSE
SELECT REVERSE(s), TO_BASE64(s), CHAR_LENGTH(s) FROM (VALUES ('abc'), (''), (CAST(NULL AS STRING))) AS t(s)
-- function: STARTSWITH
SELECT STARTSWITH(s, 'a'), ENDSWITH(s, 'c') FROM (VALUES ('abc'), ('bcd'), (CAST(NULL AS STRING))) AS t(s)
-- function: CHR
SELECT CHR(n) FROM (VALUES (72), (CAST(NULL AS INT))) AS t(n)
-- function: REPEAT
SELECT REPEAT(s, n) FROM (VALUES ('ab', 2), ('x', 0), (CAST(NULL AS STRING), 1)) AS t(s, n)
-- function: ELT
SELECT ELT(i, 'x', 'y') FROM (VALUES (1), (2), (3), (CAST(NULL AS INT))) AS t(i)

-- function: REGEXP_COUNT
REGEXP_COUNT('abcabc', 'b')
REGEXP_COUNT('abc', 'x')
REGEXP_COUNT('aaa', 'aa')
REGEXP_COUNT('abc', '')
REGEXP_COUNT('abc', '(')
REGEXP_COUNT(CAST(NULL AS STRING), 'a')
REGEXP_COUNT('abc', CAST(NULL AS STRING))

-- function: REGEXP_INSTR
REGEXP_INSTR('abcabc', 'c')
REGEXP_INSTR('abc', 'x')
REGEXP_INSTR('😀abc', 'b')
REGEXP_INSTR('abc', '(')
REGEXP_INSTR(CAST(NULL AS STRING), 'a')

-- function: REGEXP_SUBSTR
REGEXP_SUBSTR('abc123def', '[0-9]+')
REGEXP_SUBSTR('abc', '[0-9]+')
REGEXP_SUBSTR('abc', '(')
REGEXP_SUBSTR(CAST(NULL AS STRING), 'a')
REGEXP_SUBSTR('abc', CAST(NULL AS STRING))

-- function: REGEXP_EXTRACT_ALL
REGEXP_EXTRACT_ALL('a1b22c333', '[a-z]([0-9]+)', 1)
REGEXP_EXTRACT_ALL('a1b22c333', '[0-9]+')
REGEXP_EXTRACT_ALL('abc', '[0-9]+')
REGEXP_EXTRACT_ALL(CAST(NULL AS STRING), 'a')

-- function: PARSE_URL
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'HOST')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'PATH')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'QUERY')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'QUERY', 'x')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'QUERY', 'nope')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'REF')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'PROTOCOL')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'FILE')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'AUTHORITY')
PARSE_URL('http://user:pw@example.com:8080/a/b.html?k=v&x=1#frag', 'USERINFO')
PARSE_URL('http://example.com/a', 'QUERY')
PARSE_URL('http://example.com/a', 'BOGUS')
PARSE_URL('not a url', 'HOST')
PARSE_URL(CAST(NULL AS STRING), 'HOST')

-- function: ENCODE
ENCODE('abc', 'UTF-8')
ENCODE('中', 'UTF-8')
ENCODE('中', 'UTF-16BE')
ENCODE('é', 'ISO-8859-1')
ENCODE(CAST(NULL AS STRING), 'UTF-8')
ENCODE('a', 'NOPE')

-- function: DECODE
DECODE(X'616263', 'UTF-8')
DECODE(X'E4B8AD', 'UTF-8')
DECODE(X'E9', 'ISO-8859-1')
DECODE(CAST(NULL AS BYTES), 'UTF-8')

-- function: STR_TO_MAP
STR_TO_MAP('a=1,b=2')
STR_TO_MAP('a:1;b:2', ';', ':')
STR_TO_MAP('a=1,b')
STR_TO_MAP('a=1,a=2')
STR_TO_MAP('')
STR_TO_MAP('a.1|b.2', '[|]', '[.]')
STR_TO_MAP(CAST(NULL AS STRING))
SELECT STR_TO_MAP(s)['k'] FROM (VALUES ('k=v,x=y'), ('x=y'), (CAST(NULL AS STRING))) AS t(s)
STR_TO_MAP('a=1,b')['b']
STR_TO_MAP('a=1,b')['b'] IS NULL
CARDINALITY(STR_TO_MAP('a=1,b'))
MAP_KEYS(STR_TO_MAP('a=1,b'))
MAP_VALUES(STR_TO_MAP('a=1,b'))
STR_TO_MAP('a=1,b=')
STR_TO_MAP('a=1,b=')['b']
STR_TO_MAP('a,=2')
SELECT STR_TO_MAP(s)['b'] IS NULL, CARDINALITY(STR_TO_MAP(s)) FROM (VALUES ('a=1,b'), ('b=2'), (CAST(NULL AS STRING))) AS t(s)
