/**
 * The means every rewrite of a plan is written with: the bottom-up walk of a plan's nodes ({@link
 * io.calcitebridge.rewrite.BottomUp}), the walk of its expressions and calls ({@link
 * io.calcitebridge.rewrite.CallRewrites}), and the configuration of a rule ({@link
 * io.calcitebridge.rewrite.RuleConfig}).
 *
 * <p>Only purpose-free tools belong here; a rewrite that does something to a plan goes to the
 * package of its purpose ({@code flink}, {@code repair}, {@code enumerable}, {@code pushdown}),
 * which all use this one. It uses none of them.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.rewrite;
