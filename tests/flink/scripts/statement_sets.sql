-- INSERTs into filesystem tables (CSV files under a fresh folder, ${tmp}), one at a time and in
-- statement sets, then SELECTs of what they wrote; CREATE TABLE ... AS SELECT. The folders of
-- the tables exist before the script runs, but for the table `fresh`.
-- folders: low high totals copied parts
CREATE TABLE src (
  id INT NOT NULL,
  grp INT NOT NULL
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '6',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '6',
  'fields.grp.min' = '1',
  'fields.grp.max' = '1'
);
CREATE TABLE low (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${tmp}/low', 'format' = 'csv');
CREATE TABLE high (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${tmp}/high', 'format' = 'csv');
CREATE TABLE totals (grp INT, total BIGINT, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${tmp}/totals', 'format' = 'csv');
SELECT * FROM low;
INSERT INTO low VALUES (0, 'zero');
SELECT * FROM low;
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO low SELECT id, 'low' FROM src WHERE id <= 3;
  INSERT INTO high SELECT id, 'high' FROM src WHERE id > 3;
END;
SELECT * FROM low ORDER BY id;
SELECT * FROM high ORDER BY id;
BEGIN STATEMENT SET;
INSERT INTO totals SELECT grp, SUM(id), COUNT(*) FROM src GROUP BY grp;
INSERT INTO high VALUES (7, 'seven');
END;
SELECT * FROM totals;
SELECT COUNT(*) AS c, MAX(id) AS m FROM high;
SELECT l.id, h.id FROM low AS l JOIN high AS h ON h.id = l.id + 3 ORDER BY l.id;
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO low VALUES (100, 'ok');
  INSERT INTO nowhere VALUES (1, 'x');
END;
SELECT COUNT(*) AS c FROM low;
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO low VALUES (100, 'ok');
  INSERT INTO high SELECT id FROM src;
END;
SELECT COUNT(*) AS c FROM low;
INSERT OVERWRITE high SELECT id, 'again' FROM src WHERE id = 1;
SELECT * FROM high;
CREATE TABLE copied WITH ('connector' = 'filesystem', 'path' = '${tmp}/copied', 'format' = 'csv') AS SELECT id, id * id AS sq FROM src WHERE id < 4;
SHOW COLUMNS FROM copied;
SELECT * FROM copied ORDER BY id;
CREATE TABLE copied WITH ('connector' = 'filesystem', 'path' = '${tmp}/copied2', 'format' = 'csv') AS SELECT id FROM src;
CREATE TABLE IF NOT EXISTS copied WITH ('connector' = 'filesystem', 'path' = '${tmp}/copied3', 'format' = 'csv') AS SELECT id FROM src;
SELECT COUNT(*) AS c FROM copied;
CREATE TABLE parts (id INT, part STRING) PARTITIONED BY (part) WITH ('connector' = 'filesystem', 'path' = '${tmp}/parts', 'format' = 'csv');
INSERT INTO parts VALUES (1, 'a'), (2, 'b'), (3, 'a');
INSERT INTO parts PARTITION (part = 'c') SELECT 4;
SELECT * FROM parts ORDER BY id;
SELECT id FROM parts WHERE part = 'a' ORDER BY id;
CREATE TABLE fresh (id INT) WITH ('connector' = 'filesystem', 'path' = '${tmp}/fresh', 'format' = 'csv');
INSERT INTO fresh VALUES (1), (2);
SELECT * FROM fresh;
