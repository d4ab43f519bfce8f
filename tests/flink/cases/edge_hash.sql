-- Edge cases of Flink's hash functions: empty strings, multi-byte characters and surrogate pairs,
-- long inputs, numbers where a string is wanted, SHA2 lengths, and column inputs from VALUES.

-- function: MD5
MD5('😀')
MD5(REPEAT('a', 1000))
MD5(123)
MD5(X'00FF')
MD5(CAST('ab' AS CHAR(4)))

-- function: SHA1
SHA1('')
SHA1('中😀')
SHA1(123)

-- function: SHA224
SHA224('')
SHA224('😀')

-- function: SHA256
SHA256('')
SHA256('中😀')
SHA256(CAST(1.5 AS DECIMAL(2, 1)))

-- function: SHA384
SHA384('')

-- function: SHA512
SHA512('')
SHA512('中😀')

-- function: SHA2
SHA2('', 256)
SHA2('中', 224)
SHA2('hello', -1)
SHA2('hello', 1)
SHA2(123, 256)
SELECT SHA2(s, n) FROM (VALUES ('x', 0), ('x', 384), ('', 256), ('x', CAST(NULL AS INT))) AS t(s, n)
SELECT MD5(s), SHA512(s) FROM (VALUES ('😀'), ('é'), (CAST(NULL AS STRING))) AS t(s)
