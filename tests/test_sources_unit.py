"""The source contract without a JVM: the filter checker, requests, readers, abilities."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from calcite_bridge._types import arrow_to_sql, sql_to_arrow
from calcite_bridge.errors import SourceContractError, SourceError
from calcite_bridge.expressions import Call, FieldReference, Literal, NestedFieldReference
from calcite_bridge.sources import (
    ArrowTableSource,
    FilterPushDownResult,
    ScanRequest,
    SupportsDynamicColumns,
    SupportsFilterPushDown,
    SupportsProjectionPushDown,
    SupportsReadingMetadata,
)
from calcite_bridge.sources.base import (
    check_filter_result,
    filters_from_json,
    filters_to_json,
    to_reader,
)

AGE = NestedFieldReference(("user", "age"), (1, 1), "INT")
F1 = Call("<", (AGE, Literal(30, "INT")), "BOOLEAN")
F2 = Call("=", (FieldReference("id", "BIGINT"), Literal(7, "BIGINT")), "BOOLEAN")
F3 = Call("IS NULL", (NestedFieldReference(("user", "name"), (1, 0), "STRING"),), "BOOLEAN")
OFFERED = [F1, F2, F3]


def test_partial_acceptance() -> None:
    result = FilterPushDownResult(accepted=[F1, F3], remaining=[F2])
    assert check_filter_result("users", OFFERED, result) == ([0, 2], [1])


def test_a_filter_in_both_lists_is_a_hint() -> None:
    result = FilterPushDownResult(accepted=[F1], remaining=[F1, F2, F3])
    assert check_filter_result("users", OFFERED, result) == ([0], [0, 1, 2])


def test_equal_copies_count_as_the_offered_filter() -> None:
    copy = Call(
        "<", (NestedFieldReference(("user", "age"), (1, 1), "INT"), Literal(30, "INT")), "BOOLEAN"
    )
    result = FilterPushDownResult(accepted=[copy], remaining=[F2, F3])
    assert check_filter_result("users", OFFERED, result) == ([0], [1, 2])


def test_a_lost_filter_names_the_source_and_the_filter() -> None:
    with pytest.raises(SourceContractError) as info:
        check_filter_result("users", OFFERED, FilterPushDownResult([F1], [F3]))
    message = str(info.value)
    assert "'users'" in message and "lost" in message and "=(id, 7)" in message
    assert isinstance(info.value, SourceError)


def test_an_invented_filter_is_an_error() -> None:
    invented = Call(">", (AGE, Literal(99, "INT")), "BOOLEAN")
    with pytest.raises(SourceContractError, match=r"'users'.*>\(user\.age, 99\).*never offered"):
        check_filter_result("users", OFFERED, FilterPushDownResult([invented, *OFFERED], []))


def test_a_wrong_result_type_is_an_error() -> None:
    with pytest.raises(SourceContractError, match="FilterPushDownResult"):
        check_filter_result("users", OFFERED, [F1, F2, F3])
    with pytest.raises(SourceContractError, match="accepted"):
        check_filter_result("users", OFFERED, FilterPushDownResult.__new__(_Broken))


class _Broken(FilterPushDownResult):
    accepted = None  # type: ignore[assignment]
    remaining = ()


def test_duck_typed_results_and_sources() -> None:
    class Answer:
        accepted = (F2,)
        remaining = (F1, F3)

    assert check_filter_result("duck", OFFERED, Answer()) == ([1], [0, 2])
    assert check_filter_result("pair", OFFERED, ((F2,), (F1, F3))) == ([1], [0, 2])
    assert check_filter_result("none", [], FilterPushDownResult([], [])) == ([], [])


def test_ability_defaults() -> None:
    class Source(
        SupportsFilterPushDown,
        SupportsProjectionPushDown,
        SupportsReadingMetadata,
        SupportsDynamicColumns,
    ):
        pass

    source = Source()
    assert source.supports_nested_filters() is False
    assert source.supports_nested_projection() is False
    assert source.list_readable_metadata() == {}
    assert source.discover_column("anything") is None
    result = source.apply_filters(OFFERED)
    assert check_filter_result("defaults", OFFERED, result) == ([], [0, 1, 2])


def test_scan_request_json_round_trip() -> None:
    request = ScanRequest(
        columns=("id", "user"),
        projection=((0,), (1, 1)),
        filters=(F1, F2),
        metadata_keys=("file.path",),
        limit=10,
    )
    wire = request.to_json()
    assert set(wire) == {"columns", "projection", "filters", "metadata_keys", "limit"}
    assert wire["projection"] == [[0], [1, 1]]
    assert ScanRequest.from_json(wire) == request
    import json

    assert ScanRequest.from_json(json.dumps(wire)) == request
    assert ScanRequest.from_json({}) == ScanRequest()
    assert filters_from_json(filters_to_json(OFFERED)) == OFFERED
    with pytest.raises(ValueError):
        ScanRequest(limit=-1)


SCHEMA = pa.schema([("i", pa.int64())])


@pytest.mark.parametrize(
    "make",
    [
        lambda: pa.table({"i": [1, 2, 3]}),
        lambda: pa.table({"i": [1, 2, 3]}).to_reader(),
        lambda: pa.table({"i": [1, 2, 3]}).to_batches(),
        lambda: iter(pa.table({"i": [1, 2, 3]}).to_batches()),
        lambda: pa.record_batch({"i": [1, 2, 3]}),
        lambda: (b for b in pa.table({"i": pa.array([1, 2, 3], pa.int32())}).to_batches()),
    ],
)
def test_to_reader_normalises_scan_results(make: Any) -> None:
    reader = to_reader(make(), SCHEMA)
    assert reader.schema == SCHEMA
    assert reader.read_all().column("i").to_pylist() == [1, 2, 3]


def test_to_reader_errors_name_the_source() -> None:
    assert to_reader([], SCHEMA).read_all().num_rows == 0
    with pytest.raises(SourceError, match=r"'s1'.*int"):
        to_reader(42, SCHEMA, source_name="s1")
    with pytest.raises(SourceError, match=r"'s2'.*columns"):
        to_reader(pa.table({"j": [1]}), SCHEMA, source_name="s2")
    with pytest.raises(SourceError, match=r"'s3'.*str"):
        to_reader(iter(["x"]), SCHEMA, source_name="s3")


USERS = pa.table(
    {
        "id": pa.array([1, 2, 3, 4], pa.int64()),
        "user": pa.array(
            [{"name": "a", "age": 20}, {"name": None, "age": 40}, None, {"name": "d", "age": None}],
            pa.struct([("name", pa.string()), ("age", pa.int32())]),
        ),
    }
)


def test_arrow_table_source_accepts_translatable_filters() -> None:
    source = ArrowTableSource(USERS)
    assert source.supports_nested_filters()
    cast = Call("CAST", (FieldReference("id", "BIGINT"),), "INT")
    untranslatable = Call("=", (cast, Literal(1, "INT")), "BOOLEAN")
    unknown = Call("=", (FieldReference("nope", "INT"), Literal(1, "INT")), "BOOLEAN")
    offered = [F1, untranslatable, unknown, F3]
    result = source.apply_filters(offered)
    assert check_filter_result("users", offered, result) == ([0, 3], [1, 2])


def test_arrow_table_source_scan() -> None:
    source = ArrowTableSource(USERS)
    out = source.scan(ScanRequest(columns=("id",), filters=(F1,))).read_all()
    assert out.to_pydict() == {"id": [1]}
    out = source.scan(ScanRequest(filters=(F3,))).read_all()
    assert out["id"].to_pylist() == [2, 3]  # user.name of a NULL user is NULL too
    out = source.scan(ScanRequest(projection=((1, 1), (0,)), limit=3)).read_all()
    assert out.column_names == ["user.age", "id"]
    assert out.to_pydict() == {"user.age": [20, 40, None], "id": [1, 2, 3]}
    assert source.scan(ScanRequest(limit=0)).read_all().num_rows == 0


@pytest.mark.parametrize(
    "text",
    [
        "INT",
        "BIGINT NOT NULL",
        "DECIMAL(10, 2)",
        "TIMESTAMP_LTZ(3)",
        "TIMESTAMP(6)",
        "TIME(3)",
        "ROW<a INT, `b.c` ROW<x STRING NOT NULL>>",
        "ARRAY<DOUBLE>",
        "MAP<STRING, BIGINT>",
    ],
)
def test_type_strings_round_trip(text: str) -> None:
    nullable = not text.endswith(" NOT NULL")
    assert arrow_to_sql(sql_to_arrow(text), nullable) == text


def _offer(function: str, value: Any, data_type: str = "BIGINT NOT NULL") -> list[Any]:
    field = {"kind": "field", "name": "id", "type": "BIGINT", "input_index": 0, "field_index": 0}
    literal = {"kind": "literal", "value": value, "type": data_type}
    return [{"kind": "call", "function": function, "args": [field, literal], "type": "BOOLEAN"}]


def test_an_arrow_tables_answer_is_kept_per_shape_of_the_offer() -> None:
    from calcite_bridge.sources.arrow import OfferAnswers

    answers = OfferAnswers()
    assert answers.known(_offer("<", 5)) is None
    answers.keep(_offer("<", 5), "yes")
    assert answers.known(_offer("<", 7)) == "yes"  # another value, the same shape
    assert answers.known(_offer("<=", 7)) is None  # another operator
    assert answers.known(_offer("<", 7, "INTEGER NOT NULL")) is None  # another type
    assert answers.known(_offer("<", "7")) is None  # a value of another kind
    # a literal that makes no Arrow scalar of its type is asked again
    assert answers.known(_offer("<", 2**70)) is None
    # only comparisons, AND, OR and NOT of columns and literals are kept
    answers.keep(_offer("LIKE", "a%", "STRING NOT NULL"), "yes")
    assert answers.known(_offer("LIKE", "b%", "STRING NOT NULL")) is None


def test_an_answer_on_a_field_of_a_row_column_is_kept_per_shape_too() -> None:
    from calcite_bridge.sources.arrow import OfferAnswers

    def offer(value: Any, names: list[str], indices: list[int]) -> list[Any]:
        field = {"kind": "nested", "names": names, "indices": indices, "type": "INT"}
        literal = {"kind": "literal", "value": value, "type": "INT NOT NULL"}
        return [{"kind": "call", "function": "<", "args": [field, literal], "type": "BOOLEAN"}]

    answers = OfferAnswers()
    answers.keep(offer(30, ["user", "age"], [1, 1]), "yes")
    assert answers.known(offer(25, ["user", "age"], [1, 1])) == "yes"
    assert answers.known(offer(25, ["user", "id"], [1, 1])) is None  # another field
    assert answers.known(offer(25, ["user", "age"], [1, 0])) is None  # another position
    assert answers.known(offer(2**40, ["user", "age"], [1, 1])) is None  # no INT scalar


def test_source_calls_keep_answers_only_for_an_arrow_tables_own_apply_filters() -> None:
    import json

    from calcite_bridge.sources._calls import SourceCalls

    class Own(ArrowTableSource):
        pass

    class Asks(ArrowTableSource):
        def apply_filters(self, filters: list[Any]) -> FilterPushDownResult:
            return FilterPushDownResult([], list(filters))

    table = pa.table({"id": pa.array([1, 2, 3], pa.int64())})
    for source, kept, accepted in ((Own(table), True, [0]), (Asks(table), False, [])):
        calls = SourceCalls("t", source)
        for value in (1, 2):
            answer = json.loads(calls.apply_filters(json.dumps(_offer("<", value))))
            assert answer == {"accepted": accepted, "remaining": [0][len(accepted) :]}
        assert (calls._answers is not None) == kept
