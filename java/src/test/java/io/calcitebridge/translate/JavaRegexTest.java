package io.calcitebridge.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link JavaRegex}: which Java patterns are written for RE2, and how. */
class JavaRegexTest {
  private static String re2(String java) {
    JavaRegex r = JavaRegex.translate(java);
    assertNotNull(r, java);
    return r.re2();
  }

  @Test
  void theDotIsJavasWhichLeavesOutEveryLineTerminator() {
    assertEquals("a[^\n\r\u0085\u2028\u2029]b", re2("a.b"));
  }

  @Test
  void punctuationIsEscapedAndCountsKeepNoBracesAroundDigitsAlone() {
    assertEquals("\\{(\\d+)\\}", re2("\\{(\\d+)\\}"));
    assertEquals("\\d{4,4}\\-\\d{2,}x{1,3}?", re2("\\d{4}-\\d{2,}x{1,3}?"));
    assertEquals("[\\^a\\-z\\]]", re2("[\\^a\\-z\\]]"));
    assertEquals("[^a-c\\-]", re2("[^a-c-]"));
  }

  @Test
  void constructsWhoseMeaningDiffersAreRefused() {
    for (String p :
        new String[] {
          "a$", "\\s", "\\bx", "(a)\\1", "(?=a)", "(?i)a", "(?<n>a)", "a*+", "[a[b]]", "[a&&b]",
          "\\x41", "\\p{L}", "(a*)*", "(?:a?)+", "^*", "a{1001}", "\\Qa\\E", "a{", "[]a]"
        }) {
      assertNull(JavaRegex.translate(p), p);
    }
  }

  @Test
  void patternsJavaDoesNotCompileAreRefused() {
    assertNull(JavaRegex.translate("(a"));
    assertNull(JavaRegex.translate("a)"));
    assertNull(JavaRegex.translate("[b-a]"));
  }

  @Test
  void groupsTakingPartInEveryMatchAreCertain() {
    JavaRegex r = JavaRegex.translate("(a)(b)?(c|(d))(e)+(f)*(?:(g)|h)");
    assertNotNull(r);
    assertEquals(7, r.groups());
    assertTrue(r.certain(0));
    assertTrue(r.certain(1));
    assertFalse(r.certain(2));
    assertTrue(r.certain(3));
    assertFalse(r.certain(4));
    assertTrue(r.certain(5));
    assertFalse(r.certain(6));
    assertFalse(r.certain(7));
    assertFalse(JavaRegex.translate("(a)|b").certain(1));
  }
}
