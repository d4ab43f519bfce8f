package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's built-in functions that Calcite's standard operator table lacks, one class per category
 * of Flink's documentation: {@link StringFunctions}, {@link ConditionalFunctions}, {@link
 * HashFunctions}, {@link MathFunctions}, {@link TemporalFunctions}, {@link CollectionFunctions}.
 * Their names, argument types, result types and NULL handling are Flink 2.3's, checked against
 * PyFlink's answers in {@code tests/flink/}.
 */
public final class FlinkFunctions {
  private FlinkFunctions() {}

  /** Made on first use, by {@link #table}. */
  private static final class Built {
    static final SqlOperatorTable TABLE = build();

    private Built() {}
  }

  /**
   * The names of the functions of {@link #table}, in upper case. A lookup of any other name is
   * answered from this list, so the operators are made (each category's class initialised, their
   * type inferences and operand checkers with them) when a statement first names one, not with the
   * first session: most first statements name none. {@code FlinkFunctionsTest} checks that it holds
   * the table's names, no more and no fewer.
   */
  static final Set<String> NAMES =
      Set.of(
          "$GROUP_HOP",
          "$GROUP_TUMBLE",
          "$ROWTIME",
          "$WINDOWED_TIME",
          "$WINDOWS",
          "$WINDOW_END",
          "$WINDOW_START",
          "$WINDOW_TIME",
          "ARRAY_AGG",
          "ARRAY_APPEND",
          "ARRAY_CONCAT",
          "ARRAY_CONTAINS",
          "ARRAY_DISTINCT",
          "ARRAY_EXCEPT",
          "ARRAY_INTERSECT",
          "ARRAY_JOIN",
          "ARRAY_MAX",
          "ARRAY_MIN",
          "ARRAY_POSITION",
          "ARRAY_PREPEND",
          "ARRAY_REMOVE",
          "ARRAY_REVERSE",
          "ARRAY_SLICE",
          "ARRAY_SORT",
          "ARRAY_UNION",
          "BIN",
          "BITMAP_AND",
          "BITMAP_ANDNOT",
          "BITMAP_AND_AGG",
          "BITMAP_AND_CARDINALITY_AGG",
          "BITMAP_BUILD",
          "BITMAP_BUILD_AGG",
          "BITMAP_BUILD_CARDINALITY_AGG",
          "BITMAP_CARDINALITY",
          "BITMAP_FROM_BYTES",
          "BITMAP_OR",
          "BITMAP_OR_AGG",
          "BITMAP_OR_CARDINALITY_AGG",
          "BITMAP_TO_ARRAY",
          "BITMAP_TO_BYTES",
          "BITMAP_TO_STRING",
          "BITMAP_XOR",
          "BITMAP_XOR_AGG",
          "BITMAP_XOR_CARDINALITY_AGG",
          "BTRIM",
          "CHR",
          "COALESCE",
          "CONCAT",
          "CONCAT_WS",
          "CONVERT_TZ",
          "COSH",
          "CURRENT_DATABASE",
          "CURRENT_ROW_TIMESTAMP",
          "CURRENT_TIMESTAMP",
          "CURRENT_WATERMARK",
          "DATE_FORMAT",
          "DECODE",
          "E",
          "ELEMENT",
          "ELT",
          "ENCODE",
          "ENDSWITH",
          "FROM_BASE64",
          "FROM_UNIXTIME",
          "GREATEST",
          "HEX",
          "IF",
          "IFNULL",
          "INET_ATON",
          "INET_NTOA",
          "INSTR",
          "IS_ALPHA",
          "IS_DECIMAL",
          "IS_DIGIT",
          "JSON",
          "JSON_QUOTE",
          "JSON_STRING",
          "JSON_UNQUOTE",
          "LEAST",
          "LEFT",
          "LOCALTIMESTAMP",
          "LOCATE",
          "LOG",
          "LOG2",
          "LPAD",
          "LTRIM",
          "MAP_ENTRIES",
          "MAP_FROM_ARRAYS",
          "MAP_KEYS",
          "MAP_UNION",
          "MAP_VALUES",
          "MD5",
          "NOW",
          "OBJECT_OF",
          "OBJECT_UPDATE",
          "PARSE_JSON",
          "PARSE_URL",
          "PERCENTILE",
          "PRINTF",
          "PROCTIME",
          "RAND",
          "REGEXP",
          "REGEXP_COUNT",
          "REGEXP_EXTRACT",
          "REGEXP_EXTRACT_ALL",
          "REGEXP_INSTR",
          "REGEXP_REPLACE",
          "REGEXP_SUBSTR",
          "REPEAT",
          "REVERSE",
          "RIGHT",
          "RPAD",
          "RTRIM",
          "SHA1",
          "SHA2",
          "SHA224",
          "SHA256",
          "SHA384",
          "SHA512",
          "SINH",
          "SOURCE_WATERMARK",
          "SPLIT",
          "SPLIT_INDEX",
          "STARTSWITH",
          "STR_TO_MAP",
          "SUBSTR",
          "TANH",
          "TO_BASE64",
          "TO_DATE",
          "TO_TIMESTAMP",
          "TO_TIMESTAMP_LTZ",
          "TRANSLATE3",
          "TRY_CAST",
          "TRY_PARSE_JSON",
          "TYPEOF",
          "UNHEX",
          "UNIX_TIMESTAMP",
          "URL_DECODE",
          "URL_ENCODE",
          "UUID",
          "VARIANCE",
          "VAR_SAMP");

  /** The operator table of every function of every category, the same table for every caller. */
  public static SqlOperatorTable table() {
    return Built.TABLE;
  }

  /**
   * {@link #table} as the validator asks it, whatever the case of the name (as {@link
   * #caseInsensitive}): a simple name that is not one of its functions' ({@link #NAMES}) finds
   * nothing without making the table.
   */
  public static SqlOperatorTable byName() {
    return new AnyCase(null, NAMES);
  }

  private static SqlOperatorTable build() {
    List<SqlOperator> all = new ArrayList<>();
    all.addAll(StringFunctions.ALL);
    all.addAll(ConditionalFunctions.ALL);
    all.addAll(HashFunctions.ALL);
    all.addAll(MathFunctions.ALL);
    all.addAll(TemporalFunctions.ALL);
    all.addAll(CollectionFunctions.ALL);
    all.addAll(JsonFunctions.ALL);
    all.addAll(WindowFunctions.all());
    all.addAll(MiscFunctions.ALL);
    all.addAll(BitmapFunctions.ALL);
    all.addAll(ObjectFunctions.ALL);
    all.addAll(StreamingFunctions.ALL);
    all.addAll(BitmapAgg.ALL);
    // Flink's TRY_CAST: NULL where CAST fails.
    all.add(SqlLibraryOperators.TRY_CAST);
    // Flink's ARRAY_AGG: NULLs kept, an array of no rows is empty.
    all.add(new ArrayAgg());
    all.add(new Percentile());
    all.add(SampleVariance.VAR_SAMP);
    all.add(SampleVariance.VARIANCE);
    return SqlOperatorTables.of(all);
  }

  /**
   * {@code table} looked up whatever the case of the name, as Flink looks up its functions: {@code
   * typeof(1)} and {@code current_database()} are {@code TYPEOF} and {@code CURRENT_DATABASE}.
   * Identifiers stay case-sensitive; only the names of functions are matched this way.
   */
  public static SqlOperatorTable caseInsensitive(SqlOperatorTable table) {
    return new AnyCase(table, null);
  }

  /** A table whose functions are found by their names in any case. */
  private static final class AnyCase implements SqlOperatorTable {
    private static final SqlNameMatcher ANY_CASE =
        org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(false);

    /** The table; null for {@link FlinkFunctions#table}, made on the first lookup it answers. */
    private final @Nullable SqlOperatorTable table;

    /** The names, in upper case, of the table's functions; null when not known beforehand. */
    private final @Nullable Set<String> names;

    AnyCase(@Nullable SqlOperatorTable table, @Nullable Set<String> names) {
      this.table = table;
      this.names = names;
    }

    private SqlOperatorTable table() {
      return table != null ? table : FlinkFunctions.table();
    }

    @Override
    public void lookupOperatorOverloads(
        SqlIdentifier opName,
        @Nullable SqlFunctionCategory category,
        SqlSyntax syntax,
        List<SqlOperator> operatorList,
        SqlNameMatcher nameMatcher) {
      if (names != null
          && opName.isSimple()
          && !names.contains(opName.getSimple().toUpperCase(java.util.Locale.ROOT))) {
        return;
      }
      table().lookupOperatorOverloads(opName, category, syntax, operatorList, ANY_CASE);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
      return table().getOperatorList();
    }
  }

  /**
   * Calcite's standard operator table {@code standard} without the operators that Flink's replace
   * ({@link #replaced}: {@code CURRENT_TIMESTAMP}, {@code LOCALTIMESTAMP}, {@code TYPEOF}).
   */
  public static SqlOperatorTable standard(SqlOperatorTable standard) {
    return new SqlOperatorTable() {
      @Override
      public void lookupOperatorOverloads(
          SqlIdentifier opName,
          @Nullable SqlFunctionCategory category,
          SqlSyntax syntax,
          List<SqlOperator> operatorList,
          SqlNameMatcher nameMatcher) {
        List<SqlOperator> found = new ArrayList<>();
        standard.lookupOperatorOverloads(opName, category, syntax, found, nameMatcher);
        for (SqlOperator op : found) {
          // The COALESCE that Calcite's validator writes itself (for JOIN ... USING) is looked
          // up in the SYSTEM category, and stays Calcite's.
          if (!replaced(op)
              || op == SqlStdOperatorTable.COALESCE && category == SqlFunctionCategory.SYSTEM) {
            operatorList.add(op);
          }
        }
      }

      @Override
      public List<SqlOperator> getOperatorList() {
        return standard.getOperatorList().stream().filter(op -> !replaced(op)).toList();
      }
    };
  }

  /**
   * Whether Flink's function replaces the standard {@code op}: {@link TemporalFunctions#REPLACED},
   * {@code ELEMENT} ({@link CollectionFunctions#ELEMENT_OF}), and Calcite's {@code TYPEOF}, which
   * takes a VARIANT only ({@link MiscFunctions#TYPEOF} takes any value). Calcite's {@code LAST_DAY}
   * is left out: Flink has no such function, so a call is a validation error ("No match found for
   * function signature LAST_DAY(<DATE>)"), as in Flink. {@code COALESCE} is {@link
   * ConditionalFunctions#COALESCE}, with Flink's type, {@code RAND} {@link MathFunctions#RAND}, and
   * {@code VAR_SAMP} and {@code VARIANCE} {@link SampleVariance}, typed nullable.
   */
  private static boolean replaced(SqlOperator op) {
    return TemporalFunctions.REPLACED.contains(op)
        || op == SqlStdOperatorTable.ELEMENT
        || op == SqlStdOperatorTable.LAST_DAY
        || op == SqlStdOperatorTable.COALESCE
        || op == SqlStdOperatorTable.RAND
        || op == SqlStdOperatorTable.VAR_SAMP
        || op == SqlStdOperatorTable.VARIANCE
        || op.getName().equals("TYPEOF") && op != MiscFunctions.TYPEOF;
  }

  /**
   * The function that replaces a standard one whose Calcite implementation gives another answer
   * than Flink's ({@code LOG10(1000)} is 3.0, {@code REPLACE('ab', '', 'x')} is {@code 'xaxbx'},
   * {@code POSITION} counts code points, {@code LN(0)} is -Infinity, {@code POWER} is {@link
   * Math#pow}), or null. SQL conversion makes the swap, keeping the validated type.
   */
  public static @Nullable SqlOperator replacing(SqlOperator standard) {
    if (standard == SqlStdOperatorTable.LOG10) {
      return MathFunctions.LOG10;
    }
    if (standard == SqlStdOperatorTable.REPLACE) {
      return StringFunctions.REPLACE;
    }
    if (standard == SqlStdOperatorTable.LN) {
      return MathFunctions.LN;
    }
    if (standard == SqlStdOperatorTable.POWER) {
      return MathFunctions.POWER;
    }
    if (standard == SqlStdOperatorTable.POSITION) {
      return StringFunctions.LOCATE; // code points, and an empty string is at 1
    }
    return null;
  }
}
