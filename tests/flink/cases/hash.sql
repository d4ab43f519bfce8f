-- Flink's hash functions (format: see string.sql).

-- function: MD5
MD5('hello')
MD5('')
MD5('中😀')
MD5(CAST(NULL AS STRING))

-- function: SHA1
SHA1('hello')
SHA1(CAST(NULL AS STRING))

-- function: SHA224
SHA224('hello')
SHA224(CAST(NULL AS STRING))

-- function: SHA256
SHA256('hello')
SHA256(CAST(NULL AS STRING))

-- function: SHA384
SHA384('hello')
SHA384(CAST(NULL AS STRING))

-- function: SHA512
SHA512('hello')
SHA512(CAST(NULL AS STRING))

-- function: SHA2
SHA2('hello', 224)
SHA2('hello', 256)
SHA2('hello', 384)
SHA2('hello', 512)
SHA2('hello', 0)
SHA2('hello', 100)
SHA2(CAST(NULL AS STRING), 256)
SHA2('hello', CAST(NULL AS INT))

-- Over columns.
-- function: MD5
SELECT MD5(s), SHA1(s), SHA256(s) FROM (VALUES ('a'), (''), (CAST(NULL AS STRING))) AS t(s)
-- function: SHA2
SELECT SHA2(s, n) FROM (VALUES ('a', 224), ('a', 512), (CAST(NULL AS STRING), 256)) AS t(s, n)
