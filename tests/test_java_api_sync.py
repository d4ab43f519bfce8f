"""The Java API (``io.calcitebridge.api.BridgeEnvironment``) and the Python ``Environment`` stay in
step: every public Java method has a Python counterpart, or is listed below with the reason it has
none. The Java methods are read by reflection in the running JVM."""

from __future__ import annotations

import re

import jpype
import pytest

import calcite_bridge as cb
from calcite_bridge.config import Config

# Java methods that are reached another way from Python, or have no Python counterpart on purpose.
NO_ENVIRONMENT_METHOD: dict[str, str] = {
    "create": "Python creates an Environment with cb.connect(config) or Environment(config)",
    "version": "Python has the module attribute calcite_bridge.__version__",
    "registerConnector": (
        "Python declares connectors in DDL by class name: 'connector' = 'python', 'class' = "
        "'pkg.module:Name' (python.allowed-modules); Java has no class names to load from SQL"
    ),
    "warmUpWhenIdle": (
        "Python starts the JIT's idle-time warm-up as it starts the JVM, as the gateway does; "
        "CALCITE_BRIDGE_IDLE_WARM_UP sets its length or turns it off (docs/performance.md)"
    ),
    "idleWarmUpStatus": (
        "the warm-up is the JVM's, not an environment's; Python starts it with the JVM and "
        "never waits for it (test_startup.py reads its state through JPype)"
    ),
}

# Config accessors live on env.config in Python.
CONFIG_METHODS: dict[str, str] = {
    "getConfig": "get",
    "setConfig": "set",
    "resetConfig": "reset",
    "configEntries": "items",
}


def _java_methods() -> set[str]:
    cb.connect().close()  # starts the JVM with calcite-bridge's jar on the class path
    cls = jpype.JClass("io.calcitebridge.api.BridgeEnvironment").class_
    return {
        str(m.getName())
        for m in cls.getMethods()
        if m.getDeclaringClass().equals(cls)  # not Object's methods
    }


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _python_counterpart(java_name: str) -> str | None:
    """Where the Python counterpart of ``java_name`` lives, or None when there is none."""
    if java_name in CONFIG_METHODS:
        attr = CONFIG_METHODS[java_name]
        return f"Environment.config.{attr}" if callable(getattr(Config, attr, None)) else None
    attr = snake_case(java_name)
    return f"Environment.{attr}" if callable(getattr(cb.Environment, attr, None)) else None


@pytest.fixture(scope="module")
def java_methods() -> set[str]:
    return _java_methods()


def test_snake_case() -> None:
    assert snake_case("executeScript") == "execute_script"
    assert snake_case("sql") == "sql"
    assert snake_case("registerSource") == "register_source"


def test_the_java_api_is_found(java_methods: set[str]) -> None:
    assert {"execute", "sql", "explain", "validate", "describe", "close"} <= java_methods
    assert "hashCode" not in java_methods


def test_every_java_method_has_a_python_counterpart(java_methods: set[str]) -> None:
    missing = sorted(
        m for m in java_methods if m not in NO_ENVIRONMENT_METHOD and not _python_counterpart(m)
    )
    assert not missing, (
        f"BridgeEnvironment methods without a Python counterpart: {missing}. Add them to "
        "calcite_bridge.Environment (snake_case), or list them in NO_ENVIRONMENT_METHOD in "
        "tests/test_java_api_sync.py with the reason."
    )


def test_the_exceptions_are_still_needed(java_methods: set[str]) -> None:
    stale = sorted(m for m in NO_ENVIRONMENT_METHOD if m not in java_methods)
    assert not stale, f"NO_ENVIRONMENT_METHOD lists methods BridgeEnvironment lacks: {stale}"
    matched = sorted(m for m in NO_ENVIRONMENT_METHOD if _python_counterpart(m))
    assert not matched, f"NO_ENVIRONMENT_METHOD lists methods Python now has: {matched}"
