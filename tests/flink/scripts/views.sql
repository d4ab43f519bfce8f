-- Views over a bounded datagen source: permanent and temporary views, SHOW VIEWS, SHOW CREATE
-- VIEW, ALTER VIEW, and what a query over them gives.
CREATE TABLE nums (
  n INT NOT NULL,
  label STRING
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '10',
  'fields.n.kind' = 'sequence',
  'fields.n.start' = '1',
  'fields.n.end' = '10',
  'fields.label.length' = '5'
);
CREATE VIEW evens AS SELECT n FROM nums WHERE n % 2 = 0;
CREATE VIEW IF NOT EXISTS evens AS SELECT n FROM nums;
CREATE VIEW evens AS SELECT n FROM nums;
CREATE VIEW squares (n, sq) COMMENT 'n and its square' AS SELECT n, n * n FROM nums;
SHOW VIEWS;
SHOW TABLES;
SELECT * FROM evens;
SELECT n, sq FROM squares WHERE n > 7 ORDER BY n DESC;
SHOW COLUMNS FROM squares;
SHOW CREATE VIEW evens;
SHOW CREATE VIEW squares;
SHOW CREATE VIEW nums;
SHOW CREATE TABLE evens;
CREATE TEMPORARY VIEW small AS SELECT n FROM nums WHERE n < 4;
SHOW VIEWS;
SELECT COUNT(*) AS c, SUM(n) AS s FROM small;
CREATE VIEW on_view AS SELECT n * 10 AS tens FROM evens;
SELECT * FROM on_view ORDER BY tens;
ALTER VIEW evens AS SELECT n FROM nums WHERE n % 2 = 1;
SELECT * FROM evens ORDER BY n;
SELECT * FROM on_view ORDER BY tens;
ALTER VIEW evens RENAME TO odds;
SHOW VIEWS;
SELECT COUNT(*) FROM odds;
SELECT * FROM evens;
ALTER VIEW nowhere RENAME TO elsewhere;
DROP VIEW squares;
DROP VIEW squares;
DROP VIEW IF EXISTS squares;
DROP TABLE odds;
DROP VIEW nums;
DROP TEMPORARY VIEW small;
DROP TEMPORARY VIEW IF EXISTS small;
SHOW VIEWS;
CREATE VIEW bad AS SELECT missing FROM nums;
CREATE VIEW bad2 AS SELECT * FROM missing_table;
SHOW VIEWS;
