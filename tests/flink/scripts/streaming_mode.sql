-- The SQL client's default execution.runtime-mode, STREAMING, set before every other statement:
-- a watermarked column is a rowtime attribute (`TIMESTAMP(3) *ROWTIME*`) in DESCRIBE and SHOW
-- COLUMNS, of a table and of a view that selects it unchanged; a processing-time column is marked
-- as in batch mode; SHOW CREATE is the same in both modes.
SET 'execution.runtime-mode' = 'streaming';
CREATE TABLE ev (id INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
DESCRIBE ev;
DESC ev;
SHOW COLUMNS FROM ev;
SHOW COLUMNS FROM ev LIKE 't%';
SHOW CREATE TABLE ev;
CREATE VIEW v AS SELECT id, ts, pt, CAST(ts AS TIMESTAMP(3)) AS c FROM ev;
DESCRIBE v;
SHOW COLUMNS FROM v NOT LIKE 'i%';
CREATE TEMPORARY VIEW v2 AS SELECT ts AS t2, id FROM v;
DESCRIBE v2;
SHOW CREATE VIEW v;
CREATE TABLE ltz (id INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
DESCRIBE ltz;
CREATE TABLE computed (s STRING, ts AS CAST(s AS TIMESTAMP(3)), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SHOW COLUMNS FROM computed;
SET 'execution.runtime-mode' = 'streaming';
SHOW COLUMNS FROM ev LIKE 'ts';
