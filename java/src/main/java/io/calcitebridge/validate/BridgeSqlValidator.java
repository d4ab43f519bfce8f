package io.calcitebridge.validate;

import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;

/**
 * The validator of calcite-bridge: Calcite's, with narrow overrides for the features Calcite
 * lacks.
 *
 * <p>Sections: star expansion (hidden metadata columns) and field discovery (dynamic columns)
 * hook in here as overrides of {@code addToSelectList} and name resolution.
 */
public final class BridgeSqlValidator extends SqlValidatorImpl {
  public BridgeSqlValidator(
      SqlOperatorTable opTab,
      SqlValidatorCatalogReader catalogReader,
      RelDataTypeFactory typeFactory,
      Config config) {
    super(opTab, catalogReader, typeFactory, config);
  }
}
