"""The harness's comparison itself: what it calls equal, and what it does not."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from tests.differential.harness import (
    SortKeys,
    _through_calc,
    equal,
    load_differences,
    row_difference,
    schema_difference,
)


def test_floats_to_a_relative_tolerance() -> None:
    assert equal(0.1 + 0.2, 0.3)
    assert not equal(1.0, 1.0 + 1e-6)
    assert equal(float("nan"), float("nan"))
    assert not equal(1, 1.0)
    assert not equal(True, 1)


def test_nulls_exactly_at_every_level() -> None:
    assert equal({"a": [None, {"b": None}]}, {"a": [None, {"b": None}]})
    assert not equal({"a": [None]}, {"a": [0]})
    assert not equal({"a": {"b": None}}, {"a": None})
    assert not equal([None], [])


def test_rows_as_multisets_without_order() -> None:
    assert row_difference([(1,), (2,), (2,)], [(2,), (1,), (2,)], None) is None
    assert row_difference([(1,), (2,), (2,)], [(1,), (1,), (2,)], None) is not None
    assert row_difference([(1,)], [(1,), (1,)], None) == "1 rows vs 2"


def test_rows_in_order_with_ties_in_any_order() -> None:
    keys = SortKeys((0,), fetch=False, offset=False)
    assert (
        row_difference([(1, "a"), (1, "b"), (2, "c")], [(1, "b"), (1, "a"), (2, "c")], keys) is None
    )
    assert row_difference([(1, "a"), (2, "c")], [(2, "c"), (1, "a")], keys) is not None
    assert row_difference([(1, "a"), (1, "b")], [(1, "a"), (1, "a")], keys) is not None


def test_rows_cut_by_a_limit_may_be_any_of_the_tied_ones() -> None:
    keys = SortKeys((0,), fetch=True, offset=False)
    assert row_difference([(0, "x"), (1, "a")], [(0, "x"), (1, "b")], keys) is None
    assert row_difference([(0, "x"), (1, "a")], [(0, "y"), (1, "a")], keys) is not None


def test_schemas_names_types_and_nullability() -> None:
    a = pa.schema([pa.field("x", pa.int32(), nullable=False)])
    assert schema_difference(a, a) is None
    assert "type" in str(schema_difference(a, pa.schema([pa.field("x", pa.int64(), False)])))
    assert "nullability" in str(schema_difference(a, pa.schema([pa.field("x", pa.int32())])))
    assert "names" in str(schema_difference(a, pa.schema([pa.field("y", pa.int32(), False)])))


def test_sort_keys_through_a_calc() -> None:
    calc = "EnumerableCalc(expr#0..2=[{inputs}], expr#3=[1], name=[$t1], id=[$t0], k=[$t3])"
    assert _through_calc(calc, [0]) == [1]
    assert _through_calc(calc, [1, 0]) == [0, 1]
    assert _through_calc(calc, [2]) is None


def test_differences_file_format(tmp_path: Path) -> None:
    path = tmp_path / "d.txt"
    path.write_text("# c\nq.sql:a: one\n  two\n\nREADME.md:block0.q1: three\n")
    assert load_differences(path) == {"q.sql:a": "one two", "README.md:block0.q1": "three"}
    path.write_text("q.sql:a: one\nq.sql:a: again\n")
    with pytest.raises(ValueError, match="twice"):
        load_differences(path)
