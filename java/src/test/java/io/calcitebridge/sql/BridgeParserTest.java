package io.calcitebridge.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tests of {@link BridgeParser}: every statement and type of the dialect parses, unparses and
 * parses back to the same tree; USER; error positions. Types are converted in {@link
 * BridgeTypesTest}.
 */
class BridgeParserTest {

  /** Statement, and the class the parser must produce. */
  static Stream<Arguments> statements() {
    return Stream.of(
        // CREATE TABLE
        stmt("CREATE TABLE t (a INT)", SqlCreateTable.class),
        stmt(
            "CREATE TABLE IF NOT EXISTS db.t (a INT NOT NULL, b STRING NULL)",
            SqlCreateTable.class),
        stmt("CREATE OR REPLACE TABLE t (a INT)", SqlCreateTable.class),
        stmt(
            "CREATE TABLE users (\n"
                + "  id BIGINT NOT NULL,\n"
                + "  user ROW<name STRING, age INT NOT NULL>,\n"
                + "  tags ARRAY<STRING NOT NULL>,\n"
                + "  props MAP<STRING, BYTES>,\n"
                + "  rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n"
                + "  `offset` BIGINT METADATA VIRTUAL,\n"
                + "  headers MAP<STRING, BYTES> METADATA,\n"
                + "  part STRING NOT NULL METADATA FROM 'partition',\n"
                + "  c AS id * 2 + CHAR_LENGTH(user.name),\n"
                + "  ...\n"
                + ") WITH ('connector' = 'memory', 'x.y' = 'it''s')",
            SqlCreateTable.class),
        stmt("CREATE TABLE t (a INT, ... STRING)", SqlCreateTable.class),
        stmt("CREATE TABLE t (a INT, ... ROW<x INT, y ARRAY<INT>> NOT NULL)", SqlCreateTable.class),
        stmt("CREATE TABLE t (...)", SqlCreateTable.class),
        stmt("CREATE TABLE t (a INT) DYNAMIC_COLUMNS = ON", SqlCreateTable.class),
        // Flink's clauses
        stmt(
            "CREATE TABLE IF NOT EXISTS orders (`user` BIGINT NOT NULL, product VARCHAR(32),"
                + " ts TIMESTAMP(3), ptime AS PROCTIME(), PRIMARY KEY (`user`) NOT ENFORCED,"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')",
            SqlCreateTable.class),
        stmt(
            "CREATE TEMPORARY TABLE t (a INT CONSTRAINT pk PRIMARY KEY NOT ENFORCED COMMENT 'id',"
                + " m STRING METADATA FROM 'k' VIRTUAL COMMENT 'meta', c AS a + 1 COMMENT 'calc')"
                + " COMMENT 'table' PARTITIONED BY (a)",
            SqlCreateTable.class),
        stmt("CREATE TABLE t (a INT, UNIQUE (a) NOT ENFORCED)", SqlCreateTable.class),
        stmt("CREATE TABLE t (comment STRING, watermark INT, enforced INT)", SqlCreateTable.class),
        stmt("CREATE TEMPORARY VIEW v AS SELECT 1", SqlCreateView.class),
        stmt("CREATE TABLE t (a INT) DYNAMIC_COLUMNS = OFF WITH ('k' = 'v')", SqlCreateTable.class),
        stmt("CREATE TABLE t WITH ('connector' = 'filesystem')", SqlCreateTable.class),
        stmt("CREATE TABLE `my table` (`select` INT, `a``b` STRING)", SqlCreateTable.class),
        stmt(
            "CREATE TABLE t (string STRING, bytes BYTES, metadata INT,"
                + " virtual INT, tables INT, `if` INT)",
            SqlCreateTable.class),
        stmt("CREATE TABLE if (dynamic_columns INT, timestamp_ltz INT)", SqlCreateTable.class),
        stmt("SELECT IF(a > 1, 'x', 'y'), string, bytes, metadata FROM tables", SqlSelect.class),
        // CREATE VIEW, DROP
        stmt("CREATE VIEW v AS SELECT * FROM t", SqlCreateView.class),
        stmt(
            "CREATE TEMPORARY VIEW IF NOT EXISTS v (a, user) AS"
                + " SELECT x, y FROM t WHERE x > 1",
            SqlCreateView.class),
        stmt(
            "CREATE OR REPLACE VIEW v AS WITH q AS (SELECT 1 AS a) SELECT a FROM q",
            SqlCreateView.class),
        stmt("CREATE TABLE t2 LIKE t", SqlCreateTable.class),
        stmt(
            "CREATE TABLE t2 (c INT) WITH ('connector' = 'memory')"
                + " LIKE db.t (EXCLUDING ALL INCLUDING GENERATED, OVERWRITING OPTIONS)",
            SqlCreateTable.class),
        stmt("CREATE TABLE t2 AS SELECT a FROM t", SqlCreateTable.class),
        stmt("CREATE OR REPLACE TABLE t2 WITH ('k' = 'v') AS SELECT 1 AS x", SqlCreateTable.class),
        stmt("REPLACE TABLE t2 AS SELECT a FROM t WHERE a > 1", SqlCreateTable.class),
        stmt("DROP TABLE t", SqlDropObject.class),
        stmt("DROP TABLE IF EXISTS db.t", SqlDropObject.class),
        stmt("DROP VIEW v", SqlDropObject.class),
        stmt("DROP VIEW IF EXISTS v", SqlDropObject.class),
        // DESCRIBE, SHOW
        stmt("DESCRIBE t", SqlDescribeTable.class),
        stmt("DESC t", SqlDescribeTable.class),
        stmt("DESCRIBE TABLE db.t", SqlDescribeTable.class),
        stmt("DESCRIBE SCHEMA s", SqlCatalogStatement.class),
        stmt("DESCRIBE DATABASE EXTENDED c.db", SqlCatalogStatement.class),
        stmt("DESC DATABASE extended", SqlCatalogStatement.class),
        stmt("SHOW TABLES", SqlShowTables.class),
        stmt("SHOW CREATE TABLE t", SqlShowCreateTable.class),
        stmt("SHOW CREATE VIEW db.v", SqlShowCreateTable.class),
        stmt("SHOW COLUMNS FROM t", SqlShowColumns.class),
        stmt("SHOW COLUMNS IN t NOT LIKE '%r'", SqlShowColumns.class),
        // catalogs and databases
        stmt("SHOW TABLES FROM c.db NOT LIKE 'a%'", SqlShowTables.class),
        stmt("SHOW VIEWS IN db ILIKE 'V%'", SqlShowTables.class),
        stmt("SHOW CATALOGS", SqlCatalogStatement.class),
        stmt("SHOW DATABASES FROM c LIKE 'd%'", SqlCatalogStatement.class),
        stmt("SHOW CURRENT CATALOG", SqlCatalogStatement.class),
        stmt("SHOW CURRENT DATABASE", SqlCatalogStatement.class),
        stmt("SHOW CREATE CATALOG c", SqlCatalogStatement.class),
        stmt("DESCRIBE CATALOG EXTENDED c", SqlCatalogStatement.class),
        stmt("DESC CATALOG extended", SqlCatalogStatement.class),
        stmt(
            "CREATE CATALOG IF NOT EXISTS c COMMENT 'x' WITH ('type' = 'generic_in_memory')",
            SqlCatalogStatement.class),
        stmt("DROP CATALOG IF EXISTS c", SqlCatalogStatement.class),
        stmt("ALTER CATALOG c SET ('k' = 'v')", SqlCatalogStatement.class),
        stmt("ALTER CATALOG c RESET ('k', 'l')", SqlCatalogStatement.class),
        stmt("ALTER CATALOG c COMMENT 'x'", SqlCatalogStatement.class),
        stmt(
            "CREATE DATABASE IF NOT EXISTS c.db COMMENT 'x' WITH ('k' = 'v')",
            SqlCatalogStatement.class),
        stmt("DROP DATABASE IF EXISTS db CASCADE", SqlCatalogStatement.class),
        stmt("ALTER DATABASE db SET ('k' = 'v')", SqlCatalogStatement.class),
        stmt("USE CATALOG c", SqlCatalogStatement.class),
        stmt("USE c.db", SqlCatalogStatement.class),
        stmt("USE `catalog`", SqlCatalogStatement.class),
        // SET, RESET
        stmt(
            "SET 'table.column-expansion-strategy' = 'EXCLUDE_COMPUTED_COLUMNS'",
            SqlSetConfig.class),
        stmt("SET", SqlSetConfig.class),
        stmt("RESET 'k'", SqlResetConfig.class),
        stmt("RESET", SqlResetConfig.class),
        stmt("SET x = 1", SqlSetConfig.class),
        stmt("SET sql-client.execution.result-mode=tableau", SqlSetConfig.class),
        stmt("RESET table.dml-sync", SqlResetConfig.class),
        stmt("RESET ALL", SqlResetConfig.class),
        stmt("ALTER SESSION SET 'k' = 'v'", SqlSetConfig.class),
        // EXPLAIN
        stmt("EXPLAIN SELECT * FROM t", SqlExplain.class),
        stmt("EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT * FROM t", SqlExplainDetails.class),
        stmt("EXPLAIN PLAN FOR SELECT * FROM t", SqlExplain.class),
        stmt("EXPLAIN PLAN AS JSON FOR SELECT 1", SqlExplain.class),
        stmt("EXPLAIN PLAN WITHOUT IMPLEMENTATION FOR SELECT 1", SqlExplain.class),
        stmt("EXPLAIN PLAN FOR INSERT INTO t SELECT * FROM s", SqlExplain.class),
        stmt("EXPLAIN INSERT INTO t (a, b) VALUES (1, 'x')", SqlExplain.class),
        stmt("DESCRIBE SELECT 1", SqlExplain.class),
        stmt("DESCRIBE STATEMENT SELECT 1", SqlExplain.class),
        // INSERT
        stmt("INSERT INTO t SELECT * FROM s", SqlInsert.class),
        stmt("INSERT INTO t (a, user, `b`) VALUES (1, ROW('x', 2), 'b')", SqlInsert.class),
        stmt("INSERT INTO db.t SELECT * FROM t", SqlInsert.class),
        // queries
        stmt("SELECT * FROM users WHERE user.age < 30", SqlSelect.class),
        stmt("SELECT u.user.age, user.*, USER, CURRENT_USER FROM users AS u", SqlSelect.class),
        stmt(
            "SELECT props['k'], addr.city, ROW('Paris', 75), CAST(x AS STRING)" + " FROM t",
            SqlSelect.class),
        stmt(
            "SELECT a, COUNT(*) FROM t JOIN s ON t.id = s.id"
                + " WHERE a != 1 GROUP BY a HAVING COUNT(*) > 1",
            SqlSelect.class),
        stmt("WITH q AS (SELECT 1 AS a) SELECT a FROM q ORDER BY a LIMIT 1", SqlOrderBy.class),
        stmt("VALUES (1, 'a'), (2, 'b')", SqlBasicCall.class),
        stmt(
            "SELECT CAST(x AS ROW(a INT NOT NULL, b ARRAY<MAP<STRING, BYTES>>))"
                + ", CAST(y AS TIMESTAMP_LTZ), CAST(z AS INT ARRAY) FROM t",
            SqlSelect.class));
  }

  private static Arguments stmt(String sql, Class<? extends SqlNode> clazz) {
    return Arguments.of(sql, clazz);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statements")
  void roundTrip(String sql, Class<? extends SqlNode> clazz) throws Exception {
    final SqlNode node = BridgeParser.parseStatement(sql);
    assertInstanceOf(clazz, node);
    final String unparsed = BridgeParser.unparse(node);
    final SqlNode again = BridgeParser.parseStatement(unparsed);
    assertEquals(unparsed, BridgeParser.unparse(again), "unparse is a fixpoint");
    assertTrue(node.equalsDeep(again, Litmus.THROW), unparsed);
    if (node.getClass().getPackageName().equals("io.calcitebridge.sql")) {
      // createCall rebuilds the same class with every flag.
      final SqlNode copy = node.clone(SqlParserPos.ZERO);
      assertEquals(node.getClass(), copy.getClass());
      assertEquals(unparsed, BridgeParser.unparse(copy));
    }
  }

  @Test
  void config() {
    assertEquals(Quoting.BACK_TICK, BridgeParser.config().quoting());
    assertEquals(Casing.UNCHANGED, BridgeParser.config().unquotedCasing());
    assertEquals(Casing.UNCHANGED, BridgeParser.config().quotedCasing());
    assertTrue(BridgeParser.config().caseSensitive());
  }

  @Test
  void identifiersKeepTheirCase() throws Exception {
    final SqlSelect select =
        (SqlSelect) BridgeParser.parseStatement("SELECT Abc, `dEf` FROM MyTable");
    assertEquals("Abc", ((SqlIdentifier) select.getSelectList().get(0)).getSimple());
    assertEquals("dEf", ((SqlIdentifier) select.getSelectList().get(1)).getSimple());
    assertEquals("MyTable", ((SqlIdentifier) select.getFrom()).getSimple());
  }

  @Test
  void userDotFieldIsCompoundIdentifier() throws Exception {
    final SqlSelect select =
        (SqlSelect) BridgeParser.parseStatement("SELECT * FROM users WHERE user.age < 30");
    final SqlCall where = (SqlCall) select.getWhere();
    final SqlIdentifier id = assertInstanceOf(SqlIdentifier.class, where.operand(0));
    assertEquals(List.of("user", "age"), id.names);
    assertEquals(27, id.getParserPosition().getColumnNum());

    final SqlSelect deep =
        (SqlSelect) BridgeParser.parseStatement("SELECT u.user.address.city FROM users u");
    assertEquals(
        List.of("u", "user", "address", "city"),
        ((SqlIdentifier) deep.getSelectList().get(0)).names);

    final SqlIdentifier star =
        (SqlIdentifier)
            ((SqlSelect) BridgeParser.parseStatement("SELECT user.* FROM users"))
                .getSelectList()
                .get(0);
    assertTrue(star.isStar());

    // Without a dot USER is still the context variable (a simple identifier
    // that the validator turns into the USER function).
    final SqlSelect ctx =
        (SqlSelect) BridgeParser.parseStatement("SELECT USER, CURRENT_USER, SESSION_USER FROM t");
    assertEquals("USER", ((SqlIdentifier) ctx.getSelectList().get(0)).getSimple());
    assertEquals("CURRENT_USER", ((SqlIdentifier) ctx.getSelectList().get(1)).getSimple());

    final SqlNode expr = BridgeParser.parseExpression("user.age >= 18 AND user.name = 'x'");
    assertEquals("`user`.`age` >= 18 AND `user`.`name` = 'x'", BridgeParser.unparse(expr));
  }

  @Test
  void userAsColumnName() throws Exception {
    final SqlCreateTable t =
        (SqlCreateTable) BridgeParser.parseStatement("CREATE TABLE t (user ROW<user STRING>)");
    assertEquals("user", t.columns().get(0).name());
    // A name, not the USER function: it unparses quoted and keeps its case.
    assertTrue(BridgeParser.unparse(t).contains("`user` ROW<`user` STRING>"));
    final SqlInsert insert =
        (SqlInsert) BridgeParser.parseStatement("INSERT INTO t (id, user) VALUES (1, ROW('a'))");
    assertEquals("user", ((SqlIdentifier) insert.getTargetColumnList().get(1)).getSimple());
  }

  @Test
  void ellipsisIsOneTokenAndDoublePeriodStays() {
    final SqlParseException three = parseError("SELECT a...b FROM t");
    assertTrue(three.getMessage().contains("\"...\""), three.getMessage());
    final SqlParseException two = parseError("SELECT a..b FROM t");
    assertTrue(two.getMessage().contains("\"..\""), two.getMessage());
    assertEquals(9, two.getPos().getColumnNum());
  }

  @Test
  void parseStatements() throws Exception {
    final SqlNodeList list =
        BridgeParser.parseStatements(
            "CREATE TABLE a (x INT) WITH ('connector' = 'memory');\n"
                + "-- a comment\n"
                + "CREATE VIEW v AS SELECT x FROM a;\n"
                + "SET 'k' = 'v';\n");
    assertEquals(3, list.size());
    assertInstanceOf(SqlCreateTable.class, list.get(0));
    assertInstanceOf(SqlCreateView.class, list.get(1));
    assertInstanceOf(SqlSetConfig.class, list.get(2));
    assertEquals(3, list.get(1).getParserPosition().getLineNum());
  }

  @Test
  void syntaxErrorPosition() {
    final SqlParseException e = parseError("SELECT a,\n  b\nFROM t\nWHERE a IN (1, 2\nORDER BY a");
    assertTrue(
        e.getMessage().startsWith("Encountered \"ORDER\" at line 5, column 1."), e.getMessage());
    assertEquals(5, e.getPos().getLineNum());
    assertEquals(1, e.getPos().getColumnNum());

    // As in Calcite, the position is where the unexpected tokens begin.
    final SqlParseException twoTokens = parseError("SELECT a,\n  b\nFROM t\nWHERE a = )");
    assertTrue(
        twoTokens.getMessage().startsWith("Encountered \"= )\" at line 4, column 9."),
        twoTokens.getMessage());
    assertEquals(4, twoTokens.getPos().getLineNum());
    assertEquals(9, twoTokens.getPos().getColumnNum());

    final SqlParseException missing = parseError("CREATE TABLE t (a INT");
    assertEquals(1, missing.getPos().getLineNum());
    assertEquals(21, missing.getPos().getColumnNum());

    final SqlParseException afterEllipsis = parseError("CREATE TABLE t (a INT, ..., b INT)");
    assertEquals(27, afterEllipsis.getPos().getColumnNum());

    final SqlParseException unquotedSet = parseError("SET 'k' = v");
    assertEquals(11, unquotedSet.getPos().getColumnNum());
  }

  @Test
  void flinksParseErrorsAtTheirPosition() {
    // As Flink's parser: DESCRIBE takes no column, and OR REPLACE no materialized table.
    final SqlParseException column = parseError("DESCRIBE t user");
    assertTrue(column.getMessage().contains("Encountered \"user\""), column.getMessage());
    assertEquals(12, column.getPos().getColumnNum());

    final SqlParseException replace =
        parseError("CREATE OR REPLACE MATERIALIZED TABLE m AS SELECT 1");
    assertTrue(
        replace.getMessage().contains("REPLACE MATERIALIZED TABLE is not supported."),
        replace.getMessage());
    assertEquals(19, replace.getPos().getColumnNum());
  }

  @Test
  void unknownTypeInDdlFailsAtItsPosition() {
    final SqlParseException e = parseError("CREATE TABLE t (\n  a INT,\n  b FOO\n)");
    assertTrue(e.getMessage().contains("Unknown datatype name 'FOO'"), e.getMessage());
    assertEquals(3, e.getPos().getLineNum());
    assertEquals(5, e.getPos().getColumnNum());

    final SqlParseException nested = parseError("CREATE TABLE t (r ROW<a ARRAY<FOO>>)");
    assertTrue(nested.getMessage().contains("FOO"), nested.getMessage());
    assertEquals(31, nested.getPos().getColumnNum());
  }

  @Test
  void duplicatesFailAtTheirPosition() {
    final SqlParseException col = parseError("CREATE TABLE t (a INT, a STRING)");
    assertTrue(col.getMessage().contains("Duplicate column name 'a'"), col.getMessage());
    assertEquals(24, col.getPos().getColumnNum());

    final SqlParseException opt = parseError("CREATE TABLE t (a INT) WITH ('k' = '1', 'k' = '2')");
    assertTrue(opt.getMessage().contains("Duplicate option 'k'"), opt.getMessage());
    assertEquals(41, opt.getPos().getColumnNum());

    final SqlParseException dyn = parseError("CREATE TABLE t (a INT) DYNAMIC_COLUMNS = MAYBE");
    assertTrue(dyn.getMessage().contains("ON or OFF"), dyn.getMessage());
    assertEquals(42, dyn.getPos().getColumnNum());
  }

  private static SqlParseException parseError(String sql) {
    return assertThrows(SqlParseException.class, () -> BridgeParser.parseStatement(sql));
  }
}
