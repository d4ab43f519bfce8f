-- The queries of the Flink SQL cookbook (ververica/flink-sql-cookbook) as written, over tables
-- whose faker, kafka and jdbc connectors are replaced by CSV files filled with known rows.
-- folders: logs logs2 sightings temps spells subs bids orders2 stocks errors noc names people visits1 visits2 visits3 customers iot agg1m agg5m
CREATE TABLE server_logs (
    client_ip STRING,
    client_identity STRING,
    userid STRING,
    user_agent STRING,
    log_time TIMESTAMP(3),
    request_line STRING,
    status_code STRING,
    size INT,
    WATERMARK FOR log_time AS log_time - INTERVAL '15' SECONDS
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/logs', 'format' = 'csv');
INSERT INTO server_logs VALUES
  ('1.1.1.1', '-', 'morsapaes', 'Mozilla/5.0 (X11)', TIMESTAMP '2021-01-01 10:00:05', 'GET /search.html HTTP/1.1', '200', 100),
  ('1.1.1.2', '-', 'knauf', 'Opera/9.80 (X11)', TIMESTAMP '2021-01-01 10:00:35', 'POST /login.html HTTP/2', '403', 300),
  ('1.1.1.1', '-', 'morsapaes', 'Mozilla/5.0 (X11)', TIMESTAMP '2021-01-01 10:00:40', 'GET /prod.html HTTP/1.1', '403', 500),
  ('1.1.1.3', '-', 'sjwiesman', 'Mozilla/5.0 (Mac)', TIMESTAMP '2021-01-01 10:01:10', 'PUT /order.html HTTP/1.0', '401', 700),
  ('1.1.1.3', '-', 'sjwiesman', 'Safari/7046A194A', TIMESTAMP '2021-01-01 10:03:00', 'GET /cart.html HTTP/1.1', '301', 900),
  ('1.1.1.4', '-', 'knauf', 'Opera/9.80 (X11)', TIMESTAMP '2021-01-01 10:06:00', 'PATCH /order.html HTTP/2', '403', 1100);
SELECT
  log_time,
  request_line,
  status_code
FROM server_logs
WHERE
  status_code IN ('403', '401');
SELECT
  REGEXP_EXTRACT(user_agent,'[^\/]+') AS browser,
  status_code,
  COUNT(*) AS cnt_status
FROM server_logs
GROUP BY
  REGEXP_EXTRACT(user_agent,'[^\/]+'),
  status_code;
SELECT * FROM server_logs
ORDER BY log_time;
SELECT
  TUMBLE_ROWTIME(log_time, INTERVAL '1' MINUTE) AS window_time,
  REGEXP_EXTRACT(user_agent,'[^\/]+') AS browser,
  COUNT(*) AS cnt_browser
FROM server_logs
GROUP BY
  REGEXP_EXTRACT(user_agent,'[^\/]+'),
  TUMBLE(log_time, INTERVAL '1' MINUTE)
ORDER BY
  window_time,
  cnt_browser DESC;
SELECT
  userid,
  SESSION_START(log_time, INTERVAL '10' SECOND) AS session_beg,
  SESSION_ROWTIME(log_time, INTERVAL '10' SECOND) AS session_end,
  COUNT(request_line) AS request_cnt
FROM server_logs
WHERE status_code = '403'
GROUP BY
  userid,
  SESSION(log_time, INTERVAL '10' SECOND);
CREATE VIEW successful_requests AS
SELECT *
FROM server_logs
WHERE status_code SIMILAR TO '[2,3][0-9][0-9]';
SELECT * FROM successful_requests;
CREATE TABLE client_errors (
  log_time TIMESTAMP(3),
  request_line STRING,
  status_code STRING,
  size INT
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/errors', 'format' = 'csv');
INSERT INTO client_errors
SELECT
  log_time,
  request_line,
  status_code,
  size
FROM server_logs
WHERE
  status_code SIMILAR TO '4[0-9][0-9]';
SELECT * FROM client_errors;
SELECT window_start, window_end, COUNT(DISTINCT client_ip) AS ip_addresses
  FROM TABLE(
    TUMBLE(TABLE server_logs, DESCRIPTOR(log_time), INTERVAL '1' MINUTE))
  GROUP BY window_start, window_end;
CREATE TEMPORARY TABLE avg_request_size_1m (
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  avg_size BIGINT
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/agg1m', 'format' = 'csv');
CREATE TEMPORARY TABLE avg_request_size_5m (
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  avg_size BIGINT
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/agg5m', 'format' = 'csv');
CREATE TEMPORARY VIEW server_logs_window_1m AS
SELECT
  TUMBLE_START(log_time, INTERVAL '1' MINUTE) AS window_start,
  TUMBLE_ROWTIME(log_time, INTERVAL '1' MINUTE) AS window_end,
  SUM(size) AS total_size,
  COUNT(*) AS num_requests
FROM server_logs
GROUP BY
  TUMBLE(log_time, INTERVAL '1' MINUTE);
CREATE TEMPORARY VIEW server_logs_window_5m AS
SELECT
  TUMBLE_START(window_end, INTERVAL '5' MINUTE) AS window_start,
  TUMBLE_ROWTIME(window_end, INTERVAL '5' MINUTE) AS window_end,
  SUM(total_size) AS total_size,
  SUM(num_requests) AS num_requests
FROM server_logs_window_1m
GROUP BY
  TUMBLE(window_end, INTERVAL '5' MINUTE);
BEGIN STATEMENT SET;
INSERT INTO avg_request_size_1m SELECT
  window_start,
  window_end,
  total_size/num_requests AS avg_size
FROM server_logs_window_1m;
INSERT INTO avg_request_size_5m SELECT
  window_start,
  window_end,
  total_size/num_requests AS avg_size
FROM server_logs_window_5m;
END;
SELECT * FROM avg_request_size_1m;
SELECT * FROM avg_request_size_5m;
CREATE TEMPORARY VIEW browsers AS
SELECT
  REGEXP_EXTRACT(user_agent,'[^\/]+') AS browser,
  status_code,
  log_time
FROM server_logs;
SELECT
    browser,
    status_code,
    DATE_FORMAT(TUMBLE_ROWTIME(log_time, INTERVAL '1' HOUR), 'yyyy-MM-dd') AS `dt`,
    DATE_FORMAT(TUMBLE_ROWTIME(log_time, INTERVAL '1' HOUR), 'HH') AS `hour`,
    COUNT(*) requests
FROM browsers
GROUP BY
    browser,
    status_code,
    TUMBLE(log_time, INTERVAL '1' HOUR);
CREATE TABLE doctor_sightings (
  doctor        STRING,
  sighting_time TIMESTAMP(3),
  WATERMARK FOR sighting_time AS sighting_time - INTERVAL '15' SECONDS
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/sightings', 'format' = 'csv');
INSERT INTO doctor_sightings VALUES ('Tenth', TIMESTAMP '2021-01-01 10:00:05'), ('Tenth', TIMESTAMP '2021-01-01 10:00:50'), ('Eleventh', TIMESTAMP '2021-01-01 10:01:05');
SELECT
    doctor,
    TUMBLE_ROWTIME(sighting_time, INTERVAL '1' MINUTE) AS sighting_time,
    COUNT(*) AS sightings
FROM doctor_sightings
GROUP BY
    TUMBLE(sighting_time, INTERVAL '1' MINUTE),
    doctor;
CREATE TEMPORARY TABLE temperature_measurements (
  measurement_time TIMESTAMP(3),
  city STRING,
  temperature FLOAT,
  WATERMARK FOR measurement_time AS measurement_time - INTERVAL '15' SECONDS
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/temps', 'format' = 'csv');
INSERT INTO temperature_measurements VALUES (TIMESTAMP '2021-01-01 10:00:00', 'Berlin', 10), (TIMESTAMP '2021-01-01 10:00:30', 'Berlin', 20), (TIMESTAMP '2021-01-01 10:02:00', 'Berlin', 30), (TIMESTAMP '2021-01-01 10:00:10', 'Munich', 5);
SELECT
  measurement_time,
  city,
  temperature,
  AVG(CAST(temperature AS FLOAT)) OVER last_minute AS avg_temperature_minute,
  MAX(temperature) OVER last_minute AS min_temperature_minute,
  MIN(temperature) OVER last_minute AS max_temperature_minute,
  STDDEV(CAST(temperature AS FLOAT)) OVER last_minute AS stdev_temperature_minute
FROM temperature_measurements
WINDOW last_minute AS (
  PARTITION BY city
  ORDER BY measurement_time
  RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW
);
CREATE TABLE spells_cast (
    wizard STRING,
    spell  STRING
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/spells', 'format' = 'csv');
INSERT INTO spells_cast VALUES ('Harry', 'Lumos'), ('Harry', 'Lumos'), ('Harry', 'Accio'), ('Harry', 'Nox'), ('Harry', 'Nox'), ('Harry', 'Nox'), ('Ron', 'Lumos');
SELECT wizard, spell, COUNT(*) AS times_cast
FROM spells_cast
GROUP BY wizard, spell;
SELECT wizard, spell, times_cast
FROM (
    SELECT *,
    ROW_NUMBER() OVER (PARTITION BY wizard ORDER BY times_cast DESC) AS row_num
    FROM (SELECT wizard, spell, COUNT(*) AS times_cast FROM spells_cast GROUP BY wizard, spell)
)
WHERE row_num <= 2;
CREATE TABLE bids (
    bid_id STRING,
    currency_code STRING,
    bid_price DOUBLE,
    transaction_time TIMESTAMP(3),
    WATERMARK FOR transaction_time AS transaction_time - INTERVAL '5' SECONDS
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/bids', 'format' = 'csv');
INSERT INTO bids VALUES ('b1', 'EUR', 1.5, TIMESTAMP '2021-01-01 10:00:10'), ('b2', 'EUR', 2.25, TIMESTAMP '2021-01-01 10:00:40'), ('b3', 'USD', 3.0, TIMESTAMP '2021-01-01 10:01:20');
SELECT window_start, window_end, currency_code, ROUND(AVG(bid_price),2) AS MovingAverageBidPrice
  FROM TABLE(
    HOP(TABLE bids, DESCRIPTOR(transaction_time), INTERVAL '30' SECONDS, INTERVAL '1' MINUTE))
  GROUP BY window_start, window_end, currency_code;
CREATE TABLE fake_stocks (
    stock_name STRING,
    stock_value double,
    log_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/stocks', 'format' = 'csv');
INSERT INTO fake_stocks VALUES ('ACME', 10.0, TIMESTAMP '2021-01-01 10:00:00'), ('ACME', 12.0, TIMESTAMP '2021-01-01 10:00:01'), ('ACME', 11.0, TIMESTAMP '2021-01-01 10:00:02'), ('ACME', 11.0, TIMESTAMP '2021-01-01 10:00:03');
WITH current_and_previous as (
    select
        stock_name,
        log_time,
        stock_value,
        lag(stock_value, 1) over (partition by stock_name order by log_time) previous_value
    from fake_stocks
)
select *,
    case
        when stock_value > previous_value then '▲'
        when stock_value < previous_value then '▼'
        else '='
    end as trend
from current_and_previous;
CREATE TABLE NOC (
  agent_id STRING,
  codename STRING
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/noc', 'format' = 'csv');
CREATE TABLE RealNames (
  agent_id STRING,
  name     STRING
)
WITH ('connector' = 'filesystem', 'path' = '${tmp}/names', 'format' = 'csv');
INSERT INTO NOC VALUES ('1', 'Quail'), ('2', 'Raven');
INSERT INTO RealNames VALUES ('1', 'Ann'), ('3', 'Cid');
SELECT
    name,
    codename
FROM NOC
INNER JOIN RealNames ON NOC.agent_id = RealNames.agent_id;
CREATE TABLE subscriptions (
    id STRING,
    start_date INT,
    end_date INT,
    payment_expiration TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/subs', 'format' = 'csv');
INSERT INTO subscriptions VALUES ('s1', 1600000000, 1610000000, TIMESTAMP '2021-03-04 05:06:07');
SELECT
  id,
  TO_TIMESTAMP(FROM_UNIXTIME(start_date)) AS start_date,
  TO_TIMESTAMP(FROM_UNIXTIME(end_date)) AS end_date,
  DATE_FORMAT(payment_expiration,'YYYYww') AS exp_yweek,
  EXTRACT(DAY FROM payment_expiration) AS exp_day,     --same as DAYOFMONTH(ts)
  EXTRACT(MONTH FROM payment_expiration) AS exp_month, --same as MONTH(ts)
  EXTRACT(YEAR FROM payment_expiration) AS exp_year    --same as YEAR(ts)
FROM subscriptions
WHERE
  TIMESTAMPDIFF(DAY,CAST(CURRENT_TIMESTAMP AS TIMESTAMP(3)),payment_expiration) < 30;
CREATE TEMPORARY TABLE rickandmorty_visits (
    visitor STRING,
    location STRING,
    visit_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/visits1', 'format' = 'csv');
CREATE TEMPORARY TABLE spaceagency_visits (
    spacecraft STRING,
    location STRING,
    visit_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/visits2', 'format' = 'csv');
CREATE TEMPORARY TABLE hitchhiker_visits (
    visitor STRING,
    starship STRING,
    location STRING,
    visit_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/visits3', 'format' = 'csv');
INSERT INTO rickandmorty_visits VALUES ('Rick', 'Earth', TIMESTAMP '2021-01-01 00:00:00');
INSERT INTO spaceagency_visits VALUES ('Apollo', 'Moon', TIMESTAMP '1969-07-20 20:17:00');
INSERT INTO hitchhiker_visits VALUES ('Arthur', 'Heart of Gold', 'Magrathea', TIMESTAMP '1979-10-12 00:00:00');
SELECT visitor, '' AS spacecraft, location, visit_time FROM rickandmorty_visits
UNION ALL
SELECT '' AS visitor, spacecraft, location, visit_time FROM spaceagency_visits
UNION ALL
SELECT visitor, starship AS spacecraft, location, visit_time FROM hitchhiker_visits;
CREATE TABLE `customers` (
  `identifier` STRING,
  `fullname` STRING,
  `postal_address` STRING,
  `residential_address` STRING
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/customers', 'format' = 'csv');
INSERT INTO customers VALUES ('c1', 'Ann Lee', '1 Main St', '2 Side St');
SELECT
  `identifier`,
  `fullname`,
  STR_TO_MAP('postal_address:' || postal_address || ';residential_address:' || residential_address,';',':') AS `addresses`
FROM `customers`;
CREATE TABLE iot_status (
    device_ip       STRING,
    device_timezone STRING,
    iot_timestamp   TIMESTAMP(3),
    status_code     STRING
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/iot', 'format' = 'csv');
INSERT INTO iot_status VALUES ('10.0.0.1', 'Europe/Berlin', TIMESTAMP '2021-06-01 12:00:00', 'OK');
SELECT
  device_ip,
  device_timezone,
  iot_timestamp,
  convert_tz(cast(iot_timestamp as string), device_timezone, 'UTC') iot_timestamp_utc,
  status_code
FROM iot_status;
CREATE TABLE People (
    id           INT,
    city         STRING,
    state        STRING,
    arrival_time TIMESTAMP(3),
    WATERMARK FOR arrival_time AS arrival_time - INTERVAL '1' MINUTE
) WITH ('connector' = 'filesystem', 'path' = '${tmp}/people', 'format' = 'csv');
INSERT INTO People VALUES (1, 'Portland', 'OR', TIMESTAMP '2021-01-01 00:00:00'), (2, 'Salem', 'OR', TIMESTAMP '2021-01-01 00:00:00'), (3, 'Eugene', 'OR', TIMESTAMP '2021-01-01 00:00:00'), (4, 'Portland', 'OR', TIMESTAMP '2021-01-01 00:00:00'), (5, 'Austin', 'TX', TIMESTAMP '2021-01-01 00:00:00'), (1, 'Austin', 'TX', TIMESTAMP '2021-01-02 00:00:00');
CREATE TEMPORARY VIEW CurrentPopulation AS
SELECT
    city,
    state,
    COUNT(*) as population
FROM (
    SELECT
        city,
        state,
        ROW_NUMBER() OVER (PARTITION BY id ORDER BY arrival_time DESC) AS rownum
    FROM People
)
WHERE rownum = 1
GROUP BY city, state;
SELECT * FROM CurrentPopulation;
SELECT
    state,
    city,
    population
FROM
    (SELECT DISTINCT state FROM CurrentPopulation) States,
    LATERAL (
        SELECT city, population
        FROM CurrentPopulation
        WHERE state = States.state
        ORDER BY population DESC
        LIMIT 2
);
CREATE TEMPORARY VIEW `SpellsPerCharacter` AS
  SELECT `HarryPotter`.`character`, `SpellsTable`.`spell`
  FROM (VALUES ('Harry', ARRAY['Lumos', 'Nox'])) AS HarryPotter (`character`, spells)
  CROSS JOIN UNNEST(HarryPotter.spells) AS SpellsTable (spell);
SELECT * FROM SpellsPerCharacter;
SELECT id AS order_id,
       COUNT(*) AS order_cnt
FROM (VALUES (1), (1), (2)) AS o (id)
GROUP BY id
HAVING COUNT(*) > 1;
SELECT * FROM `server_logs` /*+ OPTIONS('csv.ignore-parse-errors'='true') */ WHERE size > 800;
CREATE TEMPORARY TABLE server_logs_copy
WITH ('connector' = 'blackhole') LIKE server_logs (EXCLUDING OPTIONS);
INSERT INTO server_logs_copy SELECT * FROM server_logs;
