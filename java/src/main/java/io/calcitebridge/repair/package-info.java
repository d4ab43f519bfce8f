/**
 * Workarounds of defects of Calcite 1.42, mostly in sub-query removal, decorrelation and the
 * reduction rules: each class names the defect (a JIRA key, or a one-line reproduction when none is
 * filed) and the tests that must pass without it, so that it can go once a Calcite upgrade fixes
 * the defect.
 *
 * <p>Belongs here: a rewrite whose reason is "Calcite gets this wrong by its own rules" (a wrong
 * answer, or a failure to plan). Does not: a difference of Flink's semantics ({@code flink}), or
 * what Calcite's engine needs to run a correct plan ({@code enumerable}). Its tests are cases of
 * {@code tests/fixtures/correctness.sql} (an oracle's rows) and JUnit classes of this package.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.repair;
