-- Edges of Flink's statements: the functions SHOW FUNCTIONS lists, a view's COMMENT, DESCRIBE
-- with a column operand, CREATE TABLE IF NOT EXISTS ... AS SELECT into an existing table,
-- DROP DATABASE beside temporary tables, materialized tables renamed or replaced, and a field of
-- a nested ROW named as if it were a column.
-- folders: sink other
SHOW FUNCTIONS;
SHOW USER FUNCTIONS;
SHOW FUNCTIONS LIKE 'json%';
SHOW FUNCTIONS ILIKE 'json_q%';
SHOW FUNCTIONS LIKE '%ARRAY_%';
SHOW FUNCTIONS NOT LIKE '%_%';
SHOW FUNCTIONS LIKE 'to%';
CREATE TABLE nums (
  n INT NOT NULL,
  label STRING
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '5',
  'fields.n.kind' = 'sequence',
  'fields.n.start' = '1',
  'fields.n.end' = '5',
  'fields.label.length' = '3'
);
CREATE VIEW squares COMMENT 'each n and its square' AS SELECT n, n * n AS sq FROM nums;
SHOW CREATE VIEW squares;
DESCRIBE squares;
DESCRIBE EXTENDED squares;
ALTER VIEW squares AS SELECT n, n * n * 1 AS sq FROM nums;
SHOW CREATE VIEW squares;
ALTER VIEW squares RENAME TO squared;
SHOW CREATE VIEW squared;
CREATE TEMPORARY VIEW tsq COMMENT 'temporary, with a comment' AS SELECT n FROM nums;
SHOW CREATE VIEW tsq;
CREATE VIEW plain AS SELECT n FROM nums;
SHOW CREATE VIEW plain;
DESCRIBE nums n;
DESCRIBE nums label;
DESC nums n;
DESCRIBE EXTENDED nums n;
DESCRIBE TABLE nums;
CREATE TABLE sink (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '${tmp}/sink', 'format' = 'csv');
INSERT INTO sink VALUES (1, 'x');
CREATE TABLE IF NOT EXISTS sink WITH ('connector' = 'filesystem', 'path' = '${tmp}/other', 'format' = 'csv') AS SELECT n, CAST(n * 10 AS STRING) FROM nums WHERE n < 3;
SELECT * FROM sink ORDER BY a, b;
CREATE TABLE IF NOT EXISTS sink AS SELECT n, label, n FROM nums;
CREATE TABLE IF NOT EXISTS sink AS SELECT label, n FROM nums;
CREATE TABLE IF NOT EXISTS sink AS SELECT CAST(n AS BIGINT) AS big, label FROM nums WHERE n = 5;
SELECT * FROM sink ORDER BY a, b;
CREATE TABLE IF NOT EXISTS squared AS SELECT n, n FROM nums;
CREATE DATABASE side;
CREATE TEMPORARY TABLE side.t (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
CREATE TEMPORARY VIEW side.v AS SELECT 1 AS x1;
SHOW TABLES FROM side;
DROP DATABASE side;
SHOW DATABASES;
SELECT COUNT(*) AS c FROM side.t;
SELECT * FROM side.v;
CREATE DATABASE side;
SHOW TABLES FROM side;
DROP TEMPORARY TABLE side.t;
DROP TEMPORARY VIEW side.v;
DROP DATABASE side;
CREATE DATABASE full_db;
CREATE TABLE full_db.p (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
CREATE TEMPORARY TABLE full_db.t (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
DROP DATABASE full_db;
DROP DATABASE full_db CASCADE;
SHOW DATABASES;
SELECT COUNT(*) AS c FROM full_db.t;
SELECT COUNT(*) AS c FROM full_db.p;
CREATE MATERIALIZED TABLE totals AS SELECT label, COUNT(*) AS c FROM nums GROUP BY label;
ALTER MATERIALIZED TABLE totals RENAME TO sums;
ALTER TABLE totals RENAME TO sums;
SHOW TABLES;
CREATE OR REPLACE MATERIALIZED TABLE sums AS SELECT n FROM nums;
CREATE OR REPLACE MATERIALIZED TABLE fresh AS SELECT n FROM nums;
SELECT x FROM (SELECT CAST((1, ROW(2)) AS ROW<a INT, n ROW<x INT>>) UNION ALL SELECT CAST((3, ROW(4)) AS ROW<a INT, n ROW<x INT>>));
SELECT x FROM (SELECT CAST((1, ROW(2)) AS ROW<a INT, n ROW<x INT>>));
SELECT a FROM (SELECT CAST((1, ROW(2)) AS ROW<a INT, n ROW<x INT>>) UNION ALL SELECT CAST((3, ROW(4)) AS ROW<a INT, n ROW<x INT>>));
SELECT r.n.x FROM (SELECT CAST((1, ROW(2)) AS ROW<a INT, n ROW<x INT>>) AS r UNION ALL SELECT CAST((3, ROW(4)) AS ROW<a INT, n ROW<x INT>>));
SELECT y FROM (SELECT CAST((1, ROW(2)) AS ROW<a INT, n ROW<x INT>>) UNION ALL SELECT CAST((3, ROW(4)) AS ROW<a INT, n ROW<x INT>>));
