package io.calcitebridge.statement;

import io.calcitebridge.connector.SourceStorage;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One scan a backend's SQL reads: either opened here ({@code reader}, its rows as Arrow), or a scan
 * of a source that lives in the process running the backend, which opens it there with the same
 * request ({@code prepared}), so that no row passes through the JVM.
 *
 * @param rowType the scan's columns
 * @param reader the opened scan, or null
 * @param prepared the scan for the host process to open, or null
 */
public record BackendScan(
    RelDataType rowType, @Nullable ArrowReader reader, SourceStorage.@Nullable Prepared prepared) {}
