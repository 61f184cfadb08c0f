"""Canonical JSON: orjson's output is the json.dumps canonical form, byte for byte."""
import json
from decimal import Decimal

import pytest

from schemas.canonical import canonical_json, digest


def _reference(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


TRICKY = "".join(chr(i) for i in range(0x80)) + "Türkiye Côte d'Ivoire 中国 \u2028\u2029 \U0001F600 \x7f\x85"


@pytest.mark.parametrize("value", [
    TRICKY,
    {TRICKY: [1, None, True, False, {"z": 0, "a": -3}]},
    # key order is code point order, also beyond the BMP (UTF-16 order would differ here)
    {"é": 1, "e": 2, "z": 3, "É": 4, "\U0001F600": 5, "\uffff": 6},
    {"big": 10**18, "empty": [], "nothing": {}},
])
def test_same_bytes_as_json_dumps(value):
    assert canonical_json(value) == _reference(value)


def test_points_are_decimal_strings():
    assert canonical_json({"gp": Decimal("2.50"), "osb": Decimal("46")}) == '{"gp":"2.5","osb":"46"}'
    assert digest({"a": 1}) == "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"


@pytest.mark.parametrize("value", [1.5, {1: "x"}, object()])
def test_refused(value):
    with pytest.raises(TypeError):
        canonical_json(value)
