package io.calcitebridge.statement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.sql.SqlFlinkCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Flink's {@code COMPILE PLAN 'file' [IF NOT EXISTS] FOR stmt}, {@code COMPILE AND EXECUTE PLAN
 * 'file' FOR stmt} and {@code EXECUTE PLAN 'file'}, with a plan file of ours: JSON holding the
 * statement's text, our plan of it and the file format's version. It is not Flink's JSON plan; a
 * plan file is read back only by EXECUTE PLAN here, which runs its statement. A plan file is a file
 * the statement writes or reads: under {@code external-access = false} it is refused, and with
 * {@code filesystem.allowed-paths} set it must lie under one of them.
 */
final class PlanFiles {
  /**
   * What running a plan file needs of the statement executor (so that this class needs none of it).
   */
  interface Statements {
    /** The plan of {@code statement} in {@code format}. */
    String explain(SqlNode statement, String format);

    /** Runs {@code statement}, written as {@code text}. */
    RowSet execute(SqlNode statement, String text);
  }

  private PlanFiles() {}

  /** The format's name, in the file's {@code format} field. */
  static final String FORMAT = "calcite-bridge-plan";

  /** The format's version, in the file's {@code version} field. */
  static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  static RowSet run(Statements executor, SessionState session, SqlFlinkCommand command) {
    SqlParserPos pos = java.util.Objects.requireNonNull(command.file()).getParserPosition();
    Path file =
        checked(session.config(), java.util.Objects.requireNonNull(command.filePath()), pos);
    switch (command.kind()) {
      case COMPILE_PLAN:
        {
          if (Files.exists(file)) {
            if (command.ifNotExists()) {
              return RowSet.ok("ddl", session.planner().typeFactory());
            }
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "Cannot overwrite the plan file '"
                    + command.filePath()
                    + "'. Either manually remove the file or use COMPILE PLAN ... IF NOT EXISTS.",
                pos);
          }
          write(executor, session, command, file, pos);
          return RowSet.ok("ddl", session.planner().typeFactory());
        }
      case COMPILE_AND_EXECUTE_PLAN:
        if (!Files.exists(file)) {
          write(executor, session, command, file, pos);
        }
        return execute(executor, session, file, pos);
      case EXECUTE_PLAN:
        return execute(executor, session, file, pos);
      default:
        throw new IllegalStateException(command.kind().toString());
    }
  }

  private static void write(
      Statements executor,
      SessionState session,
      SqlFlinkCommand command,
      Path file,
      SqlParserPos pos) {
    SqlNode statement = java.util.Objects.requireNonNull(command.statement());
    String text = session.planner().unparse(statement);
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("version", VERSION);
    root.put("statement", text);
    root.put("plan", executor.explain(statement, "text"));
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(
          file,
          JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new PositionedException(
          ErrorKind.EXECUTION, "Cannot write the plan file '" + file + "': " + e, pos);
    }
  }

  private static RowSet execute(
      Statements executor, SessionState session, Path file, SqlParserPos pos) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION, "Cannot read the plan file '" + file + "': " + e.getMessage(), pos);
    }
    if (root == null
        || !FORMAT.equals(root.path("format").asText())
        || !root.path("statement").isTextual()) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "'"
              + file
              + "' is not a plan file of calcite-bridge (COMPILE PLAN writes one; Flink's JSON"
              + " plans are not read here)",
          pos);
    }
    if (root.path("version").asInt() != VERSION) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "The plan file '"
              + file
              + "' has version "
              + root.path("version").asText()
              + "; this version reads version "
              + VERSION,
          pos);
    }
    String text = root.path("statement").asText();
    SqlNode statement;
    try {
      statement = session.planner().parseStatement(text);
    } catch (SqlParseException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The statement of the plan file '" + file + "' does not parse: " + e.getMessage(),
          pos);
    }
    return executor.execute(statement, text);
  }

  /** The file's path, checked against the sandbox; a {@code file://} prefix is dropped. */
  private static Path checked(SessionConfig config, String written, SqlParserPos pos) {
    String p = written.startsWith("file://") ? written.substring("file://".length()) : written;
    if ("false".equals(config.get(SessionConfig.EXTERNAL_ACCESS))) {
      throw new PositionedException(
          ErrorKind.ACCESS,
          "Plan files are off in this environment ('"
              + SessionConfig.EXTERNAL_ACCESS
              + "' = 'false'): '"
              + written
              + "'",
          pos);
    }
    Path path = Path.of(p).toAbsolutePath().normalize();
    String allowed = config.get(SessionConfig.FILESYSTEM_ALLOWED_PATHS);
    if (!allowed.isBlank()) {
      Path real = realOrParent(path);
      boolean ok = false;
      for (String a : allowed.split(";")) {
        if (a.isBlank()) {
          continue;
        }
        if (real.startsWith(realOrParent(Path.of(a.trim()).toAbsolutePath().normalize()))) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        throw new PositionedException(
            ErrorKind.ACCESS,
            "The plan file '"
                + written
                + "' is outside '"
                + SessionConfig.FILESYSTEM_ALLOWED_PATHS
                + "' ("
                + allowed
                + ")",
            pos);
      }
    }
    return path;
  }

  /** The real path of {@code path}, or of its nearest existing parent joined with the rest. */
  private static Path realOrParent(Path path) {
    Path existing = path;
    Path rest = null;
    while (existing != null && !Files.exists(existing)) {
      Path name = existing.getFileName();
      rest = rest == null ? name : name.resolve(rest);
      existing = existing.getParent();
    }
    if (existing == null) {
      return path;
    }
    try {
      Path real = existing.toRealPath();
      return rest == null ? real : real.resolve(rest);
    } catch (IOException e) {
      return path;
    }
  }
}
