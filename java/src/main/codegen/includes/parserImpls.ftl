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
 * computed.
 */
void AddBridgeColumn(List<SqlNode> columns, Set<String> names) :
{
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    final SqlNode expression;
    SqlNode key = null;
    boolean isVirtual = false;
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
            columns.add(new SqlComputedColumn(
                Span.of(name).end(expression), name, expression));
        }
    |
        type = BridgeColumnType()
        (
            <METADATA>
            [ <FROM> key = BridgeStringLiteral() ]
            [ <VIRTUAL> { isVirtual = true; } ]
            {
                columns.add(new SqlMetadataColumn(Span.of(name).end(this),
                    name, type, (SqlCharStringLiteral) key, isVirtual));
            }
        |
            {
                columns.add(new SqlPhysicalColumn(Span.of(name).end(this),
                    name, type));
            }
        )
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
 * Parses CREATE TABLE, after CREATE [OR REPLACE].
 */
SqlCreate SqlBridgeCreateTable(Span s, boolean replace) :
{
    boolean ifNotExists = false;
    final SqlIdentifier name;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final Set<String> columnNames = new HashSet<String>();
    SqlParserPos columnsPos = null;
    boolean ellipsis = false;
    SqlDataTypeSpec dynamicType = null;
    Boolean dynamicOption = null;
    SqlIdentifier off;
    SqlNodeList optionList = null;
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
            AddBridgeColumn(columns, columnNames)
            (
                LOOKAHEAD(2)
                <COMMA> AddBridgeColumn(columns, columnNames)
            )*
            [
                <COMMA> dynamicType = BridgeEllipsis() { ellipsis = true; }
            ]
        )
        <RPAREN> { columnsPos = columnsPos.plus(getPos()); }
    ]
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
    {
        return new SqlCreateTable(s.end(this), replace, ifNotExists, name,
            new SqlNodeList(columns,
                columnsPos == null ? name.getParserPosition() : columnsPos),
            ellipsis, dynamicType, dynamicOption,
            optionList == null ? SqlNodeList.EMPTY : optionList);
    }
}

// ---------------------------------------------------------------- views, DROP

/**
 * Parses CREATE [TEMPORARY] VIEW, after CREATE [OR REPLACE].
 */
SqlCreate SqlBridgeCreateView(Span s, boolean replace) :
{
    boolean temporary = false;
    boolean ifNotExists = false;
    final SqlIdentifier name;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    [ <TEMPORARY> { temporary = true; } ]
    <VIEW>
    [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = CompoundIdentifier()
    [ columns = BridgeColumnNameList() ]
    <AS>
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlCreateView(s.end(query), replace, temporary,
            ifNotExists, name, columns, query);
    }
}

/**
 * Parses DROP TABLE and DROP VIEW, after DROP.
 */
SqlDrop SqlBridgeDropObject(Span s, boolean replace) :
{
    boolean isView = false;
    boolean ifExists = false;
    final SqlIdentifier name;
}
{
    ( <TABLE> | <VIEW> { isView = true; } )
    [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
    name = CompoundIdentifier()
    {
        return new SqlDropObject(s.end(name), isView, ifExists, name);
    }
}

// ---------------------------------------------------------------- SHOW, DESCRIBE, EXPLAIN

/**
 * Parses SHOW TABLES, SHOW CREATE TABLE name and SHOW CREATE VIEW name.
 */
SqlNode SqlBridgeShow() :
{
    final Span s;
    boolean isView = false;
    final SqlIdentifier name;
}
{
    <SHOW> { s = span(); }
    (
        <TABLES> {
            return new SqlShowTables(s.end(this));
        }
    |
        <CREATE> ( <TABLE> | <VIEW> { isView = true; } )
        name = CompoundIdentifier() {
            return new SqlShowCreateTable(s.end(name), name, isView);
        }
    )
}

/**
 * Parses DESCRIBE or DESC followed by [TABLE] name [column], by
 * DATABASE/CATALOG/SCHEMA name, or by STATEMENT and a query. A DESCRIBE
 * followed directly by a query is left to Calcite's SqlDescribe.
 */
SqlNode SqlBridgeDescribe() :
{
    final Span s;
    final SqlIdentifier id;
    SqlIdentifier column = null;
    final SqlNode stmt;
}
{
    ( <DESCRIBE> | <DESC> ) { s = span(); }
    (
        LOOKAHEAD(2)
        ( <DATABASE> | <CATALOG> | <SCHEMA> )
        id = CompoundIdentifier() {
            return new SqlDescribeSchema(s.end(id), id);
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
        [ <TABLE> ]
        id = CompoundIdentifier()
        [ column = BridgeColumnName() ]
        {
            return new SqlDescribeTable(s.end(this), id, column);
        }
    )
}

/**
 * Parses EXPLAIN [PLAN [detail] [depth] [AS format] FOR] statement. Both
 * forms produce Calcite's SqlExplain.
 */
SqlNode SqlBridgeExplain() :
{
    final Span s;
    SqlExplainLevel detailLevel = SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    SqlExplain.Depth depth = SqlExplain.Depth.PHYSICAL;
    SqlExplainFormat format = SqlExplainFormat.TEXT;
    final SqlNode stmt;
}
{
    <EXPLAIN> { s = span(); }
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
    stmt = SqlQueryOrDml() {
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
 * SqlSetConfig and SqlResetConfig), and Calcite's unquoted
 * SET name = value / RESET name / RESET ALL (SqlSetOption). Also used after
 * ALTER SYSTEM|SESSION.
 */
SqlAlter SqlBridgeSetOption(Span s, String scope) :
{
    final SqlIdentifier name;
    final SqlCharStringLiteral key;
    final SqlNode value;
}
{
    (
        <SET> { s.add(this); }
        (
            key = BridgeStringLiteral() <EQ> value = BridgeStringLiteral() {
                return new SqlSetConfig(s.end(value), scope, key,
                    (SqlCharStringLiteral) value);
            }
        |
            name = CompoundIdentifier() <EQ>
            (
                value = Literal()
            |
                value = SimpleIdentifier()
            |
                <ON> {
                    value = new SqlIdentifier(token.image.toUpperCase(Locale.ROOT),
                        getPos());
                }
            )
            {
                return new SqlSetOption(s.end(value), scope, name, value);
            }
        |
            {
                return new SqlSetConfig(s.end(this), scope, null, null);
            }
        )
    |
        <RESET> { s.add(this); }
        (
            key = BridgeStringLiteral() {
                return new SqlResetConfig(s.end(key), scope, key);
            }
        |
            name = CompoundIdentifier() {
                return new SqlSetOption(s.end(name), scope, name, null);
            }
        |
            <ALL> {
                return new SqlSetOption(s.end(this), scope,
                    new SqlIdentifier(token.image.toUpperCase(Locale.ROOT), getPos()),
                    null);
            }
        |
            {
                return new SqlResetConfig(s.end(this), scope, null);
            }
        )
    )
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
