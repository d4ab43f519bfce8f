package io.calcitebridge.translate;

import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalCalc;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.sql.SqlDialect;

/**
 * Calcite's converter to SQL with a {@code visit} method for each logical node class a plan holds,
 * each calling the method Calcite's dispatch would have chosen for that class.
 *
 * <p>The converter finds its {@code visit} method per node class by reflection, once per converter
 * (so once per statement), asking for the exact class first and then for its superclasses: for a
 * {@code LogicalJoin} or a {@code LogicalProject} each miss was a {@code NoSuchMethodException}
 * with its stack trace. The SQL written is the same. A subclass's override of the core class's
 * method (say {@code visit(Filter)}) still applies: each method here calls it by a virtual call.
 */
public abstract class TypedRelToSql extends RelToSqlConverter {
  protected TypedRelToSql(SqlDialect dialect) {
    super(dialect);
  }

  public Result visit(LogicalProject e) {
    return visit((Project) e);
  }

  public Result visit(LogicalFilter e) {
    return visit((Filter) e);
  }

  public Result visit(LogicalJoin e) {
    return visit((Join) e);
  }

  public Result visit(LogicalCorrelate e) {
    return visit((Correlate) e);
  }

  public Result visit(LogicalAggregate e) {
    return visit((Aggregate) e);
  }

  public Result visit(LogicalSort e) {
    return visit((Sort) e);
  }

  public Result visit(LogicalValues e) {
    return visit((Values) e);
  }

  public Result visit(LogicalUnion e) {
    return visit((Union) e);
  }

  public Result visit(LogicalIntersect e) {
    return visit((Intersect) e);
  }

  public Result visit(LogicalMinus e) {
    return visit((Minus) e);
  }

  public Result visit(LogicalWindow e) {
    return visit((Window) e);
  }

  public Result visit(LogicalCalc e) {
    return visit((Calc) e);
  }

  public Result visit(LogicalTableModify e) {
    return visit((TableModify) e);
  }

  public Result visit(LogicalTableFunctionScan e) {
    return visit((TableFunctionScan) e);
  }
}
