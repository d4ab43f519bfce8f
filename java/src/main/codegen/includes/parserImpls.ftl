<#--
  Productions of the calcite-bridge SQL dialect: Flink-style type names,
  CREATE TABLE / VIEW, DROP, SHOW, DESCRIBE, EXPLAIN, SET and RESET.
  Listed in config.fmpp and spliced into Calcite's Parser.jj.
-->

// ---------------------------------------------------------------- names

/**
 * Parses the name of a column or ROW field: a simple identifier, or the
 * reserved word USER, which is a common column name.
 */
SqlIdentifier BridgeColumnName() :
{
    final SqlIdentifier id;
}
{
    (
        id = SimpleIdentifier()
    |
        <USER> {
            // Marked as quoted: it is a name here, never the USER function.
            id = new SqlIdentifier(unquotedIdentifier(), getPos().withQuoting(true));
        }
    )
    {
        return id;
    }
}

/**
 * Parses a parenthesized, comma-separated list of column names.
 */
SqlNodeList BridgeColumnNameList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    SqlIdentifier id;
}
{
    <LPAREN> { s = span(); }
    id = BridgeColumnName() { list.add(id); }
    (
        <COMMA> id = BridgeColumnName() { list.add(id); }
    )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

// ---------------------------------------------------------------- types

/**
 * Parses a type followed by an optional NULL or NOT NULL; the type is
 * nullable unless it says NOT NULL.
 */
SqlDataTypeSpec BridgeFieldType() :
{
    final SqlDataTypeSpec type;
    final boolean nullable;
}
{
    type = DataType()
    nullable = NullableOptDefaultTrue()
    {
        return type.withNullable(nullable,
            Span.of(type.getParserPosition()).end(this));
    }
}

/**
 * Parses STRING, BYTES, BITMAP and TIMESTAMP_LTZ[(p)].
 */
SqlTypeNameSpec BridgeAliasTypeName() :
{
    final Span s;
    final int precision;
}
{
    (
        <STRING> {
            return BridgeAliasTypeNameSpec.string(getPos());
        }
    |
        <BYTES> {
            return BridgeAliasTypeNameSpec.bytes(getPos());
        }
    |
        <BITMAP> {
            return BridgeAliasTypeNameSpec.bitmap(getPos());
        }
    |
        <TIMESTAMP_LTZ> { s = span(); }
        precision = PrecisionOpt() {
            return BridgeAliasTypeNameSpec.timestampLtz(precision, s.end(this));
        }
    )
}

/**
 * Parses one "name type [NOT NULL]" field of a ROW type.
 */
void AddBridgeRowField(List<SqlIdentifier> names, List<SqlDataTypeSpec> types) :
{
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
}
{
    name = BridgeColumnName()
    type = BridgeFieldType()
    {
        names.add(name);
        types.add(type);
    }
}

/**
 * Parses ROW&lt;a INT, b STRING&gt; and ROW(a INT, b STRING).
 */
SqlTypeNameSpec BridgeRowTypeName() :
{
    final Span s;
    final List<SqlIdentifier> names = new ArrayList<SqlIdentifier>();
    final List<SqlDataTypeSpec> types = new ArrayList<SqlDataTypeSpec>();
    final boolean angle;
}
{
    <ROW> { s = span(); }
    (
        <LT> { angle = true; }
        AddBridgeRowField(names, types)
        ( <COMMA> AddBridgeRowField(names, types) )*
        <GT>
    |
        <LPAREN> { angle = false; }
        AddBridgeRowField(names, types)
        ( <COMMA> AddBridgeRowField(names, types) )*
        <RPAREN>
    )
    {
        return new BridgeRowTypeNameSpec(s.end(this), names, types, angle);
    }
}

/**
 * Parses ARRAY&lt;T&gt;.
 */
SqlTypeNameSpec BridgeArrayTypeName() :
{
    final Span s;
    final SqlDataTypeSpec element;
}
{
    <ARRAY> { s = span(); }
    <LT> element = BridgeFieldType() <GT>
    {
        return new BridgeArrayTypeNameSpec(element, s.end(this));
    }
}

/**
 * Parses MAP&lt;K, V&gt;.
 */
SqlTypeNameSpec BridgeMapTypeName() :
{
    final Span s;
    final SqlDataTypeSpec key;
    final SqlDataTypeSpec value;
}
{
    <MAP> { s = span(); }
    <LT> key = BridgeFieldType() <COMMA> value = BridgeFieldType() <GT>
    {
        return new BridgeMapTypeNameSpec(key, value, s.end(this));
    }
}

/**
 * Parses the type of a column in DDL; unknown type names fail here.
 */
SqlDataTypeSpec BridgeColumnType() :
{
    final SqlDataTypeSpec type;
}
{
    type = BridgeFieldType() {
        KnownTypeNames.requireKnown(type);
        return type;
    }
}

// ---------------------------------------------------------------- CREATE TABLE

/**
 * Parses one column definition of CREATE TABLE: physical, metadata or
 * computed, each with an optional COMMENT; a physical column may carry
 * Flink's column constraint ([CONSTRAINT name] PRIMARY KEY [NOT] ENFORCED),
 * which is added to {@code constraints}.
 */
void AddBridgeColumn(List<SqlNode> columns, Set<String> names,
    List<SqlNode> constraints) :
{
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    final SqlNode expression;
    SqlNode key = null;
    boolean isVirtual = false;
    final SqlTableColumn column;
    SqlCharStringLiteral comment = null;
    SqlTableConstraint constraint = null;
}
{
    name = BridgeColumnName() {
        if (!names.add(name.getSimple())) {
            throw SqlUtil.newContextException(name.getParserPosition(),
                BridgeParserResource.RESOURCE.duplicateColumn(name.getSimple()));
        }
    }
    (
        <AS> expression = Expression(ExprContext.ACCEPT_NON_QUERY) {
            column = new SqlComputedColumn(
                Span.of(name).end(expression), name, expression);
        }
    |
        type = BridgeColumnType()
        (
            <METADATA>
            [ <FROM> key = BridgeStringLiteral() ]
            [ <VIRTUAL> { isVirtual = true; } ]
            {
                column = new SqlMetadataColumn(Span.of(name).end(this),
                    name, type, (SqlCharStringLiteral) key, isVirtual);
            }
        |
            {
                column = new SqlPhysicalColumn(Span.of(name).end(this),
                    name, type);
            }
            [
                constraint = BridgeKeyConstraint(
                    new SqlNodeList(List.of(name), name.getParserPosition()))
                {
                    constraints.add(constraint);
                }
            ]
        )
    )
    [ <COMMENT> comment = BridgeStringLiteral() ]
    {
        column.setComment(comment);
        columns.add(column);
    }
}

/**
 * Parses Flink's key constraint, after the column type (a column
 * constraint, {@code columns} given) or in the column list (a table
 * constraint, {@code columns} null): [CONSTRAINT name] PRIMARY KEY [(cols)]
 * or UNIQUE [(cols)], then [NOT] ENFORCED.
 */
SqlTableConstraint BridgeKeyConstraint(SqlNodeList columns) :
{
    Span s = null;
    SqlIdentifier name = null;
    boolean unique = false;
    boolean enforced = true;
    SqlNodeList cols = columns;
}
{
    [ <CONSTRAINT> { s = span(); } name = SimpleIdentifier() ]
    (
        <PRIMARY> { if (s == null) { s = span(); } } <KEY>
    |
        <UNIQUE> { if (s == null) { s = span(); } unique = true; }
    )
    [
        LOOKAHEAD({ columns == null })
        cols = BridgeColumnNameList()
    ]
    [
        <NOT> <ENFORCED> { enforced = false; }
    |
        <ENFORCED>
    ]
    {
        return new SqlTableConstraint(s.end(this), name, cols, unique,
            enforced, columns != null);
    }
}

/**
 * Parses WATERMARK FOR column AS expression.
 */
SqlWatermark BridgeWatermark() :
{
    final Span s;
    final SqlIdentifier column;
    final SqlNode expression;
}
{
    <WATERMARK> { s = span(); } <FOR>
    column = BridgeColumnName()
    <AS>
    expression = Expression(ExprContext.ACCEPT_NON_QUERY)
    {
        return new SqlWatermark(s.end(expression), column, expression);
    }
}

/**
 * Parses one element of the column list of CREATE TABLE: a column, a
 * watermark or a table constraint.
 */
void AddBridgeTableElement(List<SqlNode> columns, Set<String> names,
    List<SqlNode> constraints, List<SqlNode> watermarks) :
{
    final SqlWatermark watermark;
    final SqlTableConstraint constraint;
}
{
    (
        LOOKAHEAD(2)
        watermark = BridgeWatermark() { watermarks.add(watermark); }
    |
        constraint = BridgeKeyConstraint(null) { constraints.add(constraint); }
    |
        AddBridgeColumn(columns, names, constraints)
    )
}

/**
 * Parses a string literal, joining continued literals ('a' 'b') into one.
 */
SqlCharStringLiteral BridgeStringLiteral() :
{
    final SqlNode node;
}
{
    node = StringLiteral() {
        final SqlLiteral literal = SqlLiteral.unchain(node);
        return SqlLiteral.createCharString(literal.getValueAs(String.class),
            node.getParserPosition());
    }
}

/**
 * Parses WITH ('key' = 'value', ...); returns keys and values alternating.
 */
SqlNodeList BridgeTableOptions() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    final Set<String> keys = new HashSet<String>();
}
{
    <WITH> { s = span(); }
    <LPAREN>
    [
        AddBridgeOption(list, keys)
        ( <COMMA> AddBridgeOption(list, keys) )*
    ]
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void AddBridgeOption(List<SqlNode> list, Set<String> keys) :
{
    final SqlCharStringLiteral key;
    final SqlCharStringLiteral value;
}
{
    key = BridgeStringLiteral() <EQ> value = BridgeStringLiteral() {
        final String k = key.getValueAs(String.class);
        if (!keys.add(k)) {
            throw SqlUtil.newContextException(key.getParserPosition(),
                BridgeParserResource.RESOURCE.duplicateOption(k));
        }
        list.add(key);
        list.add(value);
    }
}

/**
 * Parses "..." and an optional default type at the end of a column list.
 */
SqlDataTypeSpec BridgeEllipsis() :
{
    SqlDataTypeSpec type = null;
}
{
    <ELLIPSIS>
    [ type = BridgeColumnType() ]
    {
        return type;
    }
}

/**
 * Parses CREATE [TEMPORARY] TABLE and CREATE [TEMPORARY] VIEW, after CREATE
 * [OR REPLACE].
 */
SqlCreate SqlBridgeCreateTableOrView(Span s, boolean replace) :
{
    boolean temporary = false;
    final SqlCreate create;
}
{
    [
        <TEMPORARY> { temporary = true; }
        [
            <SYSTEM> create = SqlBridgeCreateFunction(s, replace, true, true) {
                return create;
            }
        ]
    ]
    (
        create = SqlBridgeCreateTable(s, replace, temporary)
    |
        create = SqlBridgeCreateMaterializedTable(s, replace, temporary)
    |
        create = SqlBridgeCreateView(s, replace, temporary)
    |
        create = SqlBridgeCreateFunction(s, replace, temporary, false)
    )
    {
        return create;
    }
}

/**
 * Parses Flink's CREATE FUNCTION [IF NOT EXISTS] name AS 'target' [LANGUAGE
 * lang] [USING JAR 'path' [, JAR 'path']*], after CREATE [TEMPORARY [SYSTEM]].
 */
SqlCreate SqlBridgeCreateFunction(Span s, boolean replace, boolean temporary,
    boolean system) :
{
    boolean ifNotExists = false;
    final SqlIdentifier name;
    final SqlNode target;
    SqlIdentifier language = null;
    final List<SqlNode> jars = new ArrayList<SqlNode>();
    SqlNode jar;
}
{
    <FUNCTION>
    [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = CompoundIdentifier()
    <AS> target = BridgeStringLiteral()
    [ <LANGUAGE> language = SimpleIdentifier() ]
    [
        <USING> <JAR> jar = BridgeStringLiteral() { jars.add(jar); }
        ( <COMMA> <JAR> jar = BridgeStringLiteral() { jars.add(jar); } )*
    ]
    {
        return new SqlCreateFunction(s.end(this), replace, temporary, system,
            ifNotExists, name, (SqlCharStringLiteral) target,
            language == null ? null
                : language.getSimple().toUpperCase(java.util.Locale.ROOT),
            new SqlNodeList(jars, s.end(this)));
    }
}

/**
 * Parses CREATE TABLE, after CREATE [OR REPLACE] [TEMPORARY].
 */
SqlCreate SqlBridgeCreateTable(Span s, boolean replace, boolean temporary) :
{
    boolean ifNotExists = false;
    final SqlIdentifier name;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final Set<String> columnNames = new HashSet<String>();
    final List<SqlNode> constraints = new ArrayList<SqlNode>();
    final List<SqlNode> watermarks = new ArrayList<SqlNode>();
    SqlParserPos columnsPos = null;
    boolean ellipsis = false;
    SqlDataTypeSpec dynamicType = null;
    Boolean dynamicOption = null;
    SqlIdentifier off;
    SqlNodeList optionList = null;
    SqlCharStringLiteral comment = null;
    SqlNodeList partitionKeys = null;
    SqlIdentifier like = null;
    SqlNodeList likeOptions = null;
    SqlNode query = null;
}
{
    <TABLE>
    [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = CompoundIdentifier()
    [
        <LPAREN> { columnsPos = getPos(); }
        (
            dynamicType = BridgeEllipsis() { ellipsis = true; }
        |
            AddBridgeTableElement(columns, columnNames, constraints, watermarks)
            (
                LOOKAHEAD(2)
                <COMMA> AddBridgeTableElement(columns, columnNames, constraints, watermarks)
            )*
            [
                <COMMA> dynamicType = BridgeEllipsis() { ellipsis = true; }
            ]
        )
        <RPAREN> { columnsPos = columnsPos.plus(getPos()); }
    ]
    [ <COMMENT> comment = BridgeStringLiteral() ]
    [ <PARTITIONED> <BY> partitionKeys = BridgeColumnNameList() ]
    [
        <DYNAMIC_COLUMNS> <EQ>
        (
            <ON> { dynamicOption = Boolean.TRUE; }
        |
            off = SimpleIdentifier() {
                if (!off.getSimple().equalsIgnoreCase("OFF")) {
                    throw SqlUtil.newContextException(off.getParserPosition(),
                        BridgeParserResource.RESOURCE.onOrOffExpected(off.getSimple()));
                }
                dynamicOption = Boolean.FALSE;
            }
        )
    ]
    [ optionList = BridgeTableOptions() ]
    [
        <LIKE> like = CompoundIdentifier()
        [ likeOptions = BridgeLikeOptions() ]
    |
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    ]
    {
        return new SqlCreateTable(s.end(this), replace, ifNotExists, name,
            new SqlNodeList(columns,
                columnsPos == null ? name.getParserPosition() : columnsPos),
            ellipsis, dynamicType, dynamicOption,
            optionList == null ? SqlNodeList.EMPTY : optionList,
            new FlinkTableClauses(temporary,
                new SqlNodeList(constraints, name.getParserPosition()),
                new SqlNodeList(watermarks, name.getParserPosition()),
                comment,
                partitionKeys == null
                    ? new SqlNodeList(name.getParserPosition()) : partitionKeys),
            like, likeOptions, query);
    }
}

/**
 * Parses the options of LIKE: ( strategy feature [[,] strategy feature]* ),
 * such as (EXCLUDING ALL INCLUDING OPTIONS); returns strategies and features
 * alternating, as identifiers (ALL too). Their words are checked as the
 * statement runs.
 */
SqlNodeList BridgeLikeOptions() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    AddBridgeLikeOption(list)
    ( [ <COMMA> ] AddBridgeLikeOption(list) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void AddBridgeLikeOption(List<SqlNode> list) :
{
    final SqlIdentifier strategy;
    final SqlIdentifier feature;
}
{
    strategy = SimpleIdentifier()
    (
        <ALL> { feature = new SqlIdentifier("ALL", getPos()); }
    |
        feature = SimpleIdentifier()
    )
    {
        list.add(strategy);
        list.add(feature);
    }
}

/**
 * Parses Flink's REPLACE TABLE name ... AS query: a CREATE OR REPLACE TABLE
 * ... AS query whose table must exist.
 */
SqlNode SqlBridgeReplaceTable() :
{
    final Span s;
    final SqlCreate create;
}
{
    <REPLACE> { s = span(); }
    create = SqlBridgeCreateTable(s, true, false)
    {
        return ((SqlCreateTable) create).replaceOnly();
    }
}

// ---------------------------------------------------------------- views, DROP

/**
 * Parses CREATE VIEW, after CREATE [OR REPLACE] [TEMPORARY]: [IF NOT EXISTS]
 * name [(column [COMMENT 'text'], ...)] [COMMENT 'text'] AS query.
 */
SqlCreate SqlBridgeCreateView(Span s, boolean replace, boolean temporary) :
{
    boolean ifNotExists = false;
    final SqlIdentifier name;
    SqlNodeList columns = null;
    final List<SqlNode> names = new ArrayList<SqlNode>();
    final List<SqlNode> comments = new ArrayList<SqlNode>();
    SqlCharStringLiteral comment = null;
    SqlParserPos columnsPos = null;
    final SqlNode query;
}
{
    <VIEW>
    [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = CompoundIdentifier()
    [
        <LPAREN> { columnsPos = getPos(); }
        AddBridgeViewColumn(names, comments)
        ( <COMMA> AddBridgeViewColumn(names, comments) )*
        <RPAREN> {
            columnsPos = columnsPos.plus(getPos());
            columns = new SqlNodeList(names, columnsPos);
        }
    ]
    [ <COMMENT> comment = BridgeStringLiteral() ]
    <AS>
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlCreateView(s.end(query), replace, temporary,
            ifNotExists, name, columns, query, comment,
            columns == null ? null : new SqlNodeList(comments, columnsPos));
    }
}

/** One column of a view's column list: name [COMMENT 'text']. */
void AddBridgeViewColumn(List<SqlNode> names, List<SqlNode> comments) :
{
    final SqlIdentifier id;
    SqlNode comment = null;
}
{
    id = BridgeColumnName()
    [ <COMMENT> comment = BridgeStringLiteral() ]
    {
        names.add(id);
        comments.add(comment == null ? SqlLiteral.createNull(id.getParserPosition()) : comment);
    }
}

/**
 * Parses, after DROP: [TEMPORARY] TABLE|VIEW [IF EXISTS] name, MATERIALIZED
 * TABLE [IF EXISTS] name, and Flink's [TEMPORARY [SYSTEM]] FUNCTION [IF
 * EXISTS] name.
 */
SqlDrop SqlBridgeDropObject(Span s, boolean replace) :
{
    boolean temporary = false;
    boolean system = false;
    boolean function = false;
    boolean isView = false;
    boolean materialized = false;
    boolean ifExists = false;
    final SqlIdentifier name;
}
{
    (
        <TEMPORARY> { temporary = true; }
        (
            <SYSTEM> { system = true; } <FUNCTION> { function = true; }
        |
            <FUNCTION> { function = true; }
        |
            <TABLE>
        |
            <VIEW> { isView = true; }
        )
    |
        <FUNCTION> { function = true; }
    |
        <TABLE>
    |
        <VIEW> { isView = true; }
    |
        <MATERIALIZED> <TABLE> { materialized = true; }
    )
    [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
    name = CompoundIdentifier()
    {
        if (function) {
            return new SqlDropFunction(s.end(name), temporary, system, ifExists, name);
        }
        return new SqlDropObject(s.end(name), isView, ifExists, name, temporary,
            materialized);
    }
}

// ---------------------------------------------------------------- TRUNCATE

/**
 * Parses Flink's TRUNCATE TABLE name: a DELETE of every row, which runs where
 * the table's connector can delete rows.
 */
SqlNode SqlBridgeTruncate() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <TRUNCATE> { s = span(); } <TABLE> name = CompoundIdentifier()
    {
        return new SqlTruncateTable(s.end(this), name);
    }
}

// ---------------------------------------------------------------- statement sets

/**
 * Parses Flink's EXECUTE STATEMENT SET BEGIN insert; [insert;]* END, and the
 * SQL client's BEGIN STATEMENT SET; insert; [insert;]* END, as one statement.
 */
SqlNode SqlBridgeStatementSet() :
{
    final Span s;
    final List<SqlNode> inserts = new ArrayList<SqlNode>();
    SqlNode insert;
}
{
    (
        <EXECUTE> { s = span(); } <STATEMENT> <SET> <BEGIN>
    |
        <BEGIN> { s = span(); } <STATEMENT> <SET> <SEMICOLON>
        (
            insert = SqlBridgeInsert() <SEMICOLON> { inserts.add(insert); }
        )*
        <END>
        {
            return new SqlStatementSet(s.end(this), new SqlNodeList(inserts, s.end(this)));
        }
    )
    (
        insert = SqlBridgeInsert() <SEMICOLON> { inserts.add(insert); }
    )+
    <END>
    {
        return new SqlStatementSet(s.end(this), new SqlNodeList(inserts, s.end(this)));
    }
}

/**
 * Parses the statement set of EXPLAIN: STATEMENT SET BEGIN insert; ... END,
 * or EXECUTE STATEMENT SET BEGIN insert; ... END.
 */
SqlNode SqlBridgeExplainedSet() :
{
    final Span s;
    final List<SqlNode> inserts = new ArrayList<SqlNode>();
    SqlNode insert;
}
{
    (
        <EXECUTE> { s = span(); } <STATEMENT>
    |
        <STATEMENT> { s = span(); }
    )
    <SET> <BEGIN>
    (
        insert = SqlBridgeInsert() <SEMICOLON> { inserts.add(insert); }
    )+
    <END>
    {
        return new SqlStatementSet(s.end(this), new SqlNodeList(inserts, s.end(this)));
    }
}

// ---------------------------------------------------------------- ALTER TABLE, ALTER VIEW

/**
 * Consumes the next token when it is the word {@code word} (a keyword or
 * not, in any case); fails otherwise.
 */
JAVACODE void BridgeWord(String word) {
    final Token t = getNextToken();
    if (!t.image.equalsIgnoreCase(word)) {
        throw generateParseException();
    }
}

/**
 * Parses one element of ALTER TABLE ... ADD|MODIFY: a column, key or
 * watermark, a column followed by FIRST or AFTER column.
 */
void AddBridgeAlterElement(List<SqlNode> columns, Set<String> names,
    List<SqlNode> constraints, List<SqlNode> watermarks, List<SqlNode> positions) :
{
    final int before = columns.size();
    SqlNode position = null;
    SqlIdentifier after;
}
{
    AddBridgeTableElement(columns, names, constraints, watermarks)
    [
        LOOKAHEAD({ columns.size() > before
            && getToken(1).image.equalsIgnoreCase("FIRST") })
        BridgeWord("FIRST") {
            position = SqlLiteral.createCharString("FIRST", getPos());
        }
    ]
    [
        LOOKAHEAD({ position == null && columns.size() > before
            && getToken(1).image.equalsIgnoreCase("AFTER") })
        BridgeWord("AFTER") after = BridgeColumnName() { position = after; }
    ]
    {
        if (columns.size() > before) {
            positions.add(position != null ? position
                : SqlLiteral.createCharString("", getPos()));
        }
    }
}

/**
 * Parses Flink's ALTER TABLE [IF EXISTS] t RENAME TO t2 | SET (...) |
 * RESET (...) | RENAME col TO col2 | DROP col | DROP (cols) | DROP PRIMARY
 * KEY | DROP CONSTRAINT name | DROP WATERMARK | ADD|MODIFY element | ADD|MODIFY
 * (element, ...), and ALTER VIEW v RENAME TO v2 | AS query.
 */
SqlNode SqlBridgeAlterTable() :
{
    final Span s;
    boolean ifExists = false;
    final SqlIdentifier name;
    SqlIdentifier target = null;
    SqlIdentifier column = null;
    SqlNodeList list = null;
    SqlCharStringLiteral key;
    final List<SqlNode> keys = new ArrayList<SqlNode>();
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final Set<String> names = new HashSet<String>();
    final List<SqlNode> constraints = new ArrayList<SqlNode>();
    final List<SqlNode> watermarks = new ArrayList<SqlNode>();
    final List<SqlNode> positions = new ArrayList<SqlNode>();
    SqlAlterTable.Action action;
    SqlNode query = null;
    SqlParserPos keysPos;
}
{
    <ALTER> { s = span(); }
    (
        <VIEW> name = CompoundIdentifier()
        (
            LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("RENAME") })
            BridgeWord("RENAME") <TO> target = CompoundIdentifier() {
                action = SqlAlterTable.Action.VIEW_RENAME;
            }
        |
            <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
                action = SqlAlterTable.Action.VIEW_AS;
            }
        )
    |
        <TABLE>
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = CompoundIdentifier()
        (
            LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("RENAME") })
            BridgeWord("RENAME")
            (
                <TO> target = CompoundIdentifier() {
                    action = SqlAlterTable.Action.RENAME;
                }
            |
                column = BridgeColumnName() <TO> target = BridgeColumnName() {
                    action = SqlAlterTable.Action.RENAME_COLUMN;
                }
            )
        |
            <SET> list = BridgeOptionList() { action = SqlAlterTable.Action.SET; }
        |
            <RESET> <LPAREN> { keysPos = getPos(); }
            [
                key = BridgeStringLiteral() { keys.add(key); }
                ( <COMMA> key = BridgeStringLiteral() { keys.add(key); } )*
            ]
            <RPAREN> {
                list = new SqlNodeList(keys, keysPos.plus(getPos()));
                action = SqlAlterTable.Action.RESET;
            }
        |
            <DROP>
            (
                <PRIMARY> <KEY> { action = SqlAlterTable.Action.DROP_PRIMARY_KEY; }
            |
                <CONSTRAINT> column = SimpleIdentifier() {
                    action = SqlAlterTable.Action.DROP_CONSTRAINT;
                }
            |
                LOOKAHEAD({ getToken(1).kind == WATERMARK && (getToken(2).kind == EOF
                    || getToken(2).kind == SEMICOLON) })
                <WATERMARK> { action = SqlAlterTable.Action.DROP_WATERMARK; }
            |
                list = BridgeColumnNameList() { action = SqlAlterTable.Action.DROP_COLUMNS; }
            |
                column = BridgeColumnName() {
                    list = new SqlNodeList(List.of(column), column.getParserPosition());
                    column = null;
                    action = SqlAlterTable.Action.DROP_COLUMNS;
                }
            )
        |
            (
                <ADD> { action = SqlAlterTable.Action.ADD; }
            |
                LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("MODIFY") })
                BridgeWord("MODIFY") { action = SqlAlterTable.Action.MODIFY; }
            )
            (
                LOOKAHEAD(2)
                <LPAREN>
                AddBridgeAlterElement(columns, names, constraints, watermarks, positions)
                (
                    <COMMA>
                    AddBridgeAlterElement(columns, names, constraints, watermarks, positions)
                )*
                <RPAREN>
            |
                AddBridgeAlterElement(columns, names, constraints, watermarks, positions)
            )
            { list = new SqlNodeList(columns, name.getParserPosition()); }
        )
    )
    {
        return new SqlAlterTable(s.end(this), action, name, ifExists, target, column,
            list == null ? new SqlNodeList(name.getParserPosition()) : list,
            new SqlNodeList(constraints, name.getParserPosition()),
            new SqlNodeList(watermarks, name.getParserPosition()),
            new SqlNodeList(positions, name.getParserPosition()),
            query);
    }
}

// ---------------------------------------------------------------- catalogs, databases

/**
 * Parses ( 'key' = 'value', ... ) of ALTER CATALOG|DATABASE ... SET; returns
 * keys and values alternating.
 */
SqlNodeList BridgeOptionList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    final Set<String> keys = new HashSet<String>();
}
{
    <LPAREN> { s = span(); }
    [
        AddBridgeOption(list, keys)
        ( <COMMA> AddBridgeOption(list, keys) )*
    ]
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/**
 * Parses Flink's CREATE CATALOG [IF NOT EXISTS] c [COMMENT '...'] WITH (...),
 * DROP CATALOG [IF EXISTS] c, ALTER CATALOG c SET (...) | RESET ('k', ...) |
 * COMMENT '...', CREATE DATABASE [IF NOT EXISTS] [c.]db [COMMENT '...']
 * [WITH (...)], DROP DATABASE [IF EXISTS] [c.]db [RESTRICT | CASCADE], ALTER
 * DATABASE [c.]db SET (...), USE CATALOG c and USE [c.]db.
 */
SqlNode SqlBridgeCatalogStatement() :
{
    final Span s;
    final SqlIdentifier id;
    boolean ifExists = false;
    boolean flag = false;
    SqlCharStringLiteral comment = null;
    SqlNodeList opts = null;
    final List<SqlNode> keys = new ArrayList<SqlNode>();
    SqlCharStringLiteral key;
    SqlParserPos keysPos;
    SqlIdentifier module;
}
{
    (
        <CREATE> { s = span(); }
        (
            <CATALOG>
            [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifExists = true; } ]
            id = SimpleIdentifier()
            [ <COMMENT> comment = BridgeStringLiteral() ]
            [ opts = BridgeTableOptions() ]
            {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.CREATE_CATALOG, id, ifExists, false, false,
                    null, comment, opts);
            }
        |
            <DATABASE>
            [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifExists = true; } ]
            id = CompoundIdentifier()
            [ <COMMENT> comment = BridgeStringLiteral() ]
            [ opts = BridgeTableOptions() ]
            {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.CREATE_DATABASE, id, ifExists, false, false,
                    null, comment, opts);
            }
        )
    |
        <DROP> { s = span(); }
        (
            <CATALOG>
            [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
            id = SimpleIdentifier() {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.DROP_CATALOG, id, ifExists, false, false,
                    null, null, null);
            }
        |
            <DATABASE>
            [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
            id = CompoundIdentifier()
            [ <RESTRICT> | <CASCADE> { flag = true; } ]
            {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.DROP_DATABASE, id, ifExists, flag, false,
                    null, null, null);
            }
        )
    |
        <ALTER> { s = span(); }
        (
            <CATALOG> id = SimpleIdentifier()
            (
                <SET> opts = BridgeOptionList() {
                    return new SqlCatalogStatement(s.end(this),
                        SqlCatalogStatement.Statement.ALTER_CATALOG_SET, id, false, false,
                        false, null, null, opts);
                }
            |
                <RESET> <LPAREN> { keysPos = getPos(); }
                [
                    key = BridgeStringLiteral() { keys.add(key); }
                    ( <COMMA> key = BridgeStringLiteral() { keys.add(key); } )*
                ]
                <RPAREN> {
                    return new SqlCatalogStatement(s.end(this),
                        SqlCatalogStatement.Statement.ALTER_CATALOG_RESET, id, false, false,
                        false, null, null, new SqlNodeList(keys, keysPos.plus(getPos())));
                }
            |
                <COMMENT> comment = BridgeStringLiteral() {
                    return new SqlCatalogStatement(s.end(this),
                        SqlCatalogStatement.Statement.ALTER_CATALOG_COMMENT, id, false, false,
                        false, null, comment, null);
                }
            )
        |
            <DATABASE> id = CompoundIdentifier()
            <SET> opts = BridgeOptionList() {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.ALTER_DATABASE_SET, id, false, false, false,
                    null, null, opts);
            }
        )
    |
        <LOAD> { s = span(); } <MODULE> id = SimpleIdentifier()
        [ opts = BridgeTableOptions() ]
        {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.LOAD_MODULE, id, false, false, false,
                null, null, opts);
        }
    |
        <UNLOAD> { s = span(); } <MODULE> id = SimpleIdentifier() {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.UNLOAD_MODULE, id, false, false, false,
                null, null, null);
        }
    |
        <USE> { s = span(); }
        (
            LOOKAHEAD(2)
            <MODULES> { keysPos = getPos(); }
            module = SimpleIdentifier() { keys.add(module); }
            ( <COMMA> module = SimpleIdentifier() { keys.add(module); } )*
            {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.USE_MODULES, null, false, false, false,
                    null, null, new SqlNodeList(keys, keysPos.plus(getPos())));
            }
        |
            LOOKAHEAD(2)
            <CATALOG> id = SimpleIdentifier() {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.USE_CATALOG, id, false, false, false,
                    null, null, null);
            }
        |
            id = CompoundIdentifier() {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.USE_DATABASE, id, false, false, false,
                    null, null, null);
            }
        )
    )
}

// ---------------------------------------------------------------- SHOW, DESCRIBE, EXPLAIN

/**
 * Parses SHOW TABLES|VIEWS [FROM|IN db] [[NOT] LIKE|ILIKE 'pattern'], SHOW
 * CATALOGS, SHOW DATABASES [FROM|IN catalog], SHOW CURRENT CATALOG|DATABASE,
 * SHOW COLUMNS FROM|IN name [[NOT] LIKE 'pattern'], SHOW CREATE TABLE name,
 * SHOW CREATE VIEW name, SHOW CREATE CATALOG name and SHOW JARS.
 */
SqlNode SqlBridgeShow() :
{
    final Span s;
    boolean flag = false;
    boolean isView = false;
    SqlIdentifier name = null;
    boolean notLike = false;
    boolean ilike = false;
    boolean views = false;
    SqlCharStringLiteral pattern = null;
}
{
    <SHOW> { s = span(); }
    (
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("JARS") })
        BridgeWord("JARS") {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.SHOW_JARS, null, false, false, false,
                null, null, null);
        }
    |
        [ <FULL> { notLike = true; } ] <MODULES> {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.SHOW_MODULES, null, false, notLike, false,
                null, null, null);
        }
    |
        ( <TABLES> | <VIEWS> { views = true; } )
        [ ( <FROM> | <IN> ) name = CompoundIdentifier() ]
        [
            [ <NOT> { notLike = true; } ]
            ( <LIKE> | <ILIKE> { ilike = true; } )
            pattern = BridgeStringLiteral()
        ]
        {
            return new SqlShowTables(s.end(this), views, name, notLike, ilike, pattern);
        }
    |
        ( <USER> { flag = true; } <FUNCTIONS> | <FUNCTIONS> )
        [ ( <FROM> | <IN> ) name = CompoundIdentifier() ]
        [
            [ <NOT> { notLike = true; } ]
            ( <LIKE> | <ILIKE> { ilike = true; } )
            pattern = BridgeStringLiteral()
        ]
        {
            return new SqlShowFunctions(s.end(this), flag, notLike, ilike, pattern,
                null, false, name);
        }
    |
        <CATALOGS>
        [
            [ <NOT> { notLike = true; } ]
            ( <LIKE> | <ILIKE> { ilike = true; } )
            pattern = BridgeStringLiteral()
        ]
        {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.SHOW_CATALOGS, null, false, notLike, ilike,
                pattern, null, null);
        }
    |
        <DATABASES>
        [ ( <FROM> | <IN> ) name = SimpleIdentifier() ]
        [
            [ <NOT> { notLike = true; } ]
            ( <LIKE> | <ILIKE> { ilike = true; } )
            pattern = BridgeStringLiteral()
        ]
        {
            return new SqlCatalogStatement(s.end(this),
                SqlCatalogStatement.Statement.SHOW_DATABASES, name, false, notLike, ilike,
                pattern, null, null);
        }
    |
        <CURRENT>
        (
            <CATALOG> {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.SHOW_CURRENT_CATALOG, null, false, false,
                    false, null, null, null);
            }
        |
            <DATABASE> {
                return new SqlCatalogStatement(s.end(this),
                    SqlCatalogStatement.Statement.SHOW_CURRENT_DATABASE, null, false, false,
                    false, null, null, null);
            }
        )
    |
        LOOKAHEAD(2)
        <CREATE> <MATERIALIZED> <TABLE> name = CompoundIdentifier() {
            return new SqlFlinkCommand(s.end(name),
                SqlFlinkCommand.Kind.SHOW_CREATE_MATERIALIZED_TABLE, name, null, false, null,
                null);
        }
    |
        LOOKAHEAD(2)
        <CREATE> <CATALOG> name = SimpleIdentifier() {
            return new SqlCatalogStatement(s.end(name),
                SqlCatalogStatement.Statement.SHOW_CREATE_CATALOG, name, false, false, false,
                null, null, null);
        }
    |
        <COLUMNS> ( <FROM> | <IN> )
        name = CompoundIdentifier()
        [
            [ <NOT> { notLike = true; } ]
            <LIKE> pattern = BridgeStringLiteral()
        ]
        {
            return new SqlShowColumns(s.end(this), name, notLike, pattern);
        }
    |
        <CREATE> ( <TABLE> | <VIEW> { isView = true; } )
        name = CompoundIdentifier() {
            return new SqlShowCreateTable(s.end(name), name, isView);
        }
    )
}

/**
 * Parses DESCRIBE or DESC followed by [EXTENDED] [TABLE] name, by
 * DATABASE|SCHEMA [EXTENDED] name, CATALOG [EXTENDED] name, or by STATEMENT and a query. A DESCRIBE
 * followed directly by a query is left to Calcite's SqlDescribe.
 */
SqlNode SqlBridgeDescribe() :
{
    final Span s;
    final SqlIdentifier id;
    boolean extended = false;
    final SqlNode stmt;
}
{
    ( <DESCRIBE> | <DESC> ) { s = span(); }
    (
        LOOKAHEAD(2)
        <CATALOG>
        [
            LOOKAHEAD({ getToken(1).kind == EXTENDED && getToken(2).kind != EOF
                && getToken(2).kind != SEMICOLON })
            <EXTENDED> { extended = true; }
        ]
        id = SimpleIdentifier() {
            return new SqlCatalogStatement(s.end(id),
                SqlCatalogStatement.Statement.DESCRIBE_CATALOG, id, false, extended, false,
                null, null, null);
        }
    |
        LOOKAHEAD(2)
        ( <DATABASE> | <SCHEMA> )
        [
            LOOKAHEAD({ getToken(1).kind == EXTENDED && getToken(2).kind != EOF
                && getToken(2).kind != SEMICOLON })
            <EXTENDED> { extended = true; }
        ]
        id = CompoundIdentifier() {
            return new SqlCatalogStatement(s.end(id),
                SqlCatalogStatement.Statement.DESCRIBE_DATABASE, id, false, extended, false,
                null, null, null);
        }
    |
        LOOKAHEAD(2)
        <STATEMENT> stmt = SqlQueryOrDml() {
            return new SqlExplain(s.end(stmt), stmt,
                SqlExplainLevel.EXPPLAN_ATTRIBUTES.symbol(SqlParserPos.ZERO),
                SqlExplain.Depth.PHYSICAL.symbol(SqlParserPos.ZERO),
                SqlExplainFormat.TEXT.symbol(SqlParserPos.ZERO),
                nDynamicParams);
        }
    |
        <FUNCTION>
        [
            LOOKAHEAD({ getToken(1).kind == EXTENDED && getToken(2).kind != EOF
                && getToken(2).kind != SEMICOLON })
            <EXTENDED> { extended = true; }
        ]
        id = CompoundIdentifier() {
            return new SqlShowFunctions(s.end(id), false, false, false, null, id,
                extended);
        }
    |
        [
            LOOKAHEAD({ getToken(1).kind == EXTENDED && getToken(2).kind != EOF
                && getToken(2).kind != SEMICOLON })
            <EXTENDED> { extended = true; }
        ]
        [ <TABLE> ]
        // As Flink's DESCRIBE: a table or view, no column operand (a parse error at it).
        id = CompoundIdentifier()
        {
            return extended
                ? new SqlDescribeExtended(s.end(this), id, null)
                : new SqlDescribeTable(s.end(this), id, null);
        }
    )
}

/**
 * Parses EXPLAIN [PLAN [detail] [depth] [AS format] FOR] statement, and
 * Flink's EXPLAIN detail[, detail]* statement (SqlExplainDetails). The
 * forms without details produce Calcite's SqlExplain.
 */
SqlNode SqlBridgeExplain() :
{
    final Span s;
    SqlExplainLevel detailLevel = SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    SqlExplain.Depth depth = SqlExplain.Depth.PHYSICAL;
    SqlExplainFormat format = SqlExplainFormat.TEXT;
    SqlNode stmt;
    final List<SqlIdentifier> details = new ArrayList<SqlIdentifier>();
    SqlIdentifier detail;
}
{
    <EXPLAIN> { s = span(); }
    [
        LOOKAHEAD({ getToken(1).kind == IDENTIFIER })
        detail = SimpleIdentifier() { details.add(detail); }
        ( <COMMA> detail = SimpleIdentifier() { details.add(detail); } )*
    ]
    [
        LOOKAHEAD(1)
        <PLAN>
        [ detailLevel = ExplainDetailLevel() ]
        depth = ExplainDepth()
        [
            <AS>
            (
                <XML> { format = SqlExplainFormat.XML; }
            |
                <JSON> { format = SqlExplainFormat.JSON; }
            |
                <DOT_FORMAT> { format = SqlExplainFormat.DOT; }
            )
        ]
        <FOR>
    ]
    (
        LOOKAHEAD(2)
        stmt = SqlBridgeExplainedSet()
    |
        LOOKAHEAD(2)
        stmt = SqlBridgeInsert()
    |
        stmt = SqlQueryOrDml()
    )
    {
        if (!details.isEmpty()) {
            return new SqlExplainDetails(s.end(stmt), stmt,
                detailLevel.symbol(SqlParserPos.ZERO),
                depth.symbol(SqlParserPos.ZERO),
                format.symbol(SqlParserPos.ZERO),
                nDynamicParams, details);
        }
        return new SqlExplain(s.end(stmt), stmt,
            detailLevel.symbol(SqlParserPos.ZERO),
            depth.symbol(SqlParserPos.ZERO),
            format.symbol(SqlParserPos.ZERO),
            nDynamicParams);
    }
}

// ---------------------------------------------------------------- SET, RESET

/**
 * Parses SET 'key' = 'value', SET, RESET 'key' and RESET (our
 * SqlSetConfig and SqlResetConfig), and the SQL client's unquoted
 * SET key = value and RESET key, whose key and value are taken as written
 * (table.exec.state.ttl, sql-client.execution.result-mode, 10 s). RESET ALL
 * resets every key. Also used after ALTER SYSTEM|SESSION.
 */
SqlAlter SqlBridgeSetOption(Span s, String scope) :
{
    SqlCharStringLiteral key;
    SqlCharStringLiteral value;
}
{
    (
        <SET> { s.add(this); }
        (
            LOOKAHEAD(2)
            key = BridgeStringLiteral() <EQ> value = BridgeStringLiteral() {
                return new SqlSetConfig(s.end(value), scope, key, value);
            }
        |
            LOOKAHEAD({ getToken(1).kind != EOF && getToken(1).kind != SEMICOLON })
            { key = BridgeRawText(true); }
            (
                <EQ>
                {
                    value = BridgeRawText(false);
                    return new SqlSetConfig(s.end(this), scope, key, value);
                }
            |
                {
                    return new SqlSetConfig(s.end(key), scope, key, null);
                }
            )
        |
            {
                return new SqlSetConfig(s.end(this), scope, null, null);
            }
        )
    |
        <RESET> { s.add(this); }
        (
            LOOKAHEAD(2)
            <ALL> {
                return new SqlResetConfig(s.end(this), scope, null);
            }
        |
            LOOKAHEAD({ getToken(1).kind != EOF && getToken(1).kind != SEMICOLON })
            {
                key = BridgeRawText(false);
                return new SqlResetConfig(s.end(key), scope, key);
            }
        |
            {
                return new SqlResetConfig(s.end(this), scope, null);
            }
        )
    )
}

/**
 * Reads the tokens up to "=" (when {@code toEquals}) or to the end of the
 * statement as one string, as the SQL client reads an unquoted key or value:
 * tokens written together are joined, a space between them is kept, and a
 * lone quoted string stands for its text.
 */
JAVACODE SqlCharStringLiteral BridgeRawText(boolean toEquals) {
    final StringBuilder b = new StringBuilder();
    Token first = getToken(1);
    Token prev = null;
    int count = 0;
    while (getToken(1).kind != EOF && getToken(1).kind != SEMICOLON
        && !(toEquals && getToken(1).kind == EQ)) {
        final Token t = getNextToken();
        if (prev != null && (t.beginLine != prev.endLine
            || t.beginColumn != prev.endColumn + 1)) {
            b.append(' ');
        }
        b.append(t.image);
        prev = t;
        count++;
    }
    String text = b.toString();
    if (count == 1 && prev.kind == QUOTED_STRING) {
        text = text.substring(1, text.length() - 1).replace("''", "'");
    }
    final SqlParserPos pos = prev == null
        ? new SqlParserPos(first.beginLine, first.beginColumn)
        : new SqlParserPos(first.beginLine, first.beginColumn,
            prev.endLine, prev.endColumn);
    return SqlLiteral.createCharString(text, pos);
}

/**
 * MariaDB's dynamic-columns functions, whose arguments may carry "AS type":
 * COLUMN_CREATE('name', value [AS type], ...), COLUMN_ADD(blob, 'name', value
 * [AS type], ...), COLUMN_GET(blob, 'name' AS type), and COLUMN_DELETE,
 * COLUMN_EXISTS, COLUMN_LIST, COLUMN_CHECK, COLUMN_JSON.
 */
SqlNode DynColFunctionCall() :
{
    final String name;
    final Span s;
    final List<Object> parts = new ArrayList<Object>();
}
{
    (
        <COLUMN_CREATE> { name = "COLUMN_CREATE"; }
    |   <COLUMN_ADD> { name = "COLUMN_ADD"; }
    |   <COLUMN_GET> { name = "COLUMN_GET"; }
    |   <COLUMN_DELETE> { name = "COLUMN_DELETE"; }
    |   <COLUMN_EXISTS> { name = "COLUMN_EXISTS"; }
    |   <COLUMN_LIST> { name = "COLUMN_LIST"; }
    |   <COLUMN_CHECK> { name = "COLUMN_CHECK"; }
    |   <COLUMN_JSON> { name = "COLUMN_JSON"; }
    )
    { s = span(); }
    <LPAREN>
    [
        DynColArgument(parts)
        ( <COMMA> DynColArgument(parts) )*
    ]
    <RPAREN>
    {
        try {
            return DynColCalls.call(name, parts, s.end(this));
        } catch (IllegalArgumentException e) {
            throw SqlUtil.newContextException(s.end(this),
                DynColResource.RESOURCE.badCall(e.getMessage()));
        }
    }
}

void DynColArgument(List<Object> parts) :
{
    final SqlNode e;
    final String type;
}
{
    e = Expression(ExprContext.ACCEPT_SUB_QUERY) { parts.add(e); }
    [
        <AS> type = DynColTypeName() { parts.add(type); }
    ]
}

String DynColTypeName() :
{
    final StringBuilder b = new StringBuilder();
    Token t;
}
{
    (
        t = <INT> | t = <INTEGER> | t = <CHAR> | t = <BINARY> | t = <DECIMAL>
    |   t = <DEC> | t = <NUMERIC> | t = <DOUBLE> | t = <DATE> | t = <TIME>
    |   t = <UNSIGNED> | t = <DATETIME> | t = <IDENTIFIER>
    )
    { b.append(t.image); }
    [
        ( t = <INT> | t = <INTEGER> | t = <PRECISION> )
        { b.append(' ').append(t.image); }
    ]
    [
        <LPAREN> t = <UNSIGNED_INTEGER_LITERAL> { b.append('(').append(t.image); }
        [ <COMMA> t = <UNSIGNED_INTEGER_LITERAL> { b.append(',').append(t.image); } ]
        <RPAREN> { b.append(')'); }
    ]
    { return b.toString(); }
}

/**
 * Parses Flink's UUID(): UUID is also a type name and starts a UUID literal,
 * so the call is not a named function call. The validator looks the
 * function up by name.
 */
SqlNode UuidFunctionCall() :
{
    final Span s;
}
{
    <UUID> { s = span(); } <LPAREN> <RPAREN>
    {
        return new org.apache.calcite.sql.SqlUnresolvedFunction(
            new SqlIdentifier("UUID", s.end(this)), null, null, null, null,
            org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION)
            .createCall(s.end(this));
    }
}

// ---------------------------------------------------------------- MATERIALIZED TABLE

/**
 * Parses Flink's CREATE MATERIALIZED TABLE, after CREATE: [IF NOT EXISTS] name
 * [(constraint)] [COMMENT 'text'] [PARTITIONED BY (column, ...)] [WITH
 * (options)] [FRESHNESS = interval] [REFRESH_MODE = CONTINUOUS|FULL] AS query.
 */
SqlCreate SqlBridgeCreateMaterializedTable(Span s, boolean replace, boolean temporary) :
{
    boolean ifNotExists = false;
    final SqlIdentifier name;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final Set<String> columnNames = new HashSet<String>();
    final List<SqlNode> constraints = new ArrayList<SqlNode>();
    final List<SqlNode> watermarks = new ArrayList<SqlNode>();
    SqlCharStringLiteral comment = null;
    SqlNodeList partitionKeys = null;
    SqlNodeList optionList = null;
    SqlNode freshness = null;
    SqlIdentifier mode = null;
    final SqlNode query;
}
{
    <MATERIALIZED>
    {
        if (replace) {
            throw SqlUtil.newContextException(getPos(),
                BridgeParserResource.RESOURCE.replaceMaterializedTable());
        }
    }
    <TABLE>
    [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = CompoundIdentifier()
    [
        <LPAREN>
        AddBridgeTableElement(columns, columnNames, constraints, watermarks)
        ( <COMMA> AddBridgeTableElement(columns, columnNames, constraints, watermarks) )*
        <RPAREN>
    ]
    [ <COMMENT> comment = BridgeStringLiteral() ]
    [ <PARTITIONED> <BY> partitionKeys = BridgeColumnNameList() ]
    [ optionList = BridgeTableOptions() ]
    [
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("FRESHNESS") })
        BridgeWord("FRESHNESS") <EQ> freshness = IntervalLiteral()
    ]
    [
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("REFRESH_MODE") })
        BridgeWord("REFRESH_MODE") <EQ> mode = SimpleIdentifier()
    ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlCreateMaterializedTable(s.end(this), replace, temporary, ifNotExists, name,
            new SqlNodeList(columns, name.getParserPosition()),
            new SqlNodeList(constraints, name.getParserPosition()), comment,
            partitionKeys == null ? new SqlNodeList(name.getParserPosition()) : partitionKeys,
            optionList == null ? SqlNodeList.EMPTY : optionList, freshness, mode, query,
            SqlCreateMaterializedTable.Mode.CREATE);
    }
}

/**
 * Parses Flink's CREATE OR ALTER MATERIALIZED TABLE (FLIP-546) and, as both start
 * with CREATE OR, CREATE OR REPLACE as Calcite's CREATE does.
 */
SqlNode SqlBridgeCreateOr() :
{
    final Span s;
    final SqlCreate create;
}
{
    <CREATE> { s = span(); } <OR>
    (
        <ALTER> create = SqlBridgeCreateMaterializedTable(s, false, false) {
            return ((SqlCreateMaterializedTable) create).orAlter();
        }
    |
        <REPLACE> create = SqlBridgeCreateTableOrView(s, true) {
            return create;
        }
    )
}

/**
 * Parses Flink's ALTER MATERIALIZED TABLE name REFRESH, SUSPEND, RESUME
 * [WITH (options)], or AS query.
 */
SqlNode SqlBridgeAlterMaterializedTable() :
{
    final Span s;
    final SqlIdentifier name;
    SqlNodeList withOptions = null;
    final SqlNode query;
}
{
    <ALTER> { s = span(); } <MATERIALIZED> <TABLE> name = CompoundIdentifier()
    (
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("REFRESH") })
        BridgeWord("REFRESH")
        {
            return new SqlFlinkCommand(s.end(this),
                SqlFlinkCommand.Kind.REFRESH_MATERIALIZED_TABLE, name, null, false, null,
                withOptions);
        }
    |
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
        {
            return new SqlCreateMaterializedTable(s.end(this), false, false, false, name,
                new SqlNodeList(name.getParserPosition()),
                new SqlNodeList(name.getParserPosition()), null,
                new SqlNodeList(name.getParserPosition()), SqlNodeList.EMPTY, null, null,
                query, SqlCreateMaterializedTable.Mode.ALTER);
        }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("SUSPEND") })
        BridgeWord("SUSPEND")
        {
            return new SqlFlinkCommand(s.end(this),
                SqlFlinkCommand.Kind.SUSPEND_MATERIALIZED_TABLE, name, null, false, null, null);
        }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("RESUME") })
        BridgeWord("RESUME")
        [ withOptions = BridgeTableOptions() ]
        {
            return new SqlFlinkCommand(s.end(this),
                SqlFlinkCommand.Kind.RESUME_MATERIALIZED_TABLE, name, null, false, null,
                withOptions);
        }
    )
}

// ---------------------------------------------------------------- EXECUTE, COMPILE PLAN, HELP

/**
 * Parses Flink's EXECUTE INSERT ... (the INSERT itself) and EXECUTE PLAN 'file'.
 */
SqlNode SqlBridgeExecute() :
{
    final Span s;
    final SqlNode insert;
    final SqlNode file;
}
{
    <EXECUTE> { s = span(); }
    (
        insert = SqlBridgeInsert() { return insert; }
    |
        <PLAN> file = BridgeStringLiteral() {
            return new SqlFlinkCommand(s.end(this), SqlFlinkCommand.Kind.EXECUTE_PLAN, null,
                (SqlCharStringLiteral) file, false, null, null);
        }
    )
}

/**
 * Parses Flink's COMPILE PLAN 'file' [IF NOT EXISTS] FOR statement and COMPILE
 * AND EXECUTE PLAN 'file' FOR statement, the statement an INSERT or a
 * statement set.
 */
SqlNode SqlBridgeCompilePlan() :
{
    final Span s;
    boolean execute = false;
    boolean ifNotExists = false;
    final SqlNode file;
    final SqlNode statement;
}
{
    <COMPILE> { s = span(); }
    [ <AND> <EXECUTE> { execute = true; } ]
    <PLAN> file = BridgeStringLiteral()
    [ <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    <FOR>
    (
        statement = SqlBridgeInsert()
    |
        statement = SqlBridgeExplainedSet()
    )
    {
        return new SqlFlinkCommand(s.end(this),
            execute ? SqlFlinkCommand.Kind.COMPILE_AND_EXECUTE_PLAN
                : SqlFlinkCommand.Kind.COMPILE_PLAN,
            null, (SqlCharStringLiteral) file, ifNotExists, statement, null);
    }
}

/** Parses the SQL client's HELP. */
SqlNode SqlBridgeHelp() :
{
    final Span s;
}
{
    <HELP> { s = span(); }
    {
        return new SqlFlinkCommand(s.end(this), SqlFlinkCommand.Kind.HELP, null, null, false,
            null, null);
    }
}

/**
 * Parses an INSERT: Calcite's (INSERT INTO, UPSERT INTO, with hints, EXTEND and a column list)
 * and Flink's INSERT OVERWRITE t and static partition, INSERT { INTO | OVERWRITE } t
 * PARTITION (k = v, ...) [(cols)] query.
 */
SqlNode SqlBridgeInsert() :
{
    final List<SqlLiteral> keywords = new ArrayList<SqlLiteral>();
    final SqlIdentifier tableName;
    SqlNode tableRef;
    final SqlNode source;
    SqlNodeList columnList = null;
    SqlNodeList partition = null;
    boolean overwrite = false;
    final Span s;
    Pair<SqlNodeList, SqlNodeList> p;
    SqlIdentifier key;
    SqlNode value;
}
{
    (
        <INSERT>
    |
        <UPSERT> { keywords.add(SqlInsertKeyword.UPSERT.symbol(getPos())); }
    )
    { s = span(); }
    ( <INTO> | <OVERWRITE> { overwrite = true; } )
    tableName = CompoundTableIdentifier()
    ( tableRef = TableHints(tableName) | { tableRef = tableName; } )
    [
        <PARTITION> { partition = new SqlNodeList(getPos()); }
        <LPAREN>
        key = SimpleIdentifier() <EQ> value = Literal() {
            partition.add(key);
            partition.add(value);
        }
        (
            <COMMA> key = SimpleIdentifier() <EQ> value = Literal() {
                partition.add(key);
                partition.add(value);
            }
        )*
        <RPAREN>
    ]
    [ LOOKAHEAD(5) tableRef = ExtendTable(tableRef) ]
    (
        LOOKAHEAD(2)
        p = ParenthesizedCompoundIdentifierList() {
            if (!p.right.isEmpty()) {
                tableRef = extend(tableRef, p.right);
            }
            if (!p.left.isEmpty()) {
                columnList = p.left;
            }
        }
    |   { columnList = null; }
    )
    source = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        final SqlNodeList keywordList = new SqlNodeList(keywords, s.addAll(keywords).pos());
        if (!overwrite && partition == null) {
            return new SqlInsert(s.end(source), keywordList, tableRef, source, columnList);
        }
        return new SqlFlinkInsert(s.end(source), keywordList, tableRef, source, columnList,
            overwrite, partition);
    }
}
