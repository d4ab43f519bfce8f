-- SET and RESET of Flink's keys, and what the session's settings change in a query.
SET 'table.local-time-zone' = 'UTC';
SELECT CAST(TIMESTAMP '2024-03-01 12:00:00' AS TIMESTAMP_LTZ(3)) IS NOT NULL AS ok;
SET 'table.local-time-zone' = 'Asia/Tokyo';
SELECT CAST(TO_TIMESTAMP_LTZ(0, 0) AS STRING) AS epoch;
SELECT DATE_FORMAT(TO_TIMESTAMP_LTZ(86400000, 3), 'yyyy-MM-dd HH:mm') AS next_day;
RESET 'table.local-time-zone';
SELECT CAST(TO_TIMESTAMP_LTZ(0, 0) AS STRING) AS epoch;
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SET 'table.exec.resource.default-parallelism' = '1';
SET 'pipeline.name' = 'nightly job';
SET 'table.dml-sync' = 'true';
SET 'table.optimizer.join-reorder-enabled' = 'true';
SET 'table.exec.sort.default-limit' = '200';
SET 'table.exec.state.ttl' = '1 h';
SET 'table.display.max-column-width' = '40';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'maybe';
SET table.exec.mini-batch.enabled = true;
SET table.exec.mini-batch.allow-latency = 5s;
SET table.exec.mini-batch.size = 1000;
RESET table.exec.mini-batch.size;
RESET 'table.dml-sync';
RESET;
SELECT 1 + 1 AS two;
CREATE TABLE t (a INT NOT NULL, b STRING) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '3',
  'fields.a.kind' = 'sequence',
  'fields.a.start' = '1',
  'fields.a.end' = '3',
  'fields.b.length' = '4'
);
SELECT a, CHAR_LENGTH(b) AS len FROM t;
SHOW MODULES;
SHOW FULL MODULES;
SHOW USER FUNCTIONS;
SHOW FUNCTIONS LIKE 'JSON_OBJ%';
SHOW FUNCTIONS LIKE '%upper%';
SHOW FUNCTIONS ILIKE 'CHAR_L%';
