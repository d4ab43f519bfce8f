package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The copy of Arrow's C Data library that the JVM keeps in the package's cache folder. */
class CDataLibraryTest {
  private static byte[] jarCopy() throws IOException {
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    arch = arch.equals("amd64") ? "x86_64" : arch.equals("aarch64") ? "aarch_64" : arch;
    String resource = "arrow_cdata_jni/" + arch + "/" + System.mapLibraryName("arrow_cdata_jni");
    try (InputStream in = CDataLibrary.class.getClassLoader().getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      return in.readAllBytes();
    }
  }

  @Test
  void theLibraryIsCopiedOnceAndThenUsedWhereItIs(@TempDir Path cache) throws IOException {
    Path dir = CDataLibrary.cachedCopy(cache);
    assertNotNull(dir);
    Path library = dir.resolve(System.mapLibraryName("arrow_cdata_jni"));
    assertArrayEquals(jarCopy(), Files.readAllBytes(library));
    assertEquals(cache, dir.getParent(), "one folder per build of the library");

    // A second process finds it and writes nothing.
    FileTime written = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(library, written);
    assertEquals(dir, CDataLibrary.cachedCopy(cache));
    assertEquals(written, Files.getLastModifiedTime(library));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(library), files.toList(), "no partial copy left behind");
    }
  }

  @Test
  void aTruncatedCopyIsWrittenAgain(@TempDir Path cache) throws IOException {
    Path dir = CDataLibrary.cachedCopy(cache);
    assertNotNull(dir);
    Path library = dir.resolve(System.mapLibraryName("arrow_cdata_jni"));
    Files.write(library, new byte[] {1, 2, 3});
    assertEquals(dir, CDataLibrary.cachedCopy(cache));
    assertArrayEquals(jarCopy(), Files.readAllBytes(library));
  }

  @Test
  void anUnwritableCacheLeavesArrowToItsOwnCopy(@TempDir Path cache) throws IOException {
    Path file = cache.resolve("a-file");
    Files.writeString(file, "not a folder");
    // prepare() then sets nothing, and Arrow loads the library its own way.
    assertThrows(IOException.class, () -> CDataLibrary.cachedCopy(file.resolve("native")));
  }
}
