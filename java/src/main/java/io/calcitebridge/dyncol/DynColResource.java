package io.calcitebridge.dyncol;

import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.validate.SqlValidatorException;

/** Messages of the parser's errors in dynamic-columns function calls. */
public interface DynColResource {
  DynColResource RESOURCE = Resources.create(DynColResource.class);

  /** A malformed call: bad argument count, unknown type after AS. */
  @BaseMessage("{0}")
  ExInst<SqlValidatorException> badCall(String message);
}
