package io.calcitebridge.arrow;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where Arrow's C Data library is loaded from. Arrow copies the library out of the jar into a new
 * temporary file in every process, the first time data crosses through a C struct: the temporary
 * file's name takes a {@code SecureRandom}, whose providers are initialised for it, and the copy is
 * written again each time (about 20 ms of a new process's first registration of a source).
 *
 * <p>When the JVM is started with {@code -Dcalcitebridge.native-cache=DIR} (the Python package
 * gives its cache directory), the library is copied once into {@code DIR/<entry's CRC>/} and Arrow
 * loads it from there ({@code arrow.cdata.library.path}). Without the property, or when the copy
 * cannot be made, Arrow loads it its own way.
 */
final class CDataLibrary {
  static final String CACHE_PROPERTY = "calcitebridge.native-cache";
  private static final String ARROW_PROPERTY = "arrow.cdata.library.path";

  private CDataLibrary() {}

  /** Points Arrow at the cached copy of its library, made first if needed. */
  static void prepare() {
    String cache = System.getProperty(CACHE_PROPERTY);
    if (cache == null || cache.isEmpty() || System.getProperty(ARROW_PROPERTY) != null) {
      return;
    }
    try {
      Path dir = cachedCopy(Path.of(cache));
      if (dir != null) {
        System.setProperty(ARROW_PROPERTY, dir.toString());
      }
    } catch (IOException | RuntimeException e) {
      // Arrow copies the library out of the jar itself.
    }
  }

  /** The directory that holds a copy of the library, made if needed; null without one. */
  static @Nullable Path cachedCopy(Path cache) throws IOException {
    String name = System.mapLibraryName("arrow_cdata_jni");
    String resource = "arrow_cdata_jni/" + architecture() + "/" + name;
    URL url = CDataLibrary.class.getClassLoader().getResource(resource);
    if (url == null) {
      return null;
    }
    URLConnection connection = url.openConnection();
    long size;
    String version;
    if (connection instanceof JarURLConnection jar) {
      var entry = jar.getJarEntry();
      size = entry.getSize();
      version = Long.toHexString(entry.getCrc());
    } else {
      // Classes from a directory (a build's): named by the library's size and time.
      Path file = Path.of(java.net.URI.create(url.toString()));
      size = Files.size(file);
      version = Long.toHexString(size) + "-" + Files.getLastModifiedTime(file).toMillis();
    }
    Path dir = cache.resolve(version);
    Path target = dir.resolve(name);
    if (Files.isRegularFile(target) && Files.size(target) == size) {
      return dir;
    }
    Files.createDirectories(dir);
    Path partial = dir.resolve(name + "." + ProcessHandle.current().pid() + ".part");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
    return Files.size(target) == size ? dir : null;
  }

  /** The architecture as Arrow names the folders of its libraries in the jar. */
  private static String architecture() {
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    return switch (arch) {
      case "amd64" -> "x86_64";
      case "aarch64" -> "aarch_64";
      default -> arch;
    };
  }
}
