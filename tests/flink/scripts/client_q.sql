-- Statements of Flink's SQL client and gateway tests (flink-sql-client's select_batch.q and
-- insert.q, flink-sql-gateway's table.q), in their order; without the two queries of TIME and
-- INTERVAL values, whose rows PyFlink cannot collect.
-- folders: batch
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv
FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str)
GROUP BY id;
SET 'table.local-time-zone' = 'UTC';
CREATE TEMPORARY VIEW
  testUserData(name, dob, isHappy)
AS (VALUES
  ('30b5c1bb-0ac0-43d3-b812-fcb649fd2b07', TIMESTAMP '2001-01-13 20:11:11.123', true),
  ('91170c98-2cc5-4935-9ea6-12b72d32fb3c', TIMESTAMP '1994-02-14 21:12:11.123', true),
  ('8b012d93-6ece-48ad-a2ea-aa75ef7b1d60', TIMESTAMP '1979-03-15 22:13:11.123', false),
  ('09969d9e-d584-11eb-b8bc-0242ac130003', TIMESTAMP '1985-04-16 23:14:11.123', true)
);
SELECT * from testUserData;
SET 'table.display.max-column-width' = '10';
SELECT * from testUserData;
SET 'table.display.max-column-width' = '40';
DROP TEMPORARY VIEW testUserData;
SET 'table.display.max-column-width' = '30';
SET 'table.dml-sync' = 'true';
create table BatchTable (
  id int,
  str string
) with (
  'connector' = 'filesystem',
  'path' = '${tmp}/batch',
  'format' = 'csv'
);
INSERT INTO BatchTable SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'), (3, 'Hello'), (3, 'World'), (4, 'ADD'), (5, 'LINE'));
SELECT * FROM BatchTable;
create table tbl(a int, b as invalid_function());
drop table non_exist;
describe non_exist;
desc non_exist;
alter table non_exist rename to non_exist2;
CREATE TABLE IF NOT EXISTS orders (
 `user` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3),
 ptime AS PROCTIME(),
 PRIMARY KEY(`user`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with (
 'connector' = 'datagen'
);
show tables;
show create table orders;
show columns from orders like '%u';
show columns in orders like 'use_';
alter table orders rename to orders2;
alter table orders2 set ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');
show create table orders2;
alter table orders2 set ('connector' = 'datagen');
alter table orders2 reset ('scan.startup.mode');
show create table orders2;
