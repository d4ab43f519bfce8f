# One entry point for every task. `make demo` and `make test` build whatever is missing.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
JAR := java/target/calcite-bridge.jar
PKG_JAR := python/calcite_bridge/_jars/calcite-bridge.jar
MVN ?= mvn -B -q
JAVA_SOURCES := $(shell find java/src/main -type f 2>/dev/null) java/pom.xml

.PHONY: wheel wheel-check wheel-check-jdk build jar venv demo demo-spark test test-java test-python test-java-example install-java bench lint fmt clean \
	golden golden-flink flink-docs differential-report fuzz fuzz-errors logic

PKG_JSA := python/calcite_bridge/_jars/calcite-bridge.jsa
# The dynamic-columns functions as Spark UDFs: a small second jar the spark backend adds to sessions.
UDF_JAR := java-spark-udf/target/calcite-bridge-spark-udf.jar
PKG_UDF_JAR := python/calcite_bridge/_jars/calcite-bridge-spark-udf.jar
UDF_SOURCES := $(shell find java-spark-udf/src/main java/src/main/java/io/calcitebridge/dyncol -type f 2>/dev/null) java-spark-udf/pom.xml java/src/main/java/io/calcitebridge/functions/JavaValues.java

build: venv $(PKG_JAR) $(PKG_JSA) $(PKG_UDF_JAR)

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev,spark]'
	touch $@

venv: $(VENV)/.installed

$(JAR): $(JAVA_SOURCES)
	cd java && $(MVN) -DskipTests package

$(PKG_JAR): $(JAR)
	mkdir -p $(dir $@)
	cp $(JAR) $@

jar: $(PKG_JAR)

$(UDF_JAR): $(UDF_SOURCES)
	cd java-spark-udf && $(MVN) -DskipTests package

$(PKG_UDF_JAR): $(UDF_JAR)
	mkdir -p $(dir $@)
	cp $(UDF_JAR) $@

# Class-data-sharing archive of the classes a first query loads: halves the JVM's start-up.
# Optional: if it cannot be made, everything works without it.
$(PKG_JSA): $(PKG_JAR) python/calcite_bridge/_cds.py | venv
	rm -f $@
	CALCITE_BRIDGE_JVM_OPTIONS="-XX:ArchiveClassesAtExit=$(abspath $@) -Xlog:cds=off -Xlog:cds+dynamic=off" \
		$(PY) -m calcite_bridge._cds >/dev/null 2>&1 || { rm -f $@; \
		echo "note: no class-data-sharing archive was written (a Java other than the build's?):" \
		"start-up is slower, everything else works"; }

demo: build
	$(PY) examples/demo.py

# Parquet and CSV tables on Spark local[1]: a hidden metadata column, a nested filter, discovered
# columns, COLUMN_GET over blobs (pyspark, the spark extra, is installed by `make build`).
demo-spark: build
	$(PY) examples/demo_spark.py

test: build test-java test-python test-java-example

test-java:
	cd java && $(MVN) test

# Two processes (pytest-xdist), a test file per process at a time; the longest file starts first
# (tests/conftest.py: LONGEST_FIRST). TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 2
test-python: build
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=20 tests

# Rewrites the golden plans in tests/golden/ and java/src/test/resources/io/calcitebridge/plan/
# from the planner as it is; review the diff (`git diff tests/golden java/src/test/resources`)
# before committing it (docs/testing.md).
golden: build
	$(PY) -m pytest tests -q -m golden --update-golden
	cd java && $(MVN) test -Dtest=PushDownPlanTest -Dgolden.update=true

# Flink's answers to tests/flink/cases/ (tests/flink/golden/, functions.tsv) and to the statement
# scripts tests/flink/scripts/ (tests/flink/golden/scripts/), from PyFlink in its
# own virtual environment (FLINK_VENV; made here when missing, never the project's), then the
# compatibility page. Review `git diff tests/flink docs` before committing.
FLINK_VENV ?= .flink-venv
FLINK_VERSION := 2.3.0
$(FLINK_VENV)/.installed:
	python3 -m venv $(FLINK_VENV)
	$(FLINK_VENV)/bin/pip install -q apache-flink==$(FLINK_VERSION)
	touch $@

golden-flink: $(FLINK_VENV)/.installed
	$(FLINK_VENV)/bin/python tools/flink_golden.py flink
	mvn -B -q dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:5.0.0-2.2 -Dtransitive=false
	$(FLINK_VENV)/bin/python tools/flink_golden.py scripts
	$(FLINK_VENV)/bin/python tools/flink_names.py
	$(MAKE) flink-docs

# docs/flink-compatibility.md from the golden files and tests/flink/expected.tsv (no PyFlink).
flink-docs: venv
	$(PY) tools/flink_golden.py docs

# Runs every test query on every execution backend against the reference (tests/differential/)
# and writes the counts to docs/backends.md; review the diff before committing it.
differential-report: build
	CALCITE_BRIDGE_DIFFERENTIAL_REPORT=docs/backends.md $(PY) -m pytest tests/differential -q

# Random TLP, NoREC, DuckDB and backend checks (tests/fuzz/); a mismatch prints a shrunk repro.
MINUTES ?= 15
SEED ?= 1
fuzz: build
	$(PY) -m tests.fuzz --minutes $(MINUTES) --seed $(SEED)

# Crash and internal-error fuzzing (tests/fuzz/crash.py): mutated fixture queries and random
# expressions, each batch in a child process; a finding prints a minimised repro.
fuzz-errors: build
	$(PY) -m tests.fuzz.crash --minutes $(MINUTES) --seed $(SEED)

# Runs sqllogictest files (default: the ones make test runs) and prints every failure:
# make logic FILES="tests/logic/files/select5.test" BACKEND=duckdb
BACKEND ?= enumerable
FILES ?= $(wildcard tests/logic/files/*.test)
logic: build
	$(PY) -m tests.logic.runner --backend $(BACKEND) $(FILES)

# Puts the shaded jar, with its dependency-reduced pom, into Maven's local repository, as
# `cd java && mvn install` does, without building it again.
install-java: $(JAR)
	cd java && $(MVN) org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file \
		-Dfile=target/calcite-bridge.jar -DpomFile=target/dependency-reduced-pom.xml

# A standalone Maven project that depends on the installed artifact; it checks its own output.
EXAMPLE_JAVA := examples/java
test-java-example: install-java
	cd $(EXAMPLE_JAVA) && $(MVN) compile dependency:build-classpath \
		-Dmdep.outputFile=target/classpath.txt
	java --add-opens=java.base/java.nio=ALL-UNNAMED \
		-cp "$(EXAMPLE_JAVA)/target/classes:$$(cat $(EXAMPLE_JAVA)/target/classpath.txt)" \
		io.calcitebridge.examples.Main

# The wheel users install: the package with the jar (tools/build_backend runs Maven when needed).
wheel: venv
	rm -f dist/calcite_bridge-*.whl
	$(PIP) wheel -q --no-deps -w dist .

# Installs that wheel into a new virtual environment outside the repository and runs the README's
# examples and a CLI call there (tools/check_wheel.py).
wheel-check: wheel
	$(PY) tools/check_wheel.py

# The same wheel with the jdk extra (a Java 25 runtime) in another new virtual environment: a
# query, doctor, the AOT cache trained by the first start and used by the next, and the tests
# that need the extra (tools/check_wheel.py --jdk). About two minutes, most of it the training.
wheel-check-jdk: wheel
	$(PY) tools/check_wheel.py --jdk

bench: build
	$(PY) bench/run.py

# check_python_imports.py fails on an import cycle inside calcite_bridge (function-local imports
# count) and on an import that goes up the layer order stated in its docstring.
lint: build
	$(VENV)/bin/ruff check python tests examples bench tools
	$(VENV)/bin/ruff format --check python tests examples bench tools
	$(VENV)/bin/mypy
	$(PY) tools/check_python_imports.py
	cd java && $(MVN) spotless:check
	cd java-spark-udf && $(MVN) spotless:check
	cd java && $(MVN) test -Dtest=LayersTest -Dsurefire.failIfNoSpecifiedTests=false

fmt: venv
	$(VENV)/bin/ruff format python tests examples bench tools
	$(VENV)/bin/ruff check --fix python tests examples bench tools
	cd java && $(MVN) spotless:apply
	cd java-spark-udf && $(MVN) spotless:apply

clean:
	rm -rf java/target java-spark-udf/target $(EXAMPLE_JAVA)/target $(PKG_JAR) $(PKG_JSA) $(PKG_UDF_JAR) $(VENV)
