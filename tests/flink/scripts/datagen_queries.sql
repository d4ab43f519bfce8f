-- Queries over bounded datagen tables (sequence fields, so the rows are known), written to
-- blackhole sinks: filters, aggregates, joins, set operations, windows of rows, and errors.
CREATE TABLE orders (
  order_id INT NOT NULL,
  customer_id INT NOT NULL,
  amount INT NOT NULL
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '12',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '12',
  'fields.customer_id.kind' = 'sequence',
  'fields.customer_id.start' = '101',
  'fields.customer_id.end' = '112',
  'fields.amount.kind' = 'sequence',
  'fields.amount.start' = '10',
  'fields.amount.end' = '21'
);
CREATE TABLE customers (
  id INT NOT NULL,
  region_code INT NOT NULL,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '8',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '100',
  'fields.id.end' = '107',
  'fields.region_code.kind' = 'sequence',
  'fields.region_code.start' = '1',
  'fields.region_code.end' = '8'
);
SELECT * FROM orders;
SELECT COUNT(*) AS n FROM orders;
SELECT order_id, amount FROM orders WHERE amount > 18 ORDER BY order_id;
SELECT order_id % 3 AS bucket, COUNT(*) AS cnt, SUM(amount) AS total, MIN(amount) AS lo, MAX(amount) AS hi FROM orders GROUP BY order_id % 3;
SELECT order_id % 3 AS bucket, AVG(amount) AS mean FROM orders GROUP BY order_id % 3 HAVING AVG(amount) > 15 ORDER BY bucket;
SELECT o.order_id, c.region_code FROM orders AS o JOIN customers AS c ON o.customer_id = c.id ORDER BY o.order_id;
SELECT o.order_id, c.region_code FROM orders AS o LEFT JOIN customers AS c ON o.customer_id = c.id WHERE o.order_id > 6 ORDER BY o.order_id;
SELECT id FROM customers WHERE id NOT IN (SELECT customer_id FROM orders);
SELECT customer_id FROM orders WHERE order_id <= 3 UNION ALL SELECT id FROM customers WHERE id <= 101;
SELECT customer_id FROM orders INTERSECT SELECT id FROM customers;
SELECT id FROM customers EXCEPT SELECT customer_id FROM orders;
SELECT order_id, amount, SUM(amount) OVER (ORDER BY order_id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS run_total FROM orders WHERE order_id <= 5;
SELECT order_id, ROW_NUMBER() OVER (PARTITION BY order_id % 2 ORDER BY amount DESC) AS rn FROM orders WHERE order_id <= 6;
SELECT * FROM (SELECT order_id, RANK() OVER (ORDER BY amount DESC) AS r FROM orders) WHERE r <= 3;
SELECT order_id, CASE WHEN amount < 15 THEN 'small' WHEN amount < 20 THEN 'medium' ELSE 'large' END AS size FROM orders ORDER BY order_id LIMIT 4;
SELECT CAST(amount AS DOUBLE) / 4 AS quarter, CAST(order_id AS STRING) || '-x' AS tag FROM orders WHERE order_id IN (1, 2);
SELECT DISTINCT order_id % 4 AS m FROM orders;
SELECT order_id FROM orders ORDER BY amount DESC LIMIT 3;
SELECT order_id FROM orders ORDER BY order_id LIMIT 2 OFFSET 5;
WITH big AS (SELECT * FROM orders WHERE amount >= 19) SELECT COUNT(*) AS c, SUM(amount) AS s FROM big;
SELECT COUNT(DISTINCT customer_id % 5) AS d FROM orders;
CREATE TABLE sink (order_id INT, amount INT) WITH ('connector' = 'blackhole');
INSERT INTO sink SELECT order_id, amount FROM orders WHERE amount > 15;
INSERT INTO sink VALUES (1, 2), (3, 4);
INSERT INTO sink (order_id) VALUES (5);
INSERT INTO sink SELECT order_id FROM orders;
INSERT INTO sink SELECT 'x', amount FROM orders;
INSERT INTO orders VALUES (1, 2, 3);
SELECT * FROM sink;
SELECT missing FROM orders;
SELECT * FROM no_table;
SELECT order_id FROM orders GROUP BY customer_id;
SELECT amount FROM orders WHERE;
CREATE TABLE unbounded (x INT) WITH ('connector' = 'datagen');
SELECT x FROM unbounded LIMIT 0;
CREATE TABLE limited (x INT NOT NULL) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.x.min' = '7', 'fields.x.max' = '7');
SELECT x, COUNT(*) AS c FROM limited GROUP BY x;
