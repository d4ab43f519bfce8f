-- jars: flink-sql-connector-kafka
-- FLIP-348's example: a Kafka table with metadata columns, described and explained under each
-- table.column-expansion-strategy.
CREATE TABLE events (
  id BIGINT,
  payload STRING,
  `offset` BIGINT METADATA VIRTUAL,
  `partition` INT METADATA VIRTUAL,
  `timestamp` TIMESTAMP_LTZ(3) METADATA,
  topic_name STRING METADATA FROM 'topic' VIRTUAL,
  epoch INT METADATA FROM 'leader-epoch' VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = 'events',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
);
CREATE TABLE sink_all (
  id BIGINT,
  payload STRING,
  `timestamp` TIMESTAMP_LTZ(3),
  topic_name STRING
) WITH ('connector' = 'blackhole');
CREATE TABLE two_keys (id BIGINT, `timestamp` TIMESTAMP_LTZ(3) METADATA VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bad_key (id BIGINT, o BIGINT METADATA FROM 'no-such-key') WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
EXPLAIN SELECT * FROM bad_key;
CREATE TABLE bad_type (id BIGINT, `offset` ARRAY<INT> METADATA VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
EXPLAIN SELECT * FROM bad_type;
CREATE TABLE cast_type (id BIGINT, `offset` STRING METADATA VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
EXPLAIN SELECT * FROM cast_type;
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, `offset`, topic_name FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, `offset`, `partition` FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id, topic_name, epoch FROM events;
SET 'table.column-expansion-strategy' = 'EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS';
DESCRIBE events;
SHOW COLUMNS FROM events;
SHOW CREATE TABLE events;
EXPLAIN SELECT * FROM events;
EXPLAIN INSERT INTO sink_all SELECT *, topic_name FROM events;
EXPLAIN SELECT e.*, e.`offset` FROM events AS e;
EXPLAIN INSERT INTO sink_all SELECT * FROM events;
RESET 'table.column-expansion-strategy';
EXPLAIN INSERT INTO sink_all SELECT id, payload, `timestamp`, topic_name FROM events;
