-- ALTER TABLE in Flink's forms, each followed by what SHOW COLUMNS or SHOW CREATE TABLE shows.
CREATE TABLE accounts (
  id BIGINT NOT NULL,
  owner STRING,
  balance DECIMAL(12, 2),
  opened TIMESTAMP(3)
) WITH ('connector' = 'blackhole');
ALTER TABLE accounts ADD currency STRING;
SHOW COLUMNS FROM accounts;
ALTER TABLE accounts ADD (branch INT COMMENT 'branch number' FIRST, closed BOOLEAN AFTER opened);
SHOW COLUMNS FROM accounts;
ALTER TABLE accounts ADD currency STRING;
ALTER TABLE accounts ADD note STRING AFTER nowhere;
ALTER TABLE accounts MODIFY owner VARCHAR(100) NOT NULL;
ALTER TABLE accounts MODIFY balance DECIMAL(14, 2) AFTER currency;
SHOW COLUMNS FROM accounts;
ALTER TABLE accounts MODIFY missing INT;
ALTER TABLE accounts ADD PRIMARY KEY (id) NOT ENFORCED;
SHOW COLUMNS FROM accounts LIKE 'id';
ALTER TABLE accounts ADD PRIMARY KEY (owner) NOT ENFORCED;
ALTER TABLE accounts ADD WATERMARK FOR opened AS opened - INTERVAL '1' MINUTE;
SHOW COLUMNS FROM accounts LIKE 'opened';
ALTER TABLE accounts MODIFY WATERMARK FOR opened AS opened;
SHOW CREATE TABLE accounts;
ALTER TABLE accounts DROP PRIMARY KEY;
ALTER TABLE accounts DROP WATERMARK;
ALTER TABLE accounts DROP WATERMARK;
ALTER TABLE accounts DROP closed;
ALTER TABLE accounts DROP (branch, currency);
ALTER TABLE accounts DROP nowhere;
SHOW COLUMNS FROM accounts;
ALTER TABLE accounts RENAME owner TO holder;
ALTER TABLE accounts RENAME holder TO id;
SHOW COLUMNS FROM accounts;
ALTER TABLE accounts ADD doubled AS balance * 2;
ALTER TABLE accounts DROP balance;
ALTER TABLE accounts SET ('sink.parallelism' = '1');
SHOW CREATE TABLE accounts;
ALTER TABLE accounts RESET ('sink.parallelism');
ALTER TABLE accounts RESET ('connector');
ALTER TABLE accounts RENAME TO ledger;
SHOW TABLES;
ALTER TABLE accounts ADD x INT;
ALTER TABLE IF EXISTS accounts ADD x INT;
ALTER TABLE ledger ADD CONSTRAINT ledger_pk PRIMARY KEY (id) NOT ENFORCED;
SHOW CREATE TABLE ledger;
ALTER TABLE ledger DROP CONSTRAINT ledger_pk;
ALTER TABLE ledger DROP CONSTRAINT ledger_pk;
SHOW COLUMNS FROM ledger;
