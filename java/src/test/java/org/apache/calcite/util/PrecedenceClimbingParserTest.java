/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to you under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 * http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.calcite.util;

import com.google.common.collect.ImmutableList;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * calcite-bridge: the patched {@link PrecedenceClimbingParser#partialParse}
 * reduces random token lists, valid or not, exactly as Calcite's scan does.
 */
class PrecedenceClimbingParserTest {
  /** A special operator that takes the token after it, as a prefix does. */
  private static final PrecedenceClimbingParser.Special TAKES_NEXT =
      (parser, op) -> {
        PrecedenceClimbingParser.Token next =
            java.util.Objects.requireNonNull(op.next, "next");
        return new PrecedenceClimbingParser.Result(op, next,
            parser.call(op, ImmutableList.of(next)));
      };

  @Test void reducesInCalcitesOrder() {
    Random random = new Random(20261207L);
    for (int i = 0; i < 20_000; i++) {
      long seed = random.nextLong();
      int length = 1 + random.nextInt(i < 10_000 ? 12 : 60);
      String byScan = parse(seed, length, PrecedenceClimbingParser::partialParseByScan);
      String bySet = parse(seed, length, PrecedenceClimbingParser::partialParse);
      assertEquals(byScan, bySet, "seed " + seed + ", " + length + " tokens");
    }
  }

  @Test void reducesALongChainAsCalciteDoes() {
    PrecedenceClimbingParser.Builder scan = new PrecedenceClimbingParser.Builder();
    PrecedenceClimbingParser.Builder set = new PrecedenceClimbingParser.Builder();
    for (PrecedenceClimbingParser.Builder b : ImmutableList.of(scan, set)) {
      for (int i = 0; i < 2_000; i++) {
        if (i > 0) {
          b.infix("OR", 1, true);
        }
        b.atom("x").infix("=", 4, true).atom(i);
      }
    }
    PrecedenceClimbingParser byScan = scan.build();
    byScan.partialParseByScan();
    PrecedenceClimbingParser bySet = set.build();
    bySet.partialParse();
    assertEquals(byScan.all().toString(), bySet.all().toString());
    assertEquals(1, bySet.all().size());
  }

  /** The tokens of {@code seed} reduced by {@code reduce}: what is left, or the failure. */
  private static String parse(long seed, int length,
      Consumer<PrecedenceClimbingParser> reduce) {
    Random random = new Random(seed);
    PrecedenceClimbingParser.Builder b = new PrecedenceClimbingParser.Builder();
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(20);
      int precedence = random.nextInt(4);
      if (kind < 9) {
        b.atom("a" + i);
      } else if (kind < 15) {
        b.infix("i" + precedence, precedence, random.nextBoolean());
      } else if (kind < 17) {
        b.prefix("p" + precedence, precedence);
      } else if (kind < 19) {
        b.postfix("s" + precedence, precedence);
      } else {
        b.special("x" + precedence, precedence, precedence, TAKES_NEXT);
      }
    }
    PrecedenceClimbingParser parser = b.build();
    try {
      reduce.accept(parser);
      return parser.all().toString();
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }
}
