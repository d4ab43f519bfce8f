package io.calcitebridge.types;

import java.util.List;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelRecordType;
import org.apache.calcite.rel.type.StructKind;

/**
 * Flink's structured type, {@code STRUCTURED<'class', fields>}, as {@code OBJECT_OF} gives it: a
 * ROW of named fields (its values are held and cross to Arrow as a ROW's), with the name of the
 * class it stands for. {@code TYPEOF} writes it as Flink does. Its fields keep the types of the
 * values; the type is nullable, as in Flink, so a field is read as nullable.
 */
public final class StructuredType extends RelRecordType {
  private final String className;

  StructuredType(String className, List<RelDataTypeField> fields, boolean nullable) {
    super(StructKind.PEEK_FIELDS_NO_EXPAND, fields, nullable);
    this.className = className;
    computeDigest(); // again: the superclass computed it before the class name was set
  }

  /** The name of the class, as OBJECT_OF was given it. */
  public String className() {
    return className;
  }

  StructuredType withNullability(boolean nullable) {
    return new StructuredType(className, getFieldList(), nullable);
  }

  @Override
  protected void generateTypeString(StringBuilder sb, boolean withDetail) {
    // The class name is part of the digest, which tells interned types apart.
    sb.append("STRUCTURED('").append(className).append("') ");
    super.generateTypeString(sb, withDetail);
  }
}
