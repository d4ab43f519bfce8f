-- Flink's CREATE TABLE: keys, watermarks, computed and metadata columns, comments, partitions,
-- LIKE, and how SHOW COLUMNS, DESCRIBE and SHOW CREATE TABLE show them.
CREATE TABLE orders (
  order_id BIGINT NOT NULL,
  customer STRING COMMENT 'who ordered',
  amount DECIMAL(10, 2),
  quantity INT,
  ts TIMESTAMP(3),
  total AS amount * quantity,
  PRIMARY KEY (order_id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'all orders' WITH ('connector' = 'blackhole');
SHOW TABLES;
SHOW COLUMNS FROM orders;
SHOW COLUMNS FROM orders LIKE '%t%';
SHOW COLUMNS IN orders NOT LIKE '%t%';
DESCRIBE orders;
DESC orders;
SHOW CREATE TABLE orders;
CREATE TABLE IF NOT EXISTS orders (x INT) WITH ('connector' = 'blackhole');
SHOW COLUMNS FROM orders LIKE 'x';
CREATE TABLE orders (x INT) WITH ('connector' = 'blackhole');
CREATE TABLE items (
  item_id INT PRIMARY KEY NOT ENFORCED,
  name VARCHAR(40) NOT NULL,
  price DOUBLE
) WITH ('connector' = 'blackhole');
SHOW COLUMNS FROM items;
SHOW CREATE TABLE items;
CREATE TABLE keyed (
  a INT NOT NULL,
  b STRING NOT NULL,
  c INT,
  CONSTRAINT ab_key PRIMARY KEY (a, b) NOT ENFORCED
) WITH ('connector' = 'blackhole');
SHOW COLUMNS FROM keyed;
SHOW CREATE TABLE keyed;
CREATE TABLE events (
  id BIGINT,
  kind STRING,
  dt STRING,
  payload STRING
) PARTITIONED BY (dt, kind) WITH ('connector' = 'blackhole');
SHOW CREATE TABLE events;
CREATE TABLE clicks (
  user_id BIGINT,
  url STRING,
  click_time TIMESTAMP(3),
  proc AS PROCTIME(),
  WATERMARK FOR click_time AS click_time
) WITH ('connector' = 'blackhole');
SHOW COLUMNS FROM clicks;
CREATE TABLE kafka_events (
  id BIGINT,
  body STRING,
  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  `partition` INT METADATA VIRTUAL,
  `offset` BIGINT METADATA VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = 'events',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json'
);
SHOW COLUMNS FROM kafka_events;
SHOW CREATE TABLE kafka_events;
CREATE TABLE orders_copy LIKE orders;
SHOW COLUMNS FROM orders_copy;
CREATE TABLE orders_plain (note STRING) LIKE orders (EXCLUDING ALL);
SHOW COLUMNS FROM orders_plain;
CREATE TABLE orders_gen (extra INT) WITH ('connector' = 'blackhole') LIKE orders (EXCLUDING CONSTRAINTS INCLUDING GENERATED EXCLUDING WATERMARKS);
SHOW CREATE TABLE orders_gen;
CREATE TABLE like_missing LIKE no_such_table;
CREATE TABLE bad_key (a INT, PRIMARY KEY (a)) WITH ('connector' = 'blackhole');
CREATE TABLE bad_key2 (a INT, PRIMARY KEY (b) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE bad_watermark (a INT, WATERMARK FOR a AS a) WITH ('connector' = 'blackhole');
CREATE TABLE bad_watermark2 (ts TIMESTAMP(3), WATERMARK FOR missing AS missing) WITH ('connector' = 'blackhole');
CREATE TABLE dup_column (a INT, a STRING) WITH ('connector' = 'blackhole');
CREATE TABLE no_paren WITH ('connector' = 'blackhole');
SHOW TABLES;
SHOW TABLES LIKE 'orders%';
DROP TABLE orders_copy;
DROP TABLE orders_copy;
DROP TABLE IF EXISTS orders_copy;
SHOW TABLES LIKE 'orders%';
