package io.calcitebridge.connector;

import java.util.Map;

/**
 * The options of a {@code filesystem} table, checked as Flink's {@code FileSystemTableFactory}
 * checks them: its own keys, this project's ({@code sink.create-path}, {@code
 * source.missing-columns}) and the format's, those under {@code <format>.}, whose values the format
 * reads. Any other key is refused with Flink's "Unsupported options found for 'filesystem'".
 */
public final class FileSystemOptions {
  private FileSystemOptions() {}

  /** Fails with Flink's message when {@code options} hold a key the connector does not read. */
  public static void check(Map<String, String> options) {
    ConnectorOptions o = new ConnectorOptions(options);
    o.accept(
        "auto-compaction",
        "compaction.file-size",
        "format",
        "partition.default-name",
        "partition.time-extractor.class",
        "partition.time-extractor.kind",
        "partition.time-extractor.timestamp-formatter",
        "partition.time-extractor.timestamp-pattern",
        "path",
        "property-version",
        "scan.watermark.alignment.group",
        "scan.watermark.alignment.max-drift",
        "scan.watermark.alignment.update-interval",
        "scan.watermark.emit.strategy",
        "scan.watermark.idle-timeout",
        "sink.create-path",
        "sink.parallelism",
        "sink.partition-commit.delay",
        "sink.partition-commit.policy.class",
        "sink.partition-commit.policy.class.parameters",
        "sink.partition-commit.policy.kind",
        "sink.partition-commit.success-file.name",
        "sink.partition-commit.trigger",
        "sink.partition-commit.watermark-time-zone",
        "sink.rolling-policy.check-interval",
        "sink.rolling-policy.file-size",
        "sink.rolling-policy.inactivity-interval",
        "sink.rolling-policy.rollover-interval",
        "sink.shuffle-by-partition.enable",
        "source.missing-columns",
        "source.monitor-interval",
        "source.path.regex-pattern",
        "source.report-statistics");
    o.acceptPrefix(options.getOrDefault("format", "parquet").trim() + ".");
    o.checkConsumed("filesystem");
  }
}
