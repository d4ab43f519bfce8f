-- Edge cases of Flink's string functions: NULL in each argument position, empty strings,
-- negative and zero lengths and positions, out-of-range indexes, multi-byte characters and
-- surrogate pairs, numbers where a string is wanted, and column inputs from VALUES.

-- function: SUBSTRING
SUBSTRING('hello' FROM 0)
SUBSTRING('hello' FROM 0 FOR 0)
SUBSTRING('hello' FROM 1 FOR 0)
SUBSTRING('hello' FROM 6)
SUBSTRING('hello' FROM 5 FOR 10)
SUBSTRING('hello' FROM -10 FOR 12)
SUBSTRING('hello' FROM -5 FOR 2)
SUBSTRING('hello' FROM CAST(NULL AS INT) FOR 2)
SUBSTRING('a😀b' FROM 2 FOR 1)
SUBSTRING('a😀b' FROM -1)
SUBSTRING('' FROM 1 FOR 2)
SUBSTRING(12345 FROM 2 FOR 2)
SELECT SUBSTRING(s FROM p FOR l) FROM (VALUES ('héllo', 2, 3), ('héllo', 0, 1), ('héllo', -2, 5), ('héllo', 3, 0), (CAST(NULL AS STRING), 1, 1), ('x', CAST(NULL AS INT), 1)) AS t(s, p, l)
SELECT SUBSTRING(s FROM p) FROM (VALUES ('abc', 0), ('abc', -1), ('abc', 4), ('abc', 100)) AS t(s, p)

-- function: CONCAT
CONCAT(CAST(NULL AS STRING), CAST(NULL AS STRING))
CONCAT('a', 1)
CONCAT(1, 2)
CONCAT('a', CAST(1.50 AS DECIMAL(5, 2)))
CONCAT(CAST('a' AS CHAR(3)), 'b')
CONCAT('a', TRUE)
CONCAT('a', DATE '2024-02-29')
CONCAT('😀', '', '😀')
SELECT CONCAT(a, '-', b, '-', c) FROM (VALUES ('x', 'y', 'z'), ('x', CAST(NULL AS STRING), 'z'), ('', '', '')) AS t(a, b, c)

-- function: CONCAT_WS
CONCAT_WS('-', 'a', '', 'c')
CONCAT_WS('-', '', '')
CONCAT_WS('-', CAST(NULL AS STRING), CAST(NULL AS STRING))
CONCAT_WS('😀', 'a', 'b')
CONCAT_WS('-', 'a', 1)
CONCAT_WS(1, 'a', 'b')
CONCAT_WS(CAST(NULL AS STRING), CAST(NULL AS STRING))
SELECT CONCAT_WS(',', a, b, c) FROM (VALUES ('a', CAST(NULL AS STRING), 'c'), (CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(NULL AS STRING)), ('', 'b', '')) AS t(a, b, c)

-- function: REPLACE
REPLACE('aaa', 'aa', 'b')
REPLACE('hello', 'hello', '')
REPLACE('', '', 'x')
REPLACE('hello', CAST(NULL AS STRING), 'x')
REPLACE('hello', 'l', CAST(NULL AS STRING))
REPLACE('a😀b😀', '😀', '中')
REPLACE('abc', 'ABC', 'x')
REPLACE(12321, 2, 9)
SELECT REPLACE(s, f, r) FROM (VALUES ('abcabc', 'b', 'XY'), ('abc', '', 'x'), ('abc', 'c', ''), (CAST(NULL AS STRING), 'a', 'b'), ('abc', CAST(NULL AS STRING), 'b')) AS t(s, f, r)

-- function: TRIM
TRIM('')
TRIM('   ')
TRIM(BOTH 'ab' FROM 'abxyba')
TRIM(LEADING 'ab' FROM 'babxab')
TRIM(TRAILING '' FROM 'abc ')
TRIM(BOTH CAST(NULL AS STRING) FROM 'abc')
TRIM(BOTH 'x' FROM CAST(NULL AS STRING))
TRIM(BOTH '😀' FROM '😀a😀😀')
TRIM(' 	a	 ')
TRIM('　a　')
TRIM(BOTH 'x' FROM 'xxxx')
SELECT TRIM(BOTH c FROM s), TRIM(LEADING c FROM s), TRIM(TRAILING c FROM s) FROM (VALUES ('xaxx', 'x'), ('aa', 'a'), ('yay', CAST(NULL AS STRING)), (CAST(NULL AS STRING), 'x')) AS t(s, c)

-- function: LTRIM
LTRIM('😀😀a😀', '😀')
LTRIM('xyz', 'xyz')
LTRIM('abc', '')
LTRIM(CAST(NULL AS STRING), 'x')

-- function: RTRIM
RTRIM('a😀😀', '😀')
RTRIM('', 'x')
RTRIM('abc', CAST(NULL AS STRING))
RTRIM('abcba', 'ab')

-- function: BTRIM
BTRIM('')
BTRIM('   ')
BTRIM('abc', '')
BTRIM('中a中', '中')

-- function: LPAD
LPAD('hello', 3, 'x')
LPAD('', 0, 'x')
LPAD('a', 4, '😀')
LPAD('😀', 2, 'ab')
LPAD('hi', 5, 'ab')
LPAD(5, 3, '0')
LPAD(CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS STRING))
SELECT LPAD(s, n, p) FROM (VALUES ('a', 0, 'x'), ('abc', 5, 'xy'), ('abc', 5, CAST(NULL AS STRING)), ('abc', CAST(NULL AS INT), 'x'), ('😀', 3, '中')) AS t(s, n, p)

-- function: RPAD
RPAD('hello', 3, 'x')
RPAD('', 2, 'ab')
RPAD('a', 4, '😀')
RPAD('hi', 5, CAST(NULL AS STRING))
RPAD('hi', 2, 'x')
RPAD(5, 3, '0')
SELECT RPAD(s, n, p) FROM (VALUES ('a', 0, 'x'), ('abc', 5, 'xy'), ('abc', 2, 'z'), ('ab', 4, '')) AS t(s, n, p)

-- function: SPLIT_INDEX
SPLIT_INDEX('', ',', 0)
SPLIT_INDEX('a,b', ',', 2)
SPLIT_INDEX('a😀b😀c', '😀', 2)
SPLIT_INDEX('abc', 'abcd', 0)
SPLIT_INDEX('abc', 'abc', 0)
SPLIT_INDEX('abc', 'abc', 1)
SPLIT_INDEX('a.b.c', '.', 1)
SPLIT_INDEX('a,b', ',', 2147483647)
SPLIT_INDEX(123, 2, 0)
SELECT SPLIT_INDEX(s, d, i) FROM (VALUES ('a,b,c', ',', 2), ('a,b,c', ',', -1), ('a,,', ',', 2), ('', ',', 0), ('a-b', CAST(NULL AS STRING), 0), ('x', '', 0)) AS t(s, d, i)

-- function: REGEXP_REPLACE
REGEXP_REPLACE('aaa', 'a*', 'X')
REGEXP_REPLACE('abc', '', '-')
REGEXP_REPLACE('', 'a*', 'X')
REGEXP_REPLACE('a😀b', '😀', '-')
REGEXP_REPLACE('a.b.c', '.', 'x')
REGEXP_REPLACE('a.b.c', '\.', 'x')
REGEXP_REPLACE('abc', '(b)', '$2')
REGEXP_REPLACE('abc', 'b', '\$')
REGEXP_REPLACE('ABC', '(?i)b', 'x')
REGEXP_REPLACE('2024-01-02', '(\d+)-(\d+)-(\d+)', '$3/$2/$1')
SELECT REGEXP_REPLACE(s, p, r) FROM (VALUES ('a1b2', '[0-9]', '#'), ('abc', 'x', 'y'), ('abc', CAST(NULL AS STRING), 'y'), (CAST(NULL AS STRING), 'a', 'b'), ('中文', '文', 'x')) AS t(s, p, r)

-- function: REGEXP_EXTRACT
REGEXP_EXTRACT('a1b2', '[a-z]([0-9])', 1)
REGEXP_EXTRACT('', '(.*)', 1)
REGEXP_EXTRACT('a😀b', 'a(.)b', 1)
REGEXP_EXTRACT('abc', '(x)?abc', 1)
REGEXP_EXTRACT('abc', 'abc', 1)
REGEXP_EXTRACT(123, '(2)', 1)
SELECT REGEXP_EXTRACT(s, p, i) FROM (VALUES ('k=v', '(\w+)=(\w+)', 1), ('k=v', '(\w+)=(\w+)', 2), ('k=v', '(\w+)=(\w+)', 3), ('nope', '(\w+)=(\w+)', 1), ('k=v', '(\w+)=(\w+)', CAST(NULL AS INT))) AS t(s, p, i)

-- function: REGEXP_EXTRACT_ALL
REGEXP_EXTRACT_ALL('a1b22', '[a-z]([0-9]+)', 0)
REGEXP_EXTRACT_ALL('a1b22', '[a-z]([0-9]+)', 2)
REGEXP_EXTRACT_ALL('', 'a')
REGEXP_EXTRACT_ALL('abc', '')
REGEXP_EXTRACT_ALL('a1', CAST(NULL AS STRING))
REGEXP_EXTRACT_ALL('a1', '[0-9]', CAST(NULL AS INT))
REGEXP_EXTRACT_ALL('😀1😀2', '😀([0-9])', 1)

-- function: REGEXP
REGEXP('', '')
REGEXP('abc', '')
REGEXP('ABC', '(?i)abc')
REGEXP('a😀', '^a.$')
REGEXP('abc', CAST(NULL AS STRING))
SELECT REGEXP(s, p) FROM (VALUES ('abc', 'a.c'), ('abc', '^b'), ('', '^$'), (CAST(NULL AS STRING), 'a')) AS t(s, p)

-- function: REGEXP_COUNT
REGEXP_COUNT('', '')
REGEXP_COUNT('😀😀', '😀')
REGEXP_COUNT('aaaa', 'a*')
REGEXP_COUNT('a.b.c', '\.')

-- function: REGEXP_INSTR
REGEXP_INSTR('', 'a')
REGEXP_INSTR('abc', '')
REGEXP_INSTR('abcabc', 'b+c')
REGEXP_INSTR('abc', CAST(NULL AS STRING))
REGEXP_INSTR('a中b', 'b')

-- function: REGEXP_SUBSTR
REGEXP_SUBSTR('', '.*')
REGEXP_SUBSTR('abc', '')
REGEXP_SUBSTR('a😀b', '😀.')
REGEXP_SUBSTR('aaa', 'a{2}')

-- function: POSITION
POSITION('' IN 'hello')
POSITION('' IN '')
POSITION('a' IN '')
POSITION('😀' IN 'a😀b')
POSITION('b' IN 'a😀b')
POSITION('l' IN CAST(NULL AS STRING))
POSITION('LO' IN 'hello')
SELECT POSITION(a IN b) FROM (VALUES ('lo', 'hello'), ('', 'x'), ('z', ''), ('中', 'a中b中'), (CAST(NULL AS STRING), 'x')) AS t(a, b)

-- function: LOCATE
LOCATE('l', 'hello', -5)
LOCATE('l', 'hello', 5)
LOCATE('l', 'hello', 6)
LOCATE('', 'hello', 3)
LOCATE('', '')
LOCATE('l', 'hello', CAST(NULL AS INT))
LOCATE('😀', 'a😀b😀', 3)
LOCATE('c', 'a😀c')
LOCATE(1, 212)
SELECT LOCATE(a, b, p) FROM (VALUES ('a', 'banana', 1), ('a', 'banana', 3), ('a', 'banana', 7), ('a', 'banana', 0), ('a', 'banana', -1), ('', 'abc', 2)) AS t(a, b, p)

-- function: INSTR
INSTR('', '')
INSTR('abc', 'abcd')
INSTR('a😀b😀', '😀')
INSTR('banana', 'ana')
INSTR('HELLO', 'l')
INSTR(12345, 3)
SELECT INSTR(s, t) FROM (VALUES ('abc', 'c'), ('abc', ''), ('', 'a'), ('中文中', '文'), ('x', CAST(NULL AS STRING))) AS v(s, t)

-- function: LEFT
LEFT('', 1)
LEFT('a😀b', 2)
LEFT('中文字', 2)
LEFT('hello', 2147483647)
LEFT(12345, 2)
SELECT LEFT(s, n), RIGHT(s, n) FROM (VALUES ('hello', 3), ('hello', 0), ('hello', -2), ('h😀', 1), (CAST(NULL AS STRING), 1), ('abc', CAST(NULL AS INT))) AS t(s, n)

-- function: RIGHT
RIGHT('', 1)
RIGHT('a😀b', 2)
RIGHT('中文字', 2)
RIGHT('hello', CAST(NULL AS INT))
RIGHT(12345, 2)

-- function: UPPER
UPPER('')
UPPER('straße')
UPPER('éà中😀')
UPPER('ǆ')
UPPER(123)
SELECT UPPER(s), LOWER(s) FROM (VALUES ('MiXeD'), ('ÉCOLE'), (''), (CAST(NULL AS STRING))) AS t(s)

-- function: LOWER
LOWER('')
LOWER('ΟΔΟΣ')
LOWER('İ')
LOWER('ÀÉ中')
LOWER(123)

-- function: INITCAP
INITCAP('')
INITCAP('hello-world foo_bar')
INITCAP('1abc 2DEF')
INITCAP('  two  spaces ')
INITCAP('éCOLE àB')
INITCAP('o''neil mc-donald')
INITCAP('a.b,c;d')
INITCAP('tab	sep')
SELECT INITCAP(s) FROM (VALUES ('aBC dEF'), ('x'), (''), (CAST(NULL AS STRING))) AS t(s)

-- function: CHAR_LENGTH
CHAR_LENGTH('😀')
CHAR_LENGTH('a😀中')
CHAR_LENGTH('   ')
CHAR_LENGTH(CAST('ab' AS CHAR(5)))
CHAR_LENGTH(12345)
CHARACTER_LENGTH('héllo')
SELECT CHAR_LENGTH(s) FROM (VALUES ('😀😀'), ('é'), (''), (CAST(NULL AS STRING))) AS t(s)

-- function: REPEAT
REPEAT('😀', 2)
REPEAT('a', 1)
REPEAT(CAST(NULL AS STRING), CAST(NULL AS INT))

-- function: REVERSE
REVERSE('😀😁')
REVERSE('ab😀cd')
