package io.calcitebridge.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.junit.jupiter.api.Test;

/**
 * A run keeps the types of its parameters per signature of its values' types: values of one
 * signature must have the types their literals have, or a plan kept for one would serve another.
 */
class ParameterSignatureTest {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl();

  private static final List<Object> VALUES =
      List.of(
          Long.MIN_VALUE,
          (long) Integer.MIN_VALUE - 1,
          (long) Integer.MIN_VALUE,
          -5L,
          0L,
          7L,
          (long) Integer.MAX_VALUE,
          (long) Integer.MAX_VALUE + 1,
          Long.MAX_VALUE,
          3,
          true,
          false,
          0.0,
          -0.0,
          1.5e300,
          -2.5,
          "",
          "a",
          "it's",
          "ü\\",
          "abc");

  @Test
  void valuesOfOneSignatureHaveTheTypesOfTheirLiterals() {
    Map<String, List<RelDataType>> seen = new HashMap<>();
    for (Object first : VALUES) {
      for (Object second : VALUES) {
        Parameters p = Parameters.fromScalars(new Object[] {first, second});
        String signature = p.typeSignature();
        assertNotNull(signature, first + ", " + second);
        List<RelDataType> literalTypes = p.dynamicTypes(types, ZoneOffset.UTC);
        assertNotNull(literalTypes);
        List<RelDataType> kept = seen.putIfAbsent(signature, literalTypes);
        if (kept != null) {
          assertEquals(kept, literalTypes, signature + ": " + first + ", " + second);
        }
      }
    }
  }

  @Test
  void valuesWhoseTypeTheSignatureCannotTellHaveNone() {
    assertNull(Parameters.fromScalars(new Object[] {null}).typeSignature());
    assertNull(Parameters.fromScalars(new Object[] {Double.NaN}).typeSignature());
    assertNull(Parameters.fromScalars(new Object[] {"\uD83D\uDE00"}).typeSignature());
    assertNull(Parameters.fromScalars(new Object[] {LocalDate.of(2024, 1, 1)}).typeSignature());
    assertNull(
        Parameters.fromScalars(new Object[] {java.math.BigInteger.TEN.pow(30)}).typeSignature());
  }
}
