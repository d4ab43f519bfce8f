package io.calcitebridge.functions;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.util.Util;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's windowing in batch queries: the window table-valued functions {@code TUMBLE}, {@code HOP}
 * and {@code CUMULATE}, and the legacy group windows {@code GROUP BY TUMBLE(ts, size)} with {@code
 * TUMBLE_START}, {@code TUMBLE_END} and {@code TUMBLE_ROWTIME}, and {@code GROUP BY HOP(ts, slide,
 * size)} ({@code LegacyHop}).
 *
 * <p>A window table-valued function is rewritten before validation ({@link #rewrite}) into a join
 * of its input with the windows of each row:
 *
 * <pre>
 * TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size[, offset]))
 *   becomes
 * (SELECT t.*, $WINDOW_START(1, t.ts, slide, size, offset, w$k.k) AS window_start,
 *         $WINDOW_END(...) AS window_end, $WINDOW_TIME(...) AS window_time
 *  FROM t AS t CROSS JOIN UNNEST($WINDOWS(1, t.ts, slide, size, offset)) AS w$k(k))
 * </pre>
 *
 * <p>{@code $WINDOWS} numbers the windows a row belongs to (none for a NULL time, so the row drops
 * out, as in Flink); the other three give the bounds of the k-th. The bounds are Flink's window
 * assigners': a window starts at {@code ts - floorMod(ts - offset, size)}; {@code window_end} is
 * exclusive and {@code window_time} is {@code window_end} less one millisecond. Over a {@code
 * TIMESTAMP_LTZ} column the windows are aligned on the wall-clock time in the session's {@code
 * table.local-time-zone}, as Flink aligns them, and the bounds are instants again.
 *
 * <p>{@code SESSION} windows, table-valued or grouped, are refused, as Flink refuses them in batch
 * mode.
 */
public final class WindowFunctions {
  private WindowFunctions() {}

  /** Messages of the errors of windowing. */
  public interface Messages {
    Messages RESOURCE = Resources.create(Messages.class);

    @BaseMessage(
        "The window function {0}(TABLE table_name, DESCRIPTOR(timecol), ...) requires the timecol"
            + " to be TIMESTAMP or TIMESTAMP_LTZ, but is {1}.")
    ExInst<SqlValidatorException> timeColumn(String function, String type);

    @BaseMessage("The window size of {0} must be an interval of days, hours, minutes or seconds")
    ExInst<SqlValidatorException> interval(String function);

    @BaseMessage("Only a single window group function may be used in GROUP BY")
    ExInst<SqlValidatorException> singleGroupWindow();

    @BaseMessage(
        "Unaligned windows like session are not supported in batch mode, as in Flink: use TUMBLE,"
            + " HOP or CUMULATE")
    ExInst<SqlValidatorException> session();

    @BaseMessage("{0} table function based aggregate requires {1} to be positive, but got {2} ms.")
    ExInst<SqlValidatorException> positive(String function, String what, String millis);

    @BaseMessage(
        "CUMULATE table function based aggregate requires maxSize must be an integral multiple of"
            + " step, but got maxSize {0} ms and step {1} ms.")
    ExInst<SqlValidatorException> multiple(String size, String step);

    @BaseMessage(
        "TUMBLE table function parameters must satisfy abs(offset) < size, but got size {0} ms and"
            + " offset {1} ms.")
    ExInst<SqlValidatorException> offset(String size, String offset);

    @BaseMessage("{0} takes {1}")
    ExInst<SqlValidatorException> arguments(String function, String signature);
  }

  static final int TUMBLE = 0;
  static final int HOP = 1;
  static final int CUMULATE = 2;

  private static final Class<?> C = WindowFunctions.class;

  /** The operands: kind, time, two intervals, offset [, window number]. */
  private static final class Operands implements SqlOperandTypeChecker {
    private final int count;

    Operands(int count) {
      this.count = count;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      RelDataType time = binding.getOperandType(1);
      SqlTypeName name = time.getSqlTypeName();
      if (name != SqlTypeName.TIMESTAMP && name != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        if (!throwOnFailure) {
          return false;
        }
        throw SqlUtil.newContextException(
            binding.operand(1).getParserPosition(),
            Messages.RESOURCE.timeColumn(
                KINDS.get(kindOf(binding)), time.getSqlTypeName().getName()));
      }
      for (int i = 2; i <= 4; i++) {
        RelDataType t = binding.getOperandType(i);
        if (t.getSqlTypeName().getFamily()
            != org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
          if (!throwOnFailure) {
            return false;
          }
          throw SqlUtil.newContextException(
              binding.operand(i).getParserPosition(),
              Messages.RESOURCE.interval(KINDS.get(kindOf(binding))));
        }
      }
      return checkSizes(binding, throwOnFailure);
    }

    /** Flink's checks of literal sizes: positive, a CUMULATE's size a multiple of its step. */
    private static boolean checkSizes(SqlCallBinding binding, boolean throwOnFailure) {
      int kind = kindOf(binding);
      @Nullable Long a = millis(binding, 2);
      @Nullable Long b = millis(binding, 3);
      @Nullable Long offset = millis(binding, 4);
      String first = kind == HOP ? "slide" : kind == CUMULATE ? "step" : "size";
      @Nullable RuntimeException error = null;
      if (a != null && a <= 0) {
        error =
            SqlUtil.newContextException(
                binding.operand(2).getParserPosition(),
                Messages.RESOURCE.positive(KINDS.get(kind), first, a.toString()));
      } else if (b != null && b <= 0) {
        error =
            SqlUtil.newContextException(
                binding.operand(3).getParserPosition(),
                Messages.RESOURCE.positive(KINDS.get(kind), "size", b.toString()));
      } else if (kind == CUMULATE && a != null && b != null && b % a != 0) {
        error =
            SqlUtil.newContextException(
                binding.operand(3).getParserPosition(),
                Messages.RESOURCE.multiple(b.toString(), a.toString()));
      } else if (kind == TUMBLE && a != null && offset != null && Math.abs(offset) >= a) {
        error =
            SqlUtil.newContextException(
                binding.operand(4).getParserPosition(),
                Messages.RESOURCE.offset(a.toString(), offset.toString()));
      }
      if (error != null && throwOnFailure) {
        throw error;
      }
      return error == null;
    }

    /** The milliseconds of a literal interval operand, or null for another expression. */
    private static @Nullable Long millis(SqlCallBinding binding, int i) {
      SqlNode node = binding.operand(i);
      if (!(node instanceof SqlLiteral literal)) {
        return null;
      }
      try {
        return literal.getValueAs(Long.class);
      } catch (RuntimeException e) {
        return null;
      }
    }

    private static int kindOf(SqlCallBinding binding) {
      Integer k = binding.getOperandLiteralValue(0, Integer.class);
      return k == null ? 0 : k;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.of(count);
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return opName + "(...)";
    }
  }

  private static final List<String> KINDS = List.of("TUMBLE", "HOP", "CUMULATE");

  /** {@code TIMESTAMP(3)} not null, a wall-clock time whatever the time column. */
  private static final SqlReturnTypeInference BOUND =
      b -> b.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 3);

  /** {@code TIMESTAMP(3)} or {@code TIMESTAMP_LTZ(3)} as the time column, not null. */
  private static final SqlReturnTypeInference TIME =
      b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createSqlType(b.getOperandType(1).getSqlTypeName(), 3);
      };

  public static final SqlOperator WINDOWS =
      Fn.fn(
          "$WINDOWS",
          b ->
              b.getTypeFactory()
                  .createArrayType(b.getTypeFactory().createSqlType(SqlTypeName.INTEGER), -1),
          new Operands(5),
          C,
          "windows",
          NullPolicy.NONE);

  public static final SqlOperator WINDOW_START =
      Fn.fn("$WINDOW_START", BOUND, new Operands(6), C, "windowStart", NullPolicy.NONE);

  public static final SqlOperator WINDOW_END =
      Fn.fn("$WINDOW_END", BOUND, new Operands(6), C, "windowEnd", NullPolicy.NONE);

  public static final SqlOperator WINDOW_TIME =
      Fn.fn("$WINDOW_TIME", TIME, new Operands(6), C, "windowTime", NullPolicy.NONE);

  /**
   * The start of the k-th window of a row of a legacy {@code GROUP BY HOP(...)} ({@code
   * LegacyHop}), of the time's type, as {@code GROUP BY TUMBLE(...)} starts its windows.
   */
  public static final SqlOperator GROUP_HOP =
      Fn.fn("$GROUP_HOP", TIME, new Operands(6), C, "groupHop", NullPolicy.NONE);

  /** The operators whose calls {@link #convert} completes. */
  public static final Set<SqlOperator> OPERATORS =
      Set.of(WINDOWS, WINDOW_START, WINDOW_END, WINDOW_TIME, GROUP_HOP);

  /** The operators, for the operator table. */
  static List<SqlOperator> all() {
    return List.of(
        WINDOWS,
        WINDOW_START,
        WINDOW_END,
        WINDOW_TIME,
        GROUP_TUMBLE,
        GROUP_HOP,
        WINDOWED_TIME,
        ROWTIME);
  }

  /**
   * The time of a legacy group window {@code GROUP BY TUMBLE(ts, size)}, NOT NULL: the rewrite
   * ({@link #rewrite}) keeps only the rows whose time is known ({@code WHERE ts IS NOT NULL}) and
   * groups by {@code TUMBLE($WINDOWED_TIME(ts), size)}, with {@code TUMBLE_START} and {@code
   * TUMBLE_END} of the same operand, so that they are NOT NULL, as in Flink.
   */
  public static final SqlOperator WINDOWED_TIME =
      Fn.fn(
          "$WINDOWED_TIME",
          b -> b.getTypeFactory().createTypeWithNullability(b.getOperandType(0), false),
          org.apache.calcite.sql.type.OperandTypes.DATETIME,
          C,
          "windowedTime",
          NullPolicy.NONE);

  /** The time itself; the rows of a NULL time were filtered out before it is computed. */
  public static long windowedTime(@Nullable Long ts) {
    if (ts == null) {
      throw new IllegalStateException("a row without a time reached a legacy group window");
    }
    return ts;
  }

  /**
   * The rowtime of a legacy group window ({@code TUMBLE_ROWTIME}, {@code HOP_ROWTIME}) from the
   * window's end: its last millisecond, of the time's type, nullable, as Flink types it.
   */
  public static final SqlOperator ROWTIME =
      Fn.fn(
          "$ROWTIME",
          b -> {
            RelDataTypeFactory f = b.getTypeFactory();
            return f.createTypeWithNullability(
                f.createSqlType(b.getOperandType(0).getSqlTypeName(), 3), true);
          },
          org.apache.calcite.sql.type.OperandTypes.DATETIME,
          C,
          "rowtime",
          NullPolicy.NONE);

  public static @Nullable Long rowtime(@Nullable Long end) {
    return end == null ? null : end - 1;
  }

  /** The auxiliary functions of a legacy {@code GROUP BY TUMBLE(...)}. */
  private static final Set<String> TUMBLE_AUXILIARY =
      Set.of("TUMBLE_START", "TUMBLE_END", "TUMBLE_ROWTIME", "TUMBLE_PROCTIME");

  /**
   * A call of one of {@link #OPERATORS} as a call with whether its time is a {@code TIMESTAMP_LTZ}
   * as its first operand, which the implementation reads.
   */
  public static RexNode convert(SqlRexContext cx, SqlCall call) {
    RexBuilder rex = cx.getRexBuilder();
    List<RexNode> operands = new ArrayList<>();
    List<RexNode> converted = call.getOperandList().stream().map(cx::convertExpression).toList();
    boolean ltz =
        converted.get(1).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    operands.add(rex.makeLiteral(ltz));
    operands.addAll(converted);
    return rex.makeCall(cx.getValidator().getValidatedNodeType(call), call.getOperator(), operands);
  }

  /**
   * The key of a legacy group window {@code GROUP BY TUMBLE(ts, size[, offset])}: the start of the
   * row's window, NULL for a NULL time. Its second operand is the size, which Calcite's conversion
   * of {@code TUMBLE_END} adds to the key.
   */
  public static final SqlOperator GROUP_TUMBLE =
      Fn.fn(
          "$GROUP_TUMBLE",
          b -> b.getOperandType(0),
          org.apache.calcite.sql.type.OperandTypes.ANY_ANY,
          C,
          "groupTumble",
          NullPolicy.NONE);

  /** {@code TUMBLE(ts, size[, offset])} of a {@code GROUP BY} as {@link #GROUP_TUMBLE}. */
  public static RexNode convertGroupTumble(SqlRexContext cx, SqlCall call) {
    RexBuilder rex = cx.getRexBuilder();
    List<RexNode> in = call.getOperandList().stream().map(cx::convertExpression).toList();
    RexNode ts = in.get(0);
    RexNode offset =
        in.size() > 2
            ? in.get(2)
            : rex.makeIntervalLiteral(
                java.math.BigDecimal.ZERO,
                new SqlIntervalQualifier(TimeUnit.SECOND, null, SqlParserPos.ZERO));
    boolean ltz = ts.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    return rex.makeCall(
        cx.getValidator().getValidatedNodeType(call),
        GROUP_TUMBLE,
        List.of(ts, in.get(1), rex.makeLiteral(ltz), offset));
  }

  public static @Nullable Long groupTumble(
      TimeZone tz, @Nullable Long ts, long size, boolean ltz, long offset) {
    Long start = windowStart(tz, ltz, TUMBLE, ts, size, size, offset, 0);
    return start == null ? null : instant(tz, ltz, start);
  }

  // ---- the rewrite of the window table-valued functions ---------------------------------------

  private static final List<List<String>> PARAMETERS =
      List.of(
          List.of("DATA", "TIMECOL", "SIZE", "OFFSET"),
          List.of("DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"),
          List.of("DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"));

  private static final List<String> SIGNATURES =
      List.of(
          "(TABLE table_name, DESCRIPTOR(timecol), size [, offset])",
          "(TABLE table_name, DESCRIPTOR(timecol), slide, size [, offset])",
          "(TABLE table_name, DESCRIPTOR(timecol), step, size [, offset])");

  /**
   * {@code node} with its window table-valued functions as joins of their input with the windows of
   * its rows (see the class comment); a {@code SESSION} window, table-valued or grouped, is an
   * error. A legacy {@code GROUP BY HOP(...)} was rewritten before ({@code LegacyHop}).
   */
  public static SqlNode rewrite(SqlNode node) {
    SqlNode out =
        node.accept(
            new SqlShuttle() {
              @Override
              public @Nullable SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.COLLECTION_TABLE
                    && call.operandCount() == 1
                    && call.operand(0) instanceof SqlCall tvf) {
                  String name = tvf.getOperator().getName().toUpperCase(Locale.ROOT);
                  int kind = KINDS.indexOf(name);
                  if (kind >= 0) {
                    return window(kind, tvf);
                  }
                  if (name.equals("SESSION")) {
                    throw SqlUtil.newContextException(
                        tvf.getParserPosition(), Messages.RESOURCE.session());
                  }
                }
                if (call instanceof org.apache.calcite.sql.SqlOrderBy order
                    && (order.query instanceof org.apache.calcite.sql.SqlWith with
                            ? with.body
                            : order.query)
                        instanceof SqlSelect select) {
                  // ORDER BY TUMBLE_START(ts, ...) of a query grouped by TUMBLE(ts, ...).
                  SqlNode time = legacyTumbleTime(select);
                  if (time != null) {
                    replace(order.orderList, auxiliary(time));
                  }
                }
                if (call instanceof SqlSelect select && select.getGroup() != null) {
                  for (SqlNode key : select.getGroup()) {
                    if (key instanceof SqlCall group) {
                      // The parser makes Calcite's group windows, named $TUMBLE, $HOP, ...
                      String name =
                          group.getOperator().getName().toUpperCase(Locale.ROOT).replace("$", "");
                      if (name.equals("TUMBLE") && group.operandCount() >= 2) {
                        // A row whose time is NULL is in no window, as in Flink.
                        SqlNode time = group.operand(0);
                        SqlNode known =
                            SqlStdOperatorTable.IS_NOT_NULL.createCall(
                                time.getParserPosition(), time.clone(time.getParserPosition()));
                        SqlNode where = select.getWhere();
                        select.setWhere(
                            where == null
                                ? known
                                : SqlStdOperatorTable.AND.createCall(
                                    where.getParserPosition(), known, where));
                        windowed(select, group, time);
                      }
                      if (name.equals("SESSION")) {
                        throw SqlUtil.newContextException(
                            group.getParserPosition(), Messages.RESOURCE.session());
                      }
                    }
                  }
                }
                return super.visit(call);
              }
            });
    return out == null ? node : out;
  }

  /**
   * The time {@code time} of the legacy group window {@code group} of {@code select} as {@link
   * #WINDOWED_TIME} of it, in the window and in its auxiliary functions ({@code TUMBLE_START(time,
   * ...)}) of the select list, {@code HAVING} and {@code ORDER BY}, which the validator matches
   * with the window by their operands.
   */
  private static void windowed(SqlSelect select, SqlCall group, SqlNode time) {
    SqlShuttle auxiliary = auxiliary(time);
    replaceAll(select, auxiliary);
    group.setOperand(0, windowedTime(time));
  }

  /**
   * The select list, {@code HAVING} and {@code ORDER BY} of {@code select} with the calls {@code
   * shuttle} replaces replaced.
   */
  static void replaceAll(SqlSelect select, SqlShuttle shuttle) {
    replace(select.getSelectList(), shuttle);
    SqlNode having = select.getHaving();
    if (having != null) {
      select.setHaving(having.accept(shuttle));
    }
    if (select.getOrderList() != null) {
      replace(select.getOrderList(), shuttle);
    }
  }

  /** Each item of {@code list} as {@code shuttle} gives it back. */
  static void replace(SqlNodeList list, SqlShuttle shuttle) {
    for (int i = 0; i < list.size(); i++) {
      SqlNode item = list.get(i);
      if (item != null) {
        list.set(i, item.accept(shuttle));
      }
    }
  }

  /** Makes the auxiliary functions of a legacy group window over {@code time} windowed. */
  private static SqlShuttle auxiliary(SqlNode time) {
    return new SqlShuttle() {
      @Override
      public @Nullable SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (TUMBLE_AUXILIARY.contains(name)
            && call.operandCount() >= 2
            && call.operand(0).equalsDeep(time, org.apache.calcite.util.Litmus.IGNORE)) {
          call.setOperand(0, windowedTime(call.operand(0)));
          if (name.equals("TUMBLE_ROWTIME")) {
            // Flink's rowtime of the window: its end less one millisecond.
            return ROWTIME.createCall(
                call.getParserPosition(),
                SqlStdOperatorTable.TUMBLE_END.createCall(
                    call.getParserPosition(), call.getOperandList()));
          }
          return call;
        }
        return super.visit(call);
      }
    };
  }

  /** The time of the legacy {@code GROUP BY TUMBLE(time, ...)} of {@code select}, or null. */
  private static @Nullable SqlNode legacyTumbleTime(SqlSelect select) {
    if (select.getGroup() == null) {
      return null;
    }
    for (SqlNode key : select.getGroup()) {
      if (key instanceof SqlCall group
          && group
              .getOperator()
              .getName()
              .toUpperCase(Locale.ROOT)
              .replace("$", "")
              .equals("TUMBLE")
          && group.operandCount() >= 2) {
        return group.operand(0);
      }
    }
    return null;
  }

  private static SqlNode windowedTime(SqlNode time) {
    return WINDOWED_TIME.createCall(time.getParserPosition(), time.clone(time.getParserPosition()));
  }

  private static SqlNode window(int kind, SqlCall tvf) {
    SqlParserPos pos = tvf.getParserPosition();
    List<String> params = PARAMETERS.get(kind);
    @Nullable SqlNode[] args = new SqlNode[params.size()];
    List<SqlNode> operands = tvf.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode op = operands.get(i);
      int at = i;
      if (op != null && op.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
        SqlCall assign = (SqlCall) op;
        at =
            params.indexOf(
                ((SqlIdentifier) assign.operand(1)).getSimple().toUpperCase(Locale.ROOT));
        op = assign.operand(0);
      }
      if (at < 0 || at >= args.length || args[at] != null) {
        throw arguments(kind, pos);
      }
      args[at] = op;
    }
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i] == null) {
        throw arguments(kind, pos);
      }
    }
    SqlNode data = args[0];
    if (!(data instanceof SqlCall table)
        || table.getKind() != SqlKind.EXPLICIT_TABLE
        || !(table.operand(0) instanceof SqlIdentifier input)) {
      throw arguments(kind, data == null ? pos : data.getParserPosition());
    }
    SqlNode descriptor = args[1];
    List<SqlNode> described =
        descriptor instanceof SqlCall d
                && d.getOperator().getName().equalsIgnoreCase("DESCRIPTOR")
                && d.operandCount() == 1
                && d.operand(0) instanceof SqlNodeList list
            ? list.getList()
            : descriptor instanceof SqlCall d2
                    && d2.getOperator().getName().equalsIgnoreCase("DESCRIPTOR")
                ? d2.getOperandList()
                : List.of();
    if (described.size() != 1
        || !(described.get(0) instanceof SqlIdentifier column)
        || !column.isSimple()) {
      throw arguments(kind, descriptor == null ? pos : descriptor.getParserPosition());
    }
    SqlNode a = java.util.Objects.requireNonNull(args[2]);
    SqlNode b = kind == TUMBLE ? a : java.util.Objects.requireNonNull(args[3]);
    SqlNode offset = args[args.length - 1];
    if (offset == null) {
      offset =
          SqlLiteral.createInterval(
              1, "0", new SqlIntervalQualifier(TimeUnit.SECOND, null, pos), pos);
    }
    // The input keeps its name, which an error about its columns names.
    String in = Util.last(input.names);
    String k = "w$k";
    SqlIdentifier time =
        new SqlIdentifier(List.of(in, column.getSimple()), column.getParserPosition());
    SqlNode kindLiteral = SqlLiteral.createExactNumeric(Integer.toString(kind), pos);
    SqlNode windows =
        WINDOWS.createCall(pos, kindLiteral, time, a, b.clone(b.getParserPosition()), offset);
    SqlNode unnest =
        SqlStdOperatorTable.AS.createCall(
            pos,
            SqlStdOperatorTable.UNNEST.createCall(pos, windows),
            new SqlIdentifier(k, pos),
            new SqlIdentifier("k", pos));
    SqlNode from =
        new SqlJoin(
            pos,
            SqlStdOperatorTable.AS.createCall(pos, input, new SqlIdentifier(in, pos)),
            SqlLiteral.createBoolean(false, pos),
            JoinType.CROSS.symbol(pos),
            unnest,
            JoinConditionType.NONE.symbol(pos),
            null);
    SqlNodeList select = new SqlNodeList(pos);
    select.add(SqlIdentifier.star(List.of(in, ""), pos, List.of(pos, pos)));
    String[] names = {"window_start", "window_end", "window_time"};
    SqlOperator[] ops = {WINDOW_START, WINDOW_END, WINDOW_TIME};
    for (int i = 0; i < 3; i++) {
      SqlNode bound =
          ops[i].createCall(
              pos,
              kindLiteral.clone(pos),
              time.clone(time.getParserPosition()),
              a.clone(a.getParserPosition()),
              b.clone(b.getParserPosition()),
              offset.clone(offset.getParserPosition()),
              new SqlIdentifier(List.of(k, "k"), pos));
      select.add(SqlStdOperatorTable.AS.createCall(pos, bound, new SqlIdentifier(names[i], pos)));
    }
    return new SqlSelect(
        pos, null, select, from, null, null, null, null, null, null, null, null, null);
  }

  private static RuntimeException arguments(int kind, SqlParserPos pos) {
    return SqlUtil.newContextException(
        pos, Messages.RESOURCE.arguments(KINDS.get(kind), KINDS.get(kind) + SIGNATURES.get(kind)));
  }

  // ---- run time ----------------------------------------------------------------------------

  /**
   * The wall-clock milliseconds of {@code ts}: itself, or for an instant its time in {@code tz}.
   */
  private static long local(TimeZone tz, boolean ltz, long ts) {
    return ltz ? ts + tz.getOffset(ts) : ts;
  }

  /** {@link #local} undone: the instant of a wall-clock time in {@code tz}. */
  private static long instant(TimeZone tz, boolean ltz, long local) {
    if (!ltz) {
      return local;
    }
    LocalDateTime t =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(local, 1000L),
            (int) Math.floorMod(local, 1000L) * 1_000_000,
            ZoneOffset.UTC);
    return t.atZone(tz.toZoneId()).toInstant().toEpochMilli();
  }

  /** Flink's {@code TimeWindow.getWindowStartWithOffset}. */
  private static long start(long ts, long offset, long size) {
    return ts - Math.floorMod(ts - offset, size);
  }

  /** The numbers 0, 1, ... of the windows holding {@code ts}; none for a NULL. */
  public static List<Integer> windows(
      TimeZone tz, boolean ltz, int kind, @Nullable Long ts, long a, long b, long offset) {
    List<Integer> out = new ArrayList<>();
    if (ts == null) {
      return out;
    }
    long t = local(tz, ltz, ts);
    int n;
    if (kind == HOP) {
      n = 0;
      for (long s = start(t, offset, a); s > t - b; s -= a) {
        n++;
      }
    } else if (kind == CUMULATE) {
      long last = start(t, offset, b) + b;
      n = 0;
      for (long e = start(t, offset, a) + a; e <= last; e += a) {
        n++;
      }
    } else {
      n = 1;
    }
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  private static long[] bounds(long t, int kind, long a, long b, long offset, int k) {
    if (kind == HOP) {
      long s = start(t, offset, a) - (long) k * a;
      return new long[] {s, s + b};
    }
    if (kind == CUMULATE) {
      return new long[] {start(t, offset, b), start(t, offset, a) + a + (long) k * a};
    }
    long s = start(t, offset, a);
    return new long[] {s, s + a};
  }

  /** The start of the k-th window of {@code ts}: a wall-clock time, as in Flink. */
  public static @Nullable Long windowStart(
      TimeZone tz, boolean ltz, int kind, @Nullable Long ts, long a, long b, long offset, int k) {
    return ts == null ? null : bounds(local(tz, ltz, ts), kind, a, b, offset, k)[0];
  }

  /** The end of the k-th window of {@code ts}: a wall-clock time, as in Flink. */
  public static @Nullable Long windowEnd(
      TimeZone tz, boolean ltz, int kind, @Nullable Long ts, long a, long b, long offset, int k) {
    return ts == null ? null : bounds(local(tz, ltz, ts), kind, a, b, offset, k)[1];
  }

  /**
   * The last millisecond of the k-th window of {@code ts}, of the time's type: for an instant, the
   * instant of the window's end in the session zone, less one millisecond.
   */
  public static @Nullable Long windowTime(
      TimeZone tz, boolean ltz, int kind, @Nullable Long ts, long a, long b, long offset, int k) {
    Long end = windowEnd(tz, ltz, kind, ts, a, b, offset, k);
    return end == null ? null : instant(tz, ltz, end) - 1;
  }

  /** The start of the k-th window of {@code ts}, of the time's type (an instant for one). */
  public static @Nullable Long groupHop(
      TimeZone tz, boolean ltz, int kind, @Nullable Long ts, long a, long b, long offset, int k) {
    Long start = windowStart(tz, ltz, kind, ts, a, b, offset, k);
    return start == null ? null : instant(tz, ltz, start);
  }
}
