"""Bulk writes encode the engine's read-only mappings directly, with orjson; the stored JSON
must read back as what ``json.dumps`` of the plain copy (``runtime.plain``, which the ORM
paths store) reads back as: the same values, every float the same double."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.types import PlayerState, frozen
from app.repositories.events import _dumps, _remembering_last, _sqlite_utc_text
from app.repositories.ratings import dumps_bulk
from app.services.runtime import encode_state, plain
from tests.helpers import JSON_LEAVES


def _engine_shaped(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists, tuples, dicts and read-only mappings, nested as engines return them."""
    keyed = st.dictionaries(st.text(max_size=6), children, max_size=4)
    return (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=4).map(tuple)
        | keyed
        | keyed.map(MappingProxyType)
    )


ENGINE_JSON = st.recursive(JSON_LEAVES, _engine_shaped, max_leaves=20)


@given(st.dictionaries(st.text(max_size=6), ENGINE_JSON, max_size=5))
def test_details_text_equals_the_plain_copy(details: dict[str, Any]) -> None:
    value = frozen(details)
    assert _same_json(_dumps(value), json.dumps(plain(value)))


@given(st.dictionaries(st.text(max_size=6), ENGINE_JSON, max_size=3))
def test_state_text_equals_encode_state(extra: dict[str, Any]) -> None:
    state = PlayerState(1500.0, 350.0, 0.06, frozen(extra))
    as_replay_writes = {
        "rating": state.rating,
        "deviation": state.deviation,
        "volatility": state.volatility,
        "extra": state.extra,
    }
    assert _same_json(_dumps(as_replay_writes), json.dumps(encode_state(state)))


def _same_json(text: str, expected: str) -> bool:
    """Equal values, with floats compared by their bits (``==`` takes -0.0 for 0.0)."""
    return _exact(json.loads(text)) == _exact(json.loads(expected))


def _exact(value: Any) -> Any:
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    return value


def test_what_orjson_refuses_is_encoded_as_json_dumps_does() -> None:
    beyond_64_bits = {"rank": 2**70, "nested": MappingProxyType({"n": -(2**64)})}
    assert json.loads(_dumps(beyond_64_bits)) == {"rank": 2**70, "nested": {"n": -(2**64)}}
    assert json.loads(_dumps({"by": {1: "non-string key"}})) == {"by": {"1": "non-string key"}}


def test_bulk_documents_write_times_as_iso_8601_with_the_offset() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert json.loads(dumps_bulk([{"at": at, "on": at.replace(microsecond=0)}])) == [
        {"at": "2026-01-02T03:04:05.000006+00:00", "on": "2026-01-02T03:04:05+00:00"}
    ]


def test_remembered_time_text_follows_a_new_value() -> None:
    convert = _remembering_last(_sqlite_utc_text)
    first = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    second = first + timedelta(microseconds=1)
    assert convert(first) == "2026-01-02 03:04:05.000006"
    assert convert(first) == "2026-01-02 03:04:05.000006"
    assert convert(second) == "2026-01-02 03:04:05.000007"
    assert convert(None) is None


def test_mappings_and_times_take_the_fast_encoder() -> None:
    """orjson's compact text (``json.dumps`` would put spaces after ``,`` and ``:``): the
    engine's read-only mappings and a bulk document's times do not fall back."""
    assert _dumps(MappingProxyType({"a": 1.5, "b": (1, None)})) == '{"a":1.5,"b":[1,null]}'
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert dumps_bulk([{"at": at}]) == '[{"at":"2026-01-02T03:04:05+00:00"}]'


def test_what_json_dumps_refuses_is_refused() -> None:
    """Times in a change's state or terms, say, would be refused by the ORM's writes too."""
    with pytest.raises(TypeError):
        _dumps({"at": datetime(2026, 1, 2, tzinfo=UTC)})
