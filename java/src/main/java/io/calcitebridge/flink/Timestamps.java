package io.calcitebridge.flink;

import com.google.common.collect.ImmutableList;
import io.calcitebridge.functions.TemporalFunctions;
import io.calcitebridge.functions.TimestampTicks;
import io.calcitebridge.rewrite.BottomUp;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Runs after cost-based planning, for Calcite's engine: a {@code TIMESTAMP(p)} or {@code
 * TIMESTAMP_LTZ(p)} with {@code p > 3} is held in microseconds ({@code p} 4 to 6) or nanoseconds
 * ({@code p} 7 to 9), not in the milliseconds Calcite's code counts ({@code arrow.TimeUnits}).
 * Before, the engine kept milliseconds only: two values a microsecond apart were one GROUP BY key,
 * one DISTINCT value and joined each other's rows. The conversions of an instant to and from its
 * wall-clock time in the session zone ({@code LocalTimeZoneConvertlets}) keep the finer part.
 *
 * <p>Comparisons, hashing, sorting, MIN and MAX work on the finer values as they are; this pass
 * rewrites what computes with them:
 *
 * <ul>
 *   <li>a literal becomes its count of finer units ({@code $TS_TICKS});
 *   <li>values of different units compared or chosen between (CASE, COALESCE, ...) are brought to
 *       the finest;
 *   <li>casts between TIMESTAMPs and from strings keep the digits the type keeps ({@code
 *       $TS_PARSE}); {@code CAST(... AS STRING)} and {@code DATE_FORMAT} write them; {@code
 *       EXTRACT(MICROSECOND | NANOSECOND ...)} counts them; {@code + INTERVAL} and {@code -
 *       INTERVAL} keep them;
 *   <li>every other operator gets milliseconds, and its TIMESTAMP result is brought to the finer
 *       unit; {@code CEIL} rounds the operand up to the millisecond first.
 * </ul>
 *
 * A {@code VALUES} with such a column gets its literals as counts, under a projection that types
 * them back.
 */
public final class Timestamps {
  private Timestamps() {}

  /** Operators whose operands and result are values of one type, compared or chosen between. */
  private static final Set<String> CHOOSING = Set.of("GREATEST", "LEAST", "$AS_ROW", "$AS_OBJECT");

  /**
   * The conversions between an instant and its wall-clock time in the session zone: they move a
   * value by the zone's offset, whole seconds, keeping its part below the millisecond.
   */
  private static final Set<org.apache.calcite.sql.SqlOperator> ZONE_SHIFTS =
      Set.of(TemporalFunctions.LTZ_TO_TIMESTAMP, TemporalFunctions.TIMESTAMP_TO_LTZ);

  public static RelNode apply(RelNode rel) {
    if (!mentions(rel)) {
      return rel;
    }
    return BottomUp.rewrite(rel, Timestamps::step);
  }

  /** Whether a node of the plan has a finer TIMESTAMP in its row type. */
  private static boolean mentions(RelNode rel) {
    for (RelDataTypeField f : rel.getRowType().getFieldList()) {
      if (containsFine(f.getType())) {
        return true;
      }
    }
    for (RelNode input : rel.getInputs()) {
      if (mentions(input)) {
        return true;
      }
    }
    // A Calc whose program computes with finer TIMESTAMPs without keeping one.
    if (rel instanceof EnumerableCalc calc) {
      for (RexNode e : calc.getProgram().getExprList()) {
        if (containsFine(e.getType())) {
          return true;
        }
      }
    }
    return false;
  }

  private static RelNode step(RelNode rel) {
    if (rel instanceof EnumerableValues values && hasFineColumn(values)) {
      return values(values);
    }
    if (rel instanceof org.apache.calcite.rel.core.SetOp setOp) {
      return setOp(setOp);
    }
    if (rel instanceof org.apache.calcite.rel.core.Window window) {
      return window(window);
    }
    Shuttle shuttle = new Shuttle(rel.getCluster().getRexBuilder());
    if (rel instanceof EnumerableCalc calc) {
      // The program's expressions whole: a call's operands are references within the program.
      RexProgram program = calc.getProgram();
      List<RexNode> projects = new ArrayList<>();
      for (RexNode p : program.getProjectList()) {
        projects.add(
            program.expandLocalRef((org.apache.calcite.rex.RexLocalRef) p).accept(shuttle));
      }
      RexNode condition =
          program.getCondition() == null
              ? null
              : program.expandLocalRef(program.getCondition()).accept(shuttle);
      if (!shuttle.changed) {
        return rel;
      }
      return EnumerableCalc.create(
          calc.getInput(),
          RexProgram.create(
              program.getInputRowType(),
              projects,
              condition,
              program.getOutputRowType(),
              rel.getCluster().getRexBuilder()));
    }
    return rel.accept(shuttle);
  }

  /**
   * The ticks per millisecond of a value of {@code type}: 1 but for a finer TIMESTAMP or
   * TIMESTAMP_LTZ.
   */
  static long per(RelDataType type) {
    return isTimestamp(type)
        ? io.calcitebridge.types.ArrowTypes.ticksPerMilli(type.getPrecision())
        : 1L;
  }

  /** Whether {@code type} is a TIMESTAMP or a TIMESTAMP_LTZ, which the engine holds alike. */
  private static boolean isTimestamp(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIMESTAMP
        || type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  private static boolean isLtz(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  static boolean fine(RelDataType type) {
    return per(type) > 1L;
  }

  static boolean containsFine(RelDataType type) {
    if (fine(type)) {
      return true;
    }
    if (type.isStruct()) {
      for (RelDataTypeField f : type.getFieldList()) {
        if (containsFine(f.getType())) {
          return true;
        }
      }
      return false;
    }
    RelDataType component = type.getComponentType();
    if (component != null) {
      return containsFine(component);
    }
    RelDataType key = type.getKeyType();
    RelDataType value = type.getValueType();
    return (key != null && containsFine(key)) || (value != null && containsFine(value));
  }

  /** The precision whose values are held in {@code per} ticks a millisecond. */
  private static int precision(long per) {
    return per == 1L ? 3 : per == 1_000L ? 6 : 9;
  }

  /**
   * The literal {@code e} is when it casts a string literal to a finer TIMESTAMP, with all the
   * digits the type keeps (Calcite's constant reduction computes in milliseconds); else null.
   */
  static @Nullable RexLiteral castLiteral(RexBuilder rex, RexNode e) {
    if (e.getKind() != SqlKind.CAST
        || !fine(e.getType())
        || isLtz(e.getType())
        || !(((RexCall) e).getOperands().get(0) instanceof RexLiteral literal)
        || !SqlTypeFamily.CHARACTER.contains(literal.getType())) {
      return null;
    }
    String text = literal.getValueAs(String.class);
    if (text == null) {
      return null;
    }
    int precision = e.getType().getPrecision();
    long per = per(e.getType());
    long ticks;
    try {
      ticks = TimestampTicks.parse(text, precision);
    } catch (RuntimeException bad) {
      return null;
    }
    long perSecond = per * 1000L;
    TimestampString ts =
        TimestampString.fromMillisSinceEpoch(Math.floorDiv(ticks, per))
            .withNanos((int) (Math.floorMod(ticks, perSecond) * (1_000_000L / per)));
    return (RexLiteral) rex.makeLiteral(ts, e.getType(), false);
  }

  /**
   * A UNION, INTERSECT or EXCEPT whose inputs hold a column in other units than its own (a
   * TIMESTAMP(3) under a TIMESTAMP(6) result): those inputs are brought to its units.
   */
  private static RelNode setOp(org.apache.calcite.rel.core.SetOp setOp) {
    List<RelDataTypeField> fields = setOp.getRowType().getFieldList();
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    RexBuilder rex = setOp.getCluster().getRexBuilder();
    for (RelNode input : setOp.getInputs()) {
      List<RelDataTypeField> in = input.getRowType().getFieldList();
      boolean differs = false;
      for (int i = 0; i < fields.size(); i++) {
        differs |=
            isTimestamp(in.get(i).getType())
                && per(in.get(i).getType()) != per(fields.get(i).getType());
      }
      if (!differs) {
        inputs.add(input);
        continue;
      }
      changed = true;
      RexProgramBuilder program = new RexProgramBuilder(input.getRowType(), rex);
      Shuttle shuttle = new Shuttle(rex);
      for (int i = 0; i < fields.size(); i++) {
        RelDataType t = in.get(i).getType();
        RexNode ref = rex.makeInputRef(t, i);
        program.addProject(
            isTimestamp(t) ? shuttle.align(ref, per(fields.get(i).getType())) : ref,
            in.get(i).getName());
      }
      inputs.add(EnumerableCalc.create(input, program.getProgram()));
    }
    return changed ? setOp.copy(setOp.getTraitSet(), inputs) : setOp;
  }

  /**
   * A window whose constants hold a finer TIMESTAMP (the default of {@code LAG}): the constant
   * becomes its count of units, a BIGINT, which the engine holds as it holds the TIMESTAMP.
   */
  private static RelNode window(org.apache.calcite.rel.core.Window window) {
    RexBuilder rex = window.getCluster().getRexBuilder();
    List<RexLiteral> constants = new ArrayList<>();
    boolean changed = false;
    for (RexLiteral c : window.constants) {
      if (fine(c.getType()) && !c.isNull()) {
        constants.add(
            (RexLiteral)
                rex.makeExactLiteral(
                    BigDecimal.valueOf(ticks(c, per(c.getType()))),
                    rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT)));
        changed = true;
      } else {
        constants.add(c);
      }
    }
    return changed ? window.copy(constants) : window;
  }

  // ---- VALUES ------------------------------------------------------------------------------

  private static boolean hasFineColumn(Values values) {
    for (RelDataTypeField f : values.getRowType().getFieldList()) {
      if (fine(f.getType())) {
        return true;
      }
    }
    return false;
  }

  /** The ticks of a finer TIMESTAMP literal, counted in {@code 1/per} milliseconds. */
  static long ticks(RexLiteral literal, long per) {
    TimestampString ts =
        java.util.Objects.requireNonNull(literal.getValueAs(TimestampString.class));
    return TimestampTicks.parse(ts.toString(), precision(per));
  }

  private static RelNode values(EnumerableValues values) {
    RexBuilder rex = values.getCluster().getRexBuilder();
    RelDataTypeFactory f = rex.getTypeFactory();
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    RelDataTypeFactory.Builder row = f.builder();
    for (RelDataTypeField field : fields) {
      RelDataType t = field.getType();
      row.add(
          field.getName(),
          fine(t)
              ? f.createTypeWithNullability(f.createSqlType(SqlTypeName.BIGINT), t.isNullable())
              : t);
    }
    RelDataType counted = row.build();
    ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
    for (List<RexLiteral> tuple : values.getTuples()) {
      ImmutableList.Builder<RexLiteral> out = ImmutableList.builder();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType t = fields.get(i).getType();
        if (!fine(t)) {
          out.add(literal);
        } else if (literal.isNull()) {
          out.add((RexLiteral) rex.makeNullLiteral(counted.getFieldList().get(i).getType()));
        } else {
          out.add(
              rex.makeExactLiteral(
                  BigDecimal.valueOf(ticks(literal, per(t))),
                  counted.getFieldList().get(i).getType()));
        }
      }
      tuples.add(out.build());
    }
    EnumerableValues input = EnumerableValues.create(values.getCluster(), counted, tuples.build());
    RexProgramBuilder program = new RexProgramBuilder(counted, rex);
    for (int i = 0; i < fields.size(); i++) {
      RelDataType t = fields.get(i).getType();
      RexNode ref = rex.makeInputRef(counted.getFieldList().get(i).getType(), i);
      program.addProject(
          fine(t) ? rex.makeCall(t, TimestampTicks.TICKS, List.of(ref)) : ref,
          fields.get(i).getName());
    }
    RexProgram p = program.getProgram();
    return EnumerableCalc.create(input, p);
  }

  // ---- expressions -------------------------------------------------------------------------

  private static final class Shuttle extends RexShuttle {
    private final RexBuilder rex;
    boolean changed;

    Shuttle(RexBuilder rex) {
      this.rex = rex;
    }

    private RexNode bigint(long v) {
      return rex.makeBigintLiteral(BigDecimal.valueOf(v));
    }

    /** {@code type}, a TIMESTAMP or a TIMESTAMP_LTZ, with another precision. */
    private RelDataType withPrecision(RelDataType type, int precision) {
      RelDataTypeFactory f = rex.getTypeFactory();
      return f.createTypeWithNullability(
          f.createSqlType(type.getSqlTypeName(), precision), type.isNullable());
    }

    /** {@code node}, a TIMESTAMP, counted in {@code to} ticks a millisecond. */
    RexNode align(RexNode node, long to) {
      long from = per(node.getType());
      if (from == to) {
        return node;
      }
      return rex.makeCall(
          withPrecision(node.getType(), precision(to)),
          TimestampTicks.RESCALE,
          List.of(node, bigint(from), bigint(to)));
    }

    /** {@code node} in milliseconds, rounded up with {@code up}. */
    private RexNode millis(RexNode node, boolean up) {
      long from = per(node.getType());
      if (from == 1L) {
        return node;
      }
      return rex.makeCall(
          withPrecision(node.getType(), 3),
          up ? TimestampTicks.RESCALE_UP : TimestampTicks.RESCALE,
          List.of(node, bigint(from), bigint(1L)));
    }

    @Override
    public RexNode visitLiteral(RexLiteral literal) {
      RelDataType t = literal.getType();
      if (!fine(t) || literal.isNull()) {
        return literal;
      }
      RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
      changed = true;
      return rex.makeCall(
          t,
          TimestampTicks.TICKS,
          List.of(rex.makeExactLiteral(BigDecimal.valueOf(ticks(literal, per(t))), bigint)));
    }

    @Override
    public RexNode visitCall(RexCall original) {
      if (original.getKind() == SqlKind.SEARCH
          && containsFine(original.getOperands().get(0).getType())) {
        changed = true;
        return RexUtil.expandSearch(rex, null, original).accept(this);
      }
      RexNode visited = super.visitCall(original);
      if (!(visited instanceof RexCall call)) {
        return visited;
      }
      RexNode out = rewrite(call);
      changed |= out != original;
      return out;
    }

    private RexNode rewrite(RexCall call) {
      boolean fineIn = false;
      boolean timestampIn = false;
      for (RexNode op : call.getOperands()) {
        fineIn |= fine(op.getType());
        timestampIn |= isTimestamp(op.getType());
      }
      boolean fineOut = fine(call.getType());
      if (!fineIn && !fineOut) {
        return call;
      }
      SqlKind kind = call.getKind();
      if (kind == SqlKind.IS_NULL || kind == SqlKind.IS_NOT_NULL) {
        return call;
      }
      if (SqlKind.COMPARISON.contains(kind)
          || kind == SqlKind.IS_DISTINCT_FROM
          || kind == SqlKind.IS_NOT_DISTINCT_FROM) {
        long to = 1L;
        for (RexNode op : call.getOperands()) {
          to = Math.max(to, per(op.getType()));
        }
        return withOperands(call, call.getType(), aligned(call.getOperands(), to));
      }
      if (kind == SqlKind.CASE
          || kind == SqlKind.COALESCE
          || kind == SqlKind.NULLIF
          || CHOOSING.contains(call.getOperator().getName())) {
        return withOperands(call, call.getType(), aligned(call.getOperands(), per(call.getType())));
      }
      if (kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR || kind == SqlKind.MULTISET_VALUE_CONSTRUCTOR) {
        RelDataType e = java.util.Objects.requireNonNull(call.getType().getComponentType());
        return withOperands(call, call.getType(), aligned(call.getOperands(), per(e)));
      }
      if (kind == SqlKind.MAP_VALUE_CONSTRUCTOR) {
        RelDataType k = java.util.Objects.requireNonNull(call.getType().getKeyType());
        RelDataType v = java.util.Objects.requireNonNull(call.getType().getValueType());
        List<RexNode> ops = new ArrayList<>();
        for (int i = 0; i < call.getOperands().size(); i++) {
          RexNode op = call.getOperands().get(i);
          ops.add(isTimestamp(op.getType()) ? align(op, per(i % 2 == 0 ? k : v)) : op);
        }
        return withOperands(call, call.getType(), ops);
      }
      if (kind == SqlKind.ROW || call.getOperator().getName().equals("$ROW")) {
        List<RexNode> ops = new ArrayList<>();
        List<RelDataTypeField> fields = call.getType().getFieldList();
        for (int i = 0; i < call.getOperands().size(); i++) {
          RexNode op = call.getOperands().get(i);
          ops.add(
              isTimestamp(op.getType()) && i < fields.size()
                  ? align(op, per(fields.get(i).getType()))
                  : op);
        }
        return withOperands(call, call.getType(), ops);
      }
      if (kind == SqlKind.CAST) {
        return cast(call);
      }
      if ((call.getOperator() == TemporalFunctions.TIMESTAMP_TO_STRING
              || call.getOperator() == TemporalFunctions.LTZ_TO_STRING)
          && fineIn) {
        RexNode ts = call.getOperands().get(0);
        List<RexNode> ops = new ArrayList<>(call.getOperands());
        ops.add(bigint(per(ts.getType())));
        return withOperands(call, call.getType(), ops);
      }
      if (call.getOperator() == TemporalFunctions.DATE_FORMAT
          && fine(call.getOperands().get(0).getType())) {
        List<RexNode> ops = new ArrayList<>(call.getOperands());
        ops.add(bigint(per(ops.get(0).getType())));
        return withOperands(call, call.getType(), ops);
      }
      if (kind == SqlKind.EXTRACT) {
        return extract(call);
      }
      if (!fineOut && containsFine(call.getType()) || nested(call)) {
        // A value holding finer TIMESTAMPs (an ARRAY, a MAP, a ROW), made or read as it is.
        return call;
      }
      return generic(call, kind == SqlKind.CEIL, shifts(call));
    }

    /** Whether an operand holds a finer TIMESTAMP inside an ARRAY, a MAP or a ROW. */
    private boolean nested(RexCall call) {
      for (RexNode op : call.getOperands()) {
        if (!fine(op.getType()) && containsFine(op.getType())) {
          return true;
        }
      }
      return false;
    }

    private List<RexNode> aligned(List<RexNode> operands, long to) {
      List<RexNode> out = new ArrayList<>(operands.size());
      for (RexNode op : operands) {
        out.add(isTimestamp(op.getType()) ? align(op, to) : op);
      }
      return out;
    }

    private RexNode withOperands(RexCall call, RelDataType type, List<RexNode> operands) {
      return operands.equals(call.getOperands()) && type.equals(call.getType())
          ? call
          : call.clone(type, operands);
    }

    /**
     * Whether {@code call} moves a timestamp by an interval or a zone's offset, keeping the part of
     * its value finer than the millisecond: the index of that timestamp operand, or -1.
     */
    private int shifts(RexCall call) {
      SqlKind kind = call.getKind();
      boolean moves =
          kind == SqlKind.PLUS
              || kind == SqlKind.MINUS
              || kind == SqlKind.TIMESTAMP_ADD
              || ZONE_SHIFTS.contains(call.getOperator());
      if (!moves) {
        return -1;
      }
      for (int i = 0; i < call.getOperands().size(); i++) {
        if (fine(call.getOperands().get(i).getType())
            && per(call.getOperands().get(i).getType()) == per(call.getType())) {
          return i;
        }
      }
      return -1;
    }

    /**
     * {@code call} computed by Calcite's code on milliseconds: finer operands in milliseconds
     * (rounded up with {@code up}), a finer result counted back, with the ticks below the
     * millisecond of operand {@code keep} when it is not -1.
     */
    private RexNode generic(RexCall call, boolean up, int keep) {
      List<RexNode> ops = new ArrayList<>();
      for (RexNode op : call.getOperands()) {
        ops.add(fine(op.getType()) ? millis(op, up) : op);
      }
      RelDataType type = call.getType();
      if (!fine(type)) {
        return withOperands(call, type, ops);
      }
      RexNode inner = call.clone(withPrecision(type, 3), ops);
      RexNode below =
          keep < 0
              ? bigint(0L)
              : rex.makeCall(
                  TimestampTicks.BELOW_MILLI,
                  List.of(call.getOperands().get(keep), bigint(per(type)), bigint(per(type))));
      return rex.makeCall(type, TimestampTicks.WIDEN, List.of(inner, bigint(per(type)), below));
    }

    private RexNode extract(RexCall call) {
      RexNode ts = call.getOperands().get(1);
      RexNode computed = generic(call, false, -1);
      if (!fine(ts.getType())
          || !(call.getOperands().get(0) instanceof RexLiteral unit)
          || !(unit.getValue() instanceof TimeUnitRange range)) {
        return computed;
      }
      long units;
      switch (range) {
        case MICROSECOND:
          units = 1_000L;
          break;
        case NANOSECOND:
          units = 1_000_000L;
          break;
        default:
          return computed;
      }
      RexNode below =
          rex.makeCall(
              TimestampTicks.BELOW_MILLI, List.of(ts, bigint(per(ts.getType())), bigint(units)));
      return rex.makeCall(
          call.getType(),
          SqlStdOperatorTable.PLUS,
          List.of(computed, rex.makeCast(call.getType(), below)));
    }

    private RexNode cast(RexCall call) {
      RexNode from = call.getOperands().get(0);
      RelDataType to = call.getType();
      RelDataType source = from.getType();
      if (isTimestamp(source) && source.getSqlTypeName() == to.getSqlTypeName()) {
        long perTo = per(to);
        RexNode value = align(from, perTo);
        int digits = precision(perTo);
        if (perTo > 1L && to.getPrecision() < digits) {
          // Cut to the type's digits: a multiple of 10^(digits - p) ticks.
          value = stepped(value, pow10(digits - to.getPrecision()), withPrecision(to, digits));
        }
        return value.getType().equals(to) ? value : retype(value, to);
      }
      if (SqlTypeFamily.CHARACTER.contains(source) && fine(to) && !isLtz(to)) {
        // The text as written: $TS_PARSE cuts it to the type's digits itself.
        if (from instanceof RexCall text
            && text.getOperator() == TemporalFunctions.TIMESTAMP_TEXT) {
          from = text.getOperands().get(0);
        }
        return rex.makeCall(to, TimestampTicks.PARSE, List.of(from, bigint(to.getPrecision())));
      }
      if (fine(source) && !isLtz(source) && SqlTypeFamily.CHARACTER.contains(to)) {
        RelDataTypeFactory f = rex.getTypeFactory();
        RexNode text =
            rex.makeCall(
                f.createTypeWithNullability(
                    f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), source.isNullable()),
                TemporalFunctions.TIMESTAMP_TO_STRING,
                List.of(
                    from,
                    rex.makeExactLiteral(BigDecimal.valueOf(source.getPrecision())),
                    bigint(per(source))));
        return rex.makeCast(to, text);
      }
      return generic(call, false, -1);
    }

    /** {@code value} cut to a multiple of {@code step} ticks, towards negative infinity. */
    private RexNode stepped(RexNode value, long step, RelDataType type) {
      RexNode down =
          rex.makeCall(type, TimestampTicks.RESCALE, List.of(value, bigint(step), bigint(1L)));
      return rex.makeCall(type, TimestampTicks.RESCALE, List.of(down, bigint(1L), bigint(step)));
    }

    /** {@code value} with the type {@code to}, which holds values in the same unit. */
    private RexNode retype(RexNode value, RelDataType to) {
      return rex.makeCall(to, TimestampTicks.RESCALE, List.of(value, bigint(1L), bigint(1L)));
    }
  }

  private static long pow10(int n) {
    long p = 1L;
    for (int i = 0; i < n; i++) {
      p *= 10L;
    }
    return p;
  }
}
