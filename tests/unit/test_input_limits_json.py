"""``schemas.limits.load_message`` reads JSON with pydantic-core's reader and hands what that reader
does not take to ``json``: whatever the message, the value or the refusal is the one ``json.loads``
gives (issue 13: a fast replay must not change what is JSON, nor how a refusal reads)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import limits


def _outcome(read, raw):
    try:
        value = read(raw)
    except ValueError as exc:
        return "refused", type(exc).__name__, str(exc)
    return "read", repr(value), _types(value)


def _types(value):
    """The Python types of a value, nested: 1 and 1.0 and True compare equal, their types do not."""
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__


EDGES = [
    '{"a":1,"b":3,"a":2}',  # a repeated key: the last one wins
    "123456789012345678901234567890", "-123456789012345678901234567890",  # beyond 64 bits: an int, not a float
    "18446744073709551616", "1e400", "-1e400", "1e-400", "-0", "-0.0", "1E2", "2.5e3", "0.1",
    "NaN", "Infinity", "-Infinity",  # json reads them (the schemas then refuse a float)
    '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '{"\\ud800":1}', '"\ud800"',  # lone surrogates reach the text rule
    '"\\u0000"', '"a\x01b"', '"\x7f"', '"\u2028"', '"\\/"',
    "\ufeff{}", " {} ", "\t[]\r\n", "{}x", "[1,]", '{"a":1,}', "01", "1.", ".5", "nul", '{"a" 1}', "",
    b'{"a":"\xc3\xa9"}', b"\xef\xbb\xbf{}", b'"\xff"', b"\xed\xa0\x80", '{"a":1}'.encode("utf-16"),
]


@pytest.mark.parametrize("raw", EDGES)
def test_an_edge_of_json_reads_as_json_reads_it(raw):
    assert _outcome(limits.load_message, raw) == _outcome(json.loads, raw)


@pytest.mark.parametrize("depth", [9, 300, 5000])  # 5000: deeper than either reader goes
def test_a_message_too_deep_is_refused_as_before(depth):
    with pytest.raises(limits.MessageTooLarge, match="nested deeper than 8 levels"):
        limits.load_message("[" * depth + "]" * depth)
    assert limits.load_message("[" * 8 + "]" * 8) == [[[[[[[[]]]]]]]]


def test_the_size_limit_counts_utf8_bytes():
    ascii_text = '"' + "a" * (limits.MAX_MESSAGE_BYTES - 2) + '"'
    assert len(limits.load_message(ascii_text)) == limits.MAX_MESSAGE_BYTES - 2
    wide = '"' + "é" * (limits.MAX_MESSAGE_BYTES // 2) + '"'  # fewer characters than the limit, more bytes
    with pytest.raises(limits.MessageTooLarge, match=f"message of {limits.MAX_MESSAGE_BYTES + 2} bytes"):
        limits.load_message(wide)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON, ensure_ascii=st.booleans(), as_bytes=st.booleans())
def test_any_json_value_reads_as_json_reads_it(value, ensure_ascii, as_bytes):
    text = json.dumps([value], ensure_ascii=ensure_ascii)
    raw = text.encode("utf-8", "surrogatepass") if as_bytes else text
    if text.count("[") + text.count("{") > limits.MAX_DEPTH:
        return  # a depth refusal, tested above
    assert _outcome(limits.load_message, raw) == _outcome(json.loads, raw)
