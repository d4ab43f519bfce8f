-- The query examples of Flink 2.3's documentation (SELECT, WITH, ORDER BY, LIMIT, joins, group,
-- window and over aggregation, Top-N, deduplication, set operations), on tables filled with the
-- rows the pages show.
-- folders: bid orders product shipments left_t right_t t_sales
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/bid', 'format' = 'csv');
INSERT INTO Bid VALUES
  (TIMESTAMP '2020-04-15 08:05:00', 4.00, 'C', 'supplier1'),
  (TIMESTAMP '2020-04-15 08:07:00', 2.00, 'A', 'supplier1'),
  (TIMESTAMP '2020-04-15 08:09:00', 5.00, 'D', 'supplier2'),
  (TIMESTAMP '2020-04-15 08:11:00', 3.00, 'B', 'supplier2'),
  (TIMESTAMP '2020-04-15 08:13:00', 1.00, 'E', 'supplier1'),
  (TIMESTAMP '2020-04-15 08:17:00', 6.00, 'F', 'supplier2');
DESC Bid;
SELECT * FROM Bid;
SELECT * FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES));
SELECT * FROM TABLE(
   TUMBLE(
     DATA => TABLE Bid,
     TIMECOL => DESCRIPTOR(bidtime),
     SIZE => INTERVAL '10' MINUTES));
SELECT window_start, window_end, SUM(price)
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;
SELECT * FROM TABLE(
    HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES));
SELECT * FROM TABLE(
    HOP(
      DATA => TABLE Bid,
      TIMECOL => DESCRIPTOR(bidtime),
      SLIDE => INTERVAL '5' MINUTES,
      SIZE => INTERVAL '10' MINUTES));
SELECT window_start, window_end, SUM(price)
  FROM TABLE(
    HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;
SELECT * FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES));
SELECT * FROM TABLE(
    CUMULATE(
      DATA => TABLE Bid,
      TIMECOL => DESCRIPTOR(bidtime),
      STEP => INTERVAL '2' MINUTES,
      SIZE => INTERVAL '10' MINUTES));
SELECT window_start, window_end, SUM(price)
  FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;
SELECT * FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES));
SELECT * FROM TABLE(
   TUMBLE(
     DATA => TABLE Bid,
     TIMECOL => DESCRIPTOR(bidtime),
     SIZE => INTERVAL '10' MINUTES,
     OFFSET => INTERVAL '1' MINUTES));
SELECT window_start, window_end, SUM(price)
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES))
  GROUP BY window_start, window_end;
SELECT * FROM TABLE(
    SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES));
SELECT window_start, window_end, item, SUM(price) AS total_price
  FROM TABLE(
      SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY item, window_start, window_end;
SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
      SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY window_start, window_end;
SELECT window_start, window_end, supplier_id, SUM(price) as price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ());
SELECT window_start, window_end, supplier_id, SUM(price) as price
FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, ROLLUP (supplier_id);
SELECT window_start, window_end, item, supplier_id, SUM(price) as price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, CUBE (supplier_id, item);
SELECT window_start, window_end, item, supplier_id, SUM(price) as price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS (
      (supplier_id, item),
      (supplier_id      ),
      (             item),
      (                 )
);
CREATE VIEW window1 AS
SELECT window_start, window_end, window_time as rowtime, SUM(price) as partial_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY supplier_id, window_start, window_end, window_time;
SELECT window_start, window_end, SUM(partial_price) as total_price
  FROM TABLE(
      TUMBLE(TABLE window1, DESCRIPTOR(rowtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;
SELECT
  TUMBLE_START(bidtime, INTERVAL '10' MINUTE) AS wstart,
  TUMBLE_END(bidtime, INTERVAL '10' MINUTE) AS wend,
  TUMBLE_ROWTIME(bidtime, INTERVAL '10' MINUTE) AS wrowtime,
  SUM(price) AS total
FROM Bid
GROUP BY TUMBLE(bidtime, INTERVAL '10' MINUTE);
SELECT HOP_START(bidtime, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS wstart, COUNT(*) AS c
FROM Bid
GROUP BY HOP(bidtime, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE);
SELECT item, SESSION_START(bidtime, INTERVAL '3' MINUTE) AS wstart, SESSION_END(bidtime, INTERVAL '3' MINUTE) AS wend, SUM(price) AS s
FROM Bid
GROUP BY item, SESSION(bidtime, INTERVAL '3' MINUTE);
SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM (
      SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
      FROM TABLE(
        TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
      GROUP BY window_start, window_end, supplier_id
    )
  ) WHERE rownum <= 3;
SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 3;
SELECT *
  FROM (
    SELECT bidtime, price, item, supplier_id, window_start, window_end,
      ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 1;
CREATE TABLE LeftTable (
  row_time TIMESTAMP(3),
  num INT,
  id STRING,
  WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/left_t', 'format' = 'csv');
CREATE TABLE RightTable (
  row_time TIMESTAMP(3),
  num INT,
  id STRING,
  WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/right_t', 'format' = 'csv');
INSERT INTO LeftTable VALUES
  (TIMESTAMP '2020-04-15 12:02:00', 1, 'L1'),
  (TIMESTAMP '2020-04-15 12:06:00', 2, 'L2'),
  (TIMESTAMP '2020-04-15 12:03:00', 3, 'L3');
INSERT INTO RightTable VALUES
  (TIMESTAMP '2020-04-15 12:01:00', 2, 'R2'),
  (TIMESTAMP '2020-04-15 12:04:00', 3, 'R3'),
  (TIMESTAMP '2020-04-15 12:05:00', 4, 'R4');
SELECT L.num as L_Num, L.id as L_Id, R.num as R_Num, R.id as R_Id, L.window_start, L.window_end
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L
           FULL JOIN (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) R
           ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end;
SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE L.num IN (
             SELECT num FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end);
SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE EXISTS (
             SELECT * FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);
SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE L.num NOT IN (
             SELECT num FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end);
SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE NOT EXISTS (
             SELECT * FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);
CREATE TABLE Orders (
  order_id INT,
  `user` STRING,
  product STRING,
  amount INT,
  price DOUBLE,
  tax DOUBLE,
  status STRING,
  order_time TIMESTAMP(3),
  tags ARRAY<STRING>,
  WATERMARK FOR order_time AS order_time
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/orders', 'format' = 'json');
INSERT INTO Orders VALUES
  (1, 'ann', 'apple', 3, 2.5, 0.5, 'PENDING', TIMESTAMP '2020-04-15 08:00:00', ARRAY['a', 'b']),
  (2, 'bob', 'pear', 1, 4.0, 0.8, 'DONE', TIMESTAMP '2020-04-15 08:20:00', ARRAY['c']),
  (3, 'ann', 'apple', 5, 2.5, 0.5, 'PENDING', TIMESTAMP '2020-04-15 08:50:00', ARRAY['a']),
  (4, 'cid', 'plum', 2, 1.0, 0.2, 'DONE', TIMESTAMP '2020-04-15 10:00:00', ARRAY['d', 'e']),
  (4, 'cid', 'plum', 2, 1.0, 0.2, 'DONE', TIMESTAMP '2020-04-15 10:05:00', ARRAY['d', 'e']);
SELECT * FROM Orders;
SELECT order_id, price + tax FROM Orders;
SELECT order_id, price FROM (VALUES (1, 2.0), (2, 3.1))  AS t (order_id, price);
SELECT * FROM Orders WHERE status = 'PENDING';
SELECT DISTINCT order_id FROM Orders;
WITH orders_with_total AS (
    SELECT order_id, price + tax AS total
    FROM Orders
)
SELECT order_id, SUM(total)
FROM orders_with_total
GROUP BY order_id;
SELECT * FROM Orders ORDER BY order_time, order_id;
SELECT * FROM Orders ORDER BY order_time LIMIT 3;
SELECT COUNT(*) FROM Orders;
SELECT COUNT(*) FROM Orders GROUP BY order_id;
SELECT COUNT(DISTINCT order_id) FROM Orders;
SELECT supplier_id, rating, COUNT(*) AS total
FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)
GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ());
SELECT supplier_id, rating, COUNT(*)
FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)
GROUP BY ROLLUP (supplier_id, rating);
SELECT supplier_id, rating, product_id, COUNT(*)
FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)
GROUP BY CUBE (supplier_id, rating, product_id);
SELECT supplier_id, rating, product_id, COUNT(*)
FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)
GROUP BY GROUPING SET (
    ( supplier_id, product_id, rating ),
    (                                 )
);
SELECT SUM(amount)
FROM Orders
GROUP BY `user`
HAVING SUM(amount) > 5;
SELECT order_id, order_time, amount,
  SUM(amount) OVER (
    PARTITION BY product
    ORDER BY order_time
    RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW
  ) AS one_hour_prod_amount_sum
FROM Orders;
SELECT order_id, order_time, amount,
  SUM(amount) OVER w AS sum_amount,
  AVG(amount) OVER w AS avg_amount
FROM Orders
WINDOW w AS (
  PARTITION BY product
  ORDER BY order_time
  RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW);
SELECT order_id, amount,
  SUM(amount) OVER (ORDER BY order_time ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS s
FROM Orders;
SELECT order_id, `user`, product, amount
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY order_time ASC) AS row_num
  FROM Orders)
WHERE row_num = 1;
SELECT order_id, tag
FROM Orders CROSS JOIN UNNEST(tags) AS t (tag);
CREATE TABLE ShopSales (
  product_id   STRING,
  category     STRING,
  product_name STRING,
  sales        BIGINT
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/t_sales', 'format' = 'csv');
INSERT INTO ShopSales VALUES ('p1', 'fruit', 'apple', 10), ('p2', 'fruit', 'pear', 30),
  ('p3', 'veg', 'leek', 5), ('p4', 'fruit', 'plum', 20), ('p5', 'veg', 'kale', 7);
SELECT *
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num
  FROM ShopSales)
WHERE row_num <= 2;
SELECT product_id, category, product_name, sales
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num
  FROM ShopSales)
WHERE row_num <= 2;
CREATE TABLE Product (id STRING, name STRING) WITH ('connector' = 'filesystem', 'path' = '${tmp}/product', 'format' = 'csv');
INSERT INTO Product VALUES ('apple', 'Apple'), ('pear', 'Pear'), ('kiwi', 'Kiwi');
SELECT * FROM Orders INNER JOIN Product ON Orders.product = Product.id;
SELECT * FROM Orders LEFT JOIN Product ON Orders.product = Product.id;
SELECT * FROM Orders RIGHT JOIN Product ON Orders.product = Product.id;
SELECT * FROM Orders FULL OUTER JOIN Product ON Orders.product = Product.id;
CREATE TABLE Shipments (order_id INT, ship_time TIMESTAMP(3), WATERMARK FOR ship_time AS ship_time) WITH ('connector' = 'filesystem', 'path' = '${tmp}/shipments', 'format' = 'csv');
INSERT INTO Shipments VALUES (1, TIMESTAMP '2020-04-15 10:00:00'), (2, TIMESTAMP '2020-04-15 18:00:00');
SELECT *
FROM Orders o, Shipments s
WHERE o.order_id = s.order_id
AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time;
create view t1(s) as values ('c'), ('a'), ('b'), ('b'), ('c');
create view t2(s) as values ('d'), ('e'), ('a'), ('b'), ('b');
(SELECT s FROM t1) UNION (SELECT s FROM t2);
(SELECT s FROM t1) UNION ALL (SELECT s FROM t2);
(SELECT s FROM t1) INTERSECT (SELECT s FROM t2);
(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2);
(SELECT s FROM t1) EXCEPT (SELECT s FROM t2);
(SELECT s FROM t1) EXCEPT ALL (SELECT s FROM t2);
SELECT `user`, amount
FROM Orders
WHERE product IN (
    SELECT id FROM Product
);
SELECT `user`, amount
FROM Orders
WHERE EXISTS (
    SELECT id FROM Product WHERE id = Orders.product
);
