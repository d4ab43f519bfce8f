"""Python functions that the tests' CREATE FUNCTION statements name (``tests.helpers.udfs.x``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pyarrow as pa
import pyarrow.compute as pc

import calcite_bridge as cb


def twice(x: int) -> int:
    return None if x is None else 2 * x  # type: ignore[return-value]


@cb.udf(return_type="STRING", arg_types=["STRING"])
def backwards(s):  # type: ignore[no-untyped-def]
    return None if s is None else s[::-1]


@cb.udf(return_type="DOUBLE", arg_types=["DOUBLE"], vectorized=True)
def vsquare(a: pa.Array) -> pa.Array:
    return pc.multiply(a, a)


def next_day(d: dt.date) -> dt.date:
    return None if d is None else d + dt.timedelta(days=1)  # type: ignore[return-value]


def cents(d: Decimal) -> int:
    return None if d is None else int(d * 100)  # type: ignore[return-value]


def untyped(x):  # type: ignore[no-untyped-def]
    return x


NOT_CALLABLE = 3


class WeightedAvg:
    """An aggregate in PyFlink's shape: the average of ``v`` weighted by ``w``."""

    def create_accumulator(self) -> list[float]:
        return [0.0, 0.0]

    def accumulate(self, acc: list[float], v: float, w: float) -> None:
        if v is not None and w is not None:
            acc[0] += v * w
            acc[1] += w

    def get_value(self, acc: list[float]) -> float:
        return None if acc[1] == 0 else acc[0] / acc[1]  # type: ignore[return-value]


def split_words(s: str):  # type: ignore[no-untyped-def]
    """A table function: each word of ``s`` with its length."""
    if s is None:
        return
    for w in s.split():
        yield (w, len(w))
