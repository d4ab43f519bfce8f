-- Flink's mathematical functions (format: see string.sql).

-- function: LOG
LOG(100)
LOG(2, 8)
LOG(0)
LOG(-1)
LOG(1, 8)
LOG(0.5, 4)
LOG(2.5)
LOG(CAST(NULL AS DOUBLE))
LOG(2, CAST(NULL AS DOUBLE))

-- function: LOG2
LOG2(8)
LOG2(1)
LOG2(0)
LOG2(CAST(NULL AS DOUBLE))

-- function: LOG10
LOG10(1000)
LOG10(CAST(NULL AS DOUBLE))

-- function: LN
LN(1)
LN(CAST(NULL AS DOUBLE))

-- function: SINH
SINH(0)
SINH(1)
SINH(CAST(NULL AS DOUBLE))

-- function: COSH
COSH(0)
COSH(1)
COSH(CAST(NULL AS DOUBLE))

-- function: TANH
TANH(0)
TANH(1)
TANH(CAST(NULL AS DOUBLE))

-- function: E
E()
E() * 2

-- function: PI
PI()

-- function: BIN
BIN(12)
BIN(0)
BIN(-1)
BIN(CAST(NULL AS BIGINT))
BIN(CAST(7 AS TINYINT))
BIN(CAST(-1 AS INT))

-- function: HEX
HEX(255)
HEX(-1)
HEX(0)
HEX('abc')
HEX('中')
HEX(CAST(NULL AS BIGINT))
HEX(CAST(NULL AS STRING))
HEX(CAST(-1 AS INT))
HEX('')

-- function: UNHEX
UNHEX('616263')
UNHEX('6')
UNHEX('zz')
UNHEX('')
UNHEX('ABC')
UNHEX('abcd')
UNHEX(CAST(NULL AS STRING))

-- function: ABS
ABS(-2)
ABS(-2.5)
ABS(CAST(NULL AS INT))

-- function: POWER
POWER(2, 10)
POWER(CAST(NULL AS DOUBLE), 2)

-- function: SQRT
SQRT(16)
SQRT(CAST(NULL AS DOUBLE))

-- function: EXP
EXP(0)
EXP(CAST(NULL AS DOUBLE))

-- function: SIGN
SIGN(-3)
SIGN(2.5)
SIGN(CAST(NULL AS INT))

-- function: ROUND
ROUND(1.2345, 2)
ROUND(125, -1)
ROUND(CAST(NULL AS DOUBLE), 1)

-- function: TRUNCATE
TRUNCATE(1.2345, 2)
TRUNCATE(CAST(NULL AS DOUBLE), 1)

-- function: CEIL
CEIL(1.2)
CEIL(CAST(NULL AS DOUBLE))

-- function: FLOOR
FLOOR(1.8)
FLOOR(CAST(NULL AS DOUBLE))

-- function: MOD
MOD(7, 3)
MOD(-7, 3)
MOD(CAST(NULL AS INT), 3)

-- function: DEGREES
DEGREES(PI())

-- function: RADIANS
RADIANS(180)

-- function: SIN
SIN(0)

-- function: COS
COS(0)

-- function: TAN
TAN(0)

-- function: COT
COT(1)

-- function: ASIN
ASIN(1)

-- function: ACOS
ACOS(1)

-- function: ATAN
ATAN(1)

-- function: ATAN2
ATAN2(1, 1)

-- function: RAND
RAND(1) < 1

-- function: RAND_INTEGER
RAND_INTEGER(1, 10) < 10

-- Over columns.
-- function: LOG
SELECT LOG(x), LOG2(x), LOG10(x) FROM (VALUES (CAST(8 AS DOUBLE)), (CAST(1000 AS DOUBLE)), (CAST(NULL AS DOUBLE))) AS t(x)
SELECT LOG(b, x) FROM (VALUES (2, 8), (10, 100), (CAST(NULL AS INT), 1)) AS t(b, x)
-- function: SINH
SELECT SINH(x), COSH(x), TANH(x) FROM (VALUES (0.5), (CAST(NULL AS DECIMAL(2, 1)))) AS t(x)
-- function: BIN
SELECT BIN(n), HEX(n) FROM (VALUES (CAST(10 AS BIGINT)), (CAST(-2 AS BIGINT)), (CAST(NULL AS BIGINT))) AS t(n)
-- function: HEX
SELECT HEX(s) FROM (VALUES ('ab'), (CAST(NULL AS STRING))) AS t(s)
-- function: UNHEX
SELECT UNHEX(s) FROM (VALUES ('4142'), ('4'), ('x1'), (CAST(NULL AS STRING))) AS t(s)

-- function: UUID
CHAR_LENGTH(UUID())
UUID() = UUID()
REGEXP(UUID(), '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')
