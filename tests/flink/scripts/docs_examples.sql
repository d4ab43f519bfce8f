-- The examples of Flink 2.3's SQL pages (SHOW, DESCRIBE, ALTER, USE, CREATE CATALOG, DATABASE,
-- TABLE, VIEW and FUNCTION, EXPLAIN, LOAD and UNLOAD MODULE, SET and RESET, statement sets), as
-- a user would try them: each page's statements in order, with datagen for their connectors.
-- folders: sink copy
SHOW CATALOGS;
SHOW CURRENT CATALOG;
SHOW DATABASES;
SHOW CURRENT DATABASE;
CREATE TABLE my_table (field1 INT, field2 BYTES) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
SHOW TABLES;
SHOW COLUMNS FROM my_table LIKE '%f%';
CREATE VIEW my_view AS SELECT * FROM my_table;
SHOW VIEWS;
SHOW CREATE VIEW my_view;
SHOW MODULES;
SHOW FULL MODULES;
CREATE TABLE orders (
  order_id BIGINT NOT NULL comment 'this is the primary key, named ''order_id''.',
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3) comment 'notice: watermark, named ''ts''.',
  ptime AS PROCTIME() comment 'notice: computed column, named ''ptime''.',
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND,
  CONSTRAINT `PK_order_id` PRIMARY KEY (order_id) NOT ENFORCED
) WITH (
  'connector' = 'datagen'
);
SHOW CREATE TABLE orders;
CREATE DATABASE db1;
CREATE TABLE db1.person (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
CREATE TABLE db1.dim (id INT, dim STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SHOW TABLES FROM db1;
SHOW TABLES FROM default_catalog.db1;
SHOW TABLES IN db1;
SHOW TABLES IN default_catalog.db1;
SHOW TABLES FROM db1 LIKE '%n';
SHOW TABLES IN default_catalog.db1 LIKE '%n';
SHOW TABLES FROM db1 NOT LIKE '%n';
SHOW TABLES IN default_catalog.db1 NOT LIKE '%n';
CREATE TABLE db1.orders (
  `user` BIGINT NOT NULL,
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  PRIMARY KEY(`user`) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) WITH ('connector' = 'datagen');
SHOW COLUMNS FROM db1.orders LIKE '%r';
SHOW COLUMNS IN default_catalog.db1.orders LIKE '%r';
SHOW COLUMNS FROM db1.orders NOT LIKE '%_r';
SHOW PROCEDURES;
SHOW PARTITIONS db1.person;
SHOW JARS;
SHOW JOBS;
CREATE TABLE Orders2 (
 `user` BIGINT NOT NULl comment 'this is primary key',
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3) comment 'notice: watermark',
 ptime AS PROCTIME() comment 'this is a computed column',
 PRIMARY KEY(`user`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with ('connector' = 'datagen');
DESCRIBE Orders2;
DESC Orders2;
CREATE CATALOG cat2 WITH ('type' = 'generic_in_memory', 'default-database' = 'db');
SHOW CREATE CATALOG cat2;
DESCRIBE CATALOG cat2;
DESC CATALOG EXTENDED cat2;
ALTER CATALOG cat2 SET ('k1' = 'v1');
CREATE CATALOG cat3 WITH ('type' = 'generic_in_memory', 'k1' = 'v1');
CREATE CATALOG cat4 WITH ('type' = 'generic_in_memory', 'property-version' = '1');
SHOW CATALOGS;
ALTER CATALOG cat2 RESET ('k1');
ALTER CATALOG cat2 COMMENT 'comment for catalog ''cat2''';
DESCRIBE CATALOG cat2;
USE CATALOG cat2;
SHOW DATABASES;
CREATE DATABASE db2 COMMENT 'db2 comment' WITH ('k1' = 'v1');
SHOW DATABASES;
USE db2;
SHOW CURRENT DATABASE;
ALTER DATABASE db2 SET ('k1' = 'v2', 'k2' = 'v3');
USE CATALOG default_catalog;
USE MODULES core;
SHOW FULL MODULES;
LOAD MODULE core;
UNLOAD MODULE core;
SHOW MODULES;
LOAD MODULE core;
SHOW FULL MODULES;
CREATE TABLE Orders (`user` BIGINT, product STRING, amount INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
ALTER TABLE Orders ADD `order` INT COMMENT 'order identifier' FIRST;
DESCRIBE Orders;
ALTER TABLE Orders ADD (ts TIMESTAMP(3), category STRING AFTER product, PRIMARY KEY(`order`) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '1' HOUR);
DESCRIBE Orders;
ALTER TABLE Orders MODIFY (amount DOUBLE NOT NULL, category STRING COMMENT 'category identifier' AFTER `order`, WATERMARK FOR ts AS ts);
SHOW CREATE TABLE Orders;
ALTER TABLE Orders DROP WATERMARK;
ALTER TABLE Orders DROP PRIMARY KEY;
ALTER TABLE Orders DROP (amount, ts, category);
ALTER TABLE Orders RENAME `order` TO order_id;
DESCRIBE Orders;
ALTER TABLE Orders SET ('number-of-rows' = '5');
ALTER TABLE Orders RESET ('number-of-rows');
ALTER TABLE Orders RENAME TO NewOrders;
SHOW TABLES LIKE '%rders%';
CREATE TABLE MyTable1 (`count` BIGINT, word VARCHAR(256)) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE MyTable2 (`count` BIGINT, word VARCHAR(256)) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
EXPLAIN PLAN FOR SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2;
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE, JSON_EXECUTION_PLAN SELECT `count`, COUNT(word) FROM (SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2) tmp GROUP BY `count`;
EXPLAIN CHANGELOG_MODE SELECT `count` FROM MyTable1;
EXPLAIN NO_SUCH_DETAIL SELECT `count` FROM MyTable1;
SET 'table.local-time-zone' = 'Europe/Berlin';
SET 'table.exec.state.ttl' = '1000';
RESET 'table.local-time-zone';
RESET;
CREATE TABLE sink1 (a BIGINT, b STRING) WITH ('connector' = 'filesystem', 'path' = '${tmp}/sink', 'format' = 'csv');
EXECUTE STATEMENT SET BEGIN INSERT INTO sink1 SELECT `count`, word FROM MyTable1 WHERE `count` IS NULL; INSERT INTO sink1 VALUES (1, 'one'); END;
SELECT * FROM sink1;
CREATE TEMPORARY VIEW tv AS SELECT 1 AS one;
CREATE OR REPLACE TABLE copy_of WITH ('connector' = 'filesystem', 'path' = '${tmp}/copy', 'format' = 'csv') AS SELECT * FROM sink1;
SELECT * FROM copy_of;
CREATE TABLE derived WITH ('number-of-rows' = '1') LIKE my_table (EXCLUDING OPTIONS);
CREATE TABLE derived2 (extra INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1') LIKE my_table;
SHOW COLUMNS FROM derived2;
CREATE TABLE dist (uid BIGINT, name STRING) DISTRIBUTED BY HASH(uid) INTO 4 BUCKETS WITH ('connector' = 'datagen', 'number-of-rows' = '1');
DROP VIEW my_view;
DROP TABLE IF EXISTS my_table;
DROP DATABASE db1 CASCADE;
DROP CATALOG cat2;
SHOW CATALOGS;
