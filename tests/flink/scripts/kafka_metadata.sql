-- jars: flink-sql-connector-kafka
-- FLIP-348's example: a Kafka table with metadata columns, described and explained under each
-- table.column-expansion-strategy.
CREATE TABLE events (
  id BIGINT,
  payload STRING,
  `offset` BIGINT METADATA VIRTUAL,
  `partition` INT METADATA,
  `timestamp` TIMESTAMP_LTZ(3) METADATA VIRTUAL,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  part_no INT METADATA FROM 'partition' VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = 'events',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json'
);
CREATE TABLE sink_all (
  id BIGINT,
  payload STRING,
  `partition` INT,
  ts TIMESTAMP_LTZ(3)
) WITH ('connector' = 'blackhole');
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, `offset`, ts FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, `offset`, `timestamp` FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, ts, part_no FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS,EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN INSERT INTO sink_all SELECT *, ts FROM events;
EXPLAIN SELECT e.*, e.`offset` FROM events AS e;
INSERT INTO sink_all SELECT * FROM events;
RESET 'table.column-expansion-strategy';
EXPLAIN INSERT INTO sink_all SELECT id, payload, `partition`, ts FROM events;
CREATE TABLE bad_key (id BIGINT, o BIGINT METADATA FROM 'no-such-key') WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
EXPLAIN SELECT * FROM bad_key;
CREATE TABLE bad_type (id BIGINT, `offset` STRING METADATA VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
EXPLAIN SELECT * FROM bad_type;
