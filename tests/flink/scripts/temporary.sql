-- Temporary tables and views next to permanent ones: listing, shadowing, dropping, and tables
-- named with two and three parts across databases.
CREATE TABLE base (k INT NOT NULL, v STRING) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '4',
  'fields.k.kind' = 'sequence',
  'fields.k.start' = '1',
  'fields.k.end' = '4',
  'fields.v.length' = '3'
);
CREATE TEMPORARY TABLE tmp_sink (k INT) WITH ('connector' = 'blackhole');
CREATE TEMPORARY TABLE IF NOT EXISTS tmp_sink (k INT) WITH ('connector' = 'blackhole');
CREATE TEMPORARY TABLE tmp_sink (k INT) WITH ('connector' = 'blackhole');
SHOW TABLES;
SHOW CREATE TABLE tmp_sink;
INSERT INTO tmp_sink SELECT k FROM base;
CREATE TEMPORARY TABLE base (k INT NOT NULL) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '2',
  'fields.k.kind' = 'sequence',
  'fields.k.start' = '50',
  'fields.k.end' = '51'
);
SELECT k FROM base;
DROP TEMPORARY TABLE base;
SELECT k FROM base;
DROP TEMPORARY TABLE base;
DROP TEMPORARY TABLE IF EXISTS base;
DROP TABLE tmp_sink;
SHOW TABLES;
CREATE TEMPORARY VIEW top2 AS SELECT k FROM base WHERE k > 2;
SELECT * FROM top2;
SHOW VIEWS;
DROP VIEW top2;
SHOW VIEWS;
CREATE DATABASE other;
CREATE TABLE other.mirror (k INT NOT NULL) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '3',
  'fields.k.kind' = 'sequence',
  'fields.k.start' = '2',
  'fields.k.end' = '4'
);
CREATE TEMPORARY TABLE other.scratch (k INT) WITH ('connector' = 'blackhole');
SHOW TABLES FROM other;
SELECT b.k FROM base AS b JOIN other.mirror AS m ON b.k = m.k ORDER BY b.k;
SELECT COUNT(*) AS c FROM default_catalog.other.mirror;
INSERT INTO default_catalog.other.scratch SELECT k FROM default_catalog.default_database.base;
SELECT * FROM mirror;
USE other;
SELECT SUM(k) AS s FROM mirror;
SELECT COUNT(*) AS c FROM default_database.base;
SHOW TABLES;
DROP DATABASE other;
USE default_database;
DROP TEMPORARY TABLE other.scratch;
DROP TABLE other.mirror;
DROP DATABASE other;
SHOW DATABASES;
