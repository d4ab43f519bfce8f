package io.calcitebridge.sql;

import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Messages of the errors that the parser raises beyond plain syntax errors. Raised with {@code
 * SqlUtil.newContextException(pos, ...)}, they reach the caller as a {@code SqlParseException}
 * carrying that position.
 */
public interface BridgeParserResource {
  /** The instance used by the generated parser. */
  BridgeParserResource RESOURCE = Resources.create(BridgeParserResource.class);

  /** A column name given twice in one CREATE TABLE. */
  @BaseMessage("Duplicate column name ''{0}''")
  ExInst<SqlValidatorException> duplicateColumn(String name);

  /** An option key given twice in one WITH clause. */
  @BaseMessage("Duplicate option ''{0}''")
  ExInst<SqlValidatorException> duplicateOption(String key);

  /** DYNAMIC_COLUMNS = something other than ON or OFF. */
  @BaseMessage("DYNAMIC_COLUMNS must be ON or OFF, not ''{0}''")
  ExInst<SqlValidatorException> onOrOffExpected(String value);

  /** CREATE OR REPLACE MATERIALIZED TABLE, which Flink's parser refuses with this message. */
  @BaseMessage("REPLACE MATERIALIZED TABLE is not supported.")
  ExInst<SqlValidatorException> replaceMaterializedTable();
}
