-- Gaps of Flink's statements: SHOW CREATE VIEW of a view with a column list, SHOW FUNCTIONS of
-- a named database, CREATE OR ALTER MATERIALIZED TABLE, and temporary tables in a database that
-- was dropped or never made. A materialized table is not read here: Flink's TableEnvironment
-- makes it without a connector (nothing reads it) and runs no refresh.
CREATE TABLE nums (
  n INT NOT NULL,
  label STRING
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '6',
  'fields.n.kind' = 'sequence',
  'fields.n.start' = '1',
  'fields.n.end' = '6',
  'fields.label.length' = '1'
);
CREATE VIEW named (k, twice) AS SELECT n, n * 2 FROM nums WHERE n > 2;
SHOW CREATE VIEW named;
SELECT k, twice FROM named ORDER BY k;
CREATE VIEW named_sub (total) COMMENT 'one column' AS SELECT SUM(n) FROM (SELECT n FROM nums) AS t;
SHOW CREATE VIEW named_sub;
CREATE TEMPORARY VIEW named_tmp (x) AS SELECT label FROM nums;
SHOW CREATE VIEW named_tmp;
ALTER VIEW named RENAME TO renamed;
SHOW CREATE VIEW renamed;
CREATE DATABASE side;
SET 'python.allowed-modules' = 'tests.helpers.udfs';
CREATE FUNCTION side.twice AS 'tests.helpers.udfs.twice' LANGUAGE PYTHON;
CREATE TEMPORARY FUNCTION side.back AS 'tests.helpers.udfs.backwards' LANGUAGE PYTHON;
CREATE FUNCTION here AS 'tests.helpers.udfs.twice' LANGUAGE PYTHON;
CREATE TEMPORARY SYSTEM FUNCTION everywhere AS 'tests.helpers.udfs.backwards' LANGUAGE PYTHON;
SHOW USER FUNCTIONS;
SHOW USER FUNCTIONS FROM side;
SHOW USER FUNCTIONS IN side;
SHOW USER FUNCTIONS IN default_catalog.side;
SHOW USER FUNCTIONS FROM default_database;
SHOW USER FUNCTIONS IN default_catalog.default_database LIKE 'h%';
SHOW USER FUNCTIONS FROM side LIKE 't%';
SHOW USER FUNCTIONS FROM side NOT LIKE 't%';
SHOW USER FUNCTIONS FROM side ILIKE 'TW%';
SHOW USER FUNCTIONS FROM side NOT ILIKE 'TW%';
SHOW FUNCTIONS FROM side LIKE 't%';
SHOW FUNCTIONS IN default_catalog.side ILIKE 'B%';
SHOW FUNCTIONS FROM side LIKE 'json%';
SHOW USER FUNCTIONS FROM nowhere;
SHOW USER FUNCTIONS FROM no_catalog.side;
USE side;
SHOW USER FUNCTIONS;
USE default_database;
DROP TEMPORARY FUNCTION side.back;
SHOW USER FUNCTIONS FROM side;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT label, COUNT(*) AS c FROM nums GROUP BY label;
SHOW TABLES;
DESCRIBE counts;
CREATE OR ALTER MATERIALIZED TABLE counts COMMENT 'not applied' FRESHNESS = INTERVAL '1' HOUR AS SELECT label, COUNT(*) AS c, MIN(label) AS top FROM nums GROUP BY label;
DESCRIBE counts;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT label FROM nums;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT label, COUNT(*) AS d, MIN(label) AS top FROM nums GROUP BY label;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT label, CAST(COUNT(*) AS INT) AS c, MIN(label) AS top FROM nums GROUP BY label;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT c, label, top FROM counts;
DESCRIBE counts;
CREATE OR ALTER MATERIALIZED TABLE nums AS SELECT label FROM nums;
CREATE OR ALTER MATERIALIZED TABLE renamed AS SELECT n FROM nums;
CREATE OR ALTER MATERIALIZED TABLE IF NOT EXISTS counts AS SELECT label FROM nums;
CREATE OR ALTER MATERIALIZED TABLE side.more AS SELECT n FROM nums WHERE n < 3;
CREATE OR ALTER MATERIALIZED TABLE nowhere.t AS SELECT n FROM nums;
CREATE OR ALTER TABLE t2 AS SELECT n FROM nums;
ALTER MATERIALIZED TABLE nums AS SELECT label FROM nums;
ALTER MATERIALIZED TABLE missing AS SELECT label FROM nums;
DROP MATERIALIZED TABLE counts;
CREATE OR ALTER MATERIALIZED TABLE counts AS SELECT n FROM nums;
CREATE TEMPORARY TABLE side.t (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
CREATE TEMPORARY VIEW side.v AS SELECT 7 AS seven;
DROP DATABASE side CASCADE;
SHOW DATABASES;
SELECT COUNT(*) AS c FROM side.t;
DROP TEMPORARY TABLE side.t;
DROP TEMPORARY TABLE side.t;
DROP TEMPORARY TABLE IF EXISTS side.t;
DROP TEMPORARY VIEW side.v;
DROP TEMPORARY VIEW IF EXISTS side.v;
SELECT COUNT(*) AS c FROM side.t;
CREATE TEMPORARY TABLE never.t (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
SELECT COUNT(*) AS c FROM never.t;
SHOW DATABASES;
CREATE TEMPORARY VIEW never.v AS SELECT k FROM never.t WHERE k IS NOT NULL;
SELECT COUNT(*) AS c FROM never.v;
DROP TEMPORARY VIEW never.v;
DROP TEMPORARY TABLE never.t;
DROP TEMPORARY TABLE never.t;
DROP TEMPORARY TABLE IF EXISTS never.t;
CREATE TABLE never.p (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
DROP TEMPORARY TABLE no_catalog.db.t;
DROP TEMPORARY TABLE IF EXISTS no_catalog.db.t;
