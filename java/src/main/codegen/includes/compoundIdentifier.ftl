<#--
  Compound identifiers of the calcite-bridge parser. Included instead of
  Calcite's own productions (includeCompoundIdentifier: false) so that the
  reserved word USER may name a field after a dot ("t.user.age") and a
  target column of INSERT ("INSERT INTO t (id, user) ...").
-->

/**
 * Parses one segment after a dot: any identifier segment, or USER.
 */
void AddNestedIdentifierSegment(List<String> names, List<SqlParserPos> positions) :
{
}
{
    (
        AddIdentifierSegment(names, positions)
    |
        <USER> {
            names.add(unquotedIdentifier());
            positions.add(getPos());
        }
    )
}

/**
 * Parses the rest of a compound identifier: zero or more ". segment",
 * optionally followed by ".*". Returns whether it ended with a star.
 */
boolean AddCompoundIdentifierTail(List<String> names, List<SqlParserPos> positions) :
{
    boolean star = false;
}
{
    (
        LOOKAHEAD(2)
        <DOT>
        AddNestedIdentifierSegment(names, positions)
    )*
    (
        LOOKAHEAD(2)
        <DOT>
        <STAR> {
            star = true;
            names.add("");
            positions.add(getPos());
        }
    )?
    {
        return star;
    }
}

/**
 * Builds an identifier (or a star identifier) from its segments.
 */
JAVACODE SqlIdentifier BridgeIdentifier(List<String> names,
    List<SqlParserPos> positions, boolean star) {
    final SqlParserPos pos = SqlParserPos.sum(positions);
    if (star) {
        return SqlIdentifier.star(names, pos, positions);
    }
    return new SqlIdentifier(names, null, pos, positions);
}

/**
 * Parses a compound identifier.
 */
SqlIdentifier CompoundIdentifier() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
    final boolean star;
}
{
    AddIdentifierSegment(names, positions)
    star = AddCompoundIdentifierTail(names, positions)
    {
        return BridgeIdentifier(names, positions, star);
    }
}

/**
 * Parses a compound identifier that starts with USER and a dot, such as
 * "user.age" where "user" is a ROW column. Without the dot, USER stays the
 * context variable.
 */
SqlNode UserCompoundIdentifier() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
    boolean star = false;
}
{
    <USER> {
        names.add(unquotedIdentifier());
        positions.add(getPos());
    }
    <DOT>
    (
        <STAR> {
            star = true;
            names.add("");
            positions.add(getPos());
        }
    |
        AddNestedIdentifierSegment(names, positions)
        star = AddCompoundIdentifierTail(names, positions)
    )
    {
        return BridgeIdentifier(names, positions, star);
    }
}

/**
 * Parses a compound identifier in the FROM clause.
 */
SqlIdentifier CompoundTableIdentifier() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    AddTableIdentifierSegment(names, positions)
    (
        LOOKAHEAD(2)
        <DOT>
        AddTableIdentifierSegment(names, positions)
    )*
    {
        return BridgeIdentifier(names, positions, false);
    }
}

/**
 * Parses one target column of an INSERT column list (or of an extended
 * column list); the column may be called USER.
 */
void AddTargetColumn(List<SqlNode> list, List<SqlNode> extendList) :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    (
        <USER> {
            // Marked as quoted: it is a column name, never the USER function.
            names.add(unquotedIdentifier());
            positions.add(getPos().withQuoting(true));
        }
        (
            LOOKAHEAD(2)
            <DOT>
            AddNestedIdentifierSegment(names, positions)
        )*
        {
            list.add(BridgeIdentifier(names, positions, false));
        }
    |
        AddCompoundIdentifierType(list, extendList)
    )
}

/**
 * Parses a comma-separated list of compound identifiers.
 */
void AddCompoundIdentifierTypes(List<SqlNode> list, List<SqlNode> extendList) :
{
}
{
    AddTargetColumn(list, extendList)
    ( <COMMA> AddTargetColumn(list, extendList) )*
}

/**
 * List of compound identifiers in parentheses. The position extends from the
 * open parenthesis to the close parenthesis.
 */
Pair<SqlNodeList, SqlNodeList> ParenthesizedCompoundIdentifierList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    final List<SqlNode> extendList = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    AddCompoundIdentifierTypes(list, extendList)
    <RPAREN> {
        return Pair.of(new SqlNodeList(list, s.end(this)),
            new SqlNodeList(extendList, s.end(this)));
    }
}
