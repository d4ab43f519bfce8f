-- Flink's functions of streaming queries (format: see string.sql): in a batch query there is no
-- watermark, so Flink refuses them and so does this project ("streaming only").

-- function: CURRENT_WATERMARK
SELECT CURRENT_WATERMARK(x) FROM (VALUES (TIMESTAMP '2023-01-01 00:00:00')) AS t(x)
SELECT CURRENT_WATERMARK(CAST(NULL AS TIMESTAMP(3)))

-- function: SOURCE_WATERMARK
SELECT SOURCE_WATERMARK()
