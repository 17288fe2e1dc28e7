"""The body hash behind idempotency is SHA-256 of ``json.dumps(body, sort_keys=True,
separators=(",", ":"), allow_nan=False)`` (docs/architecture.md, "Idempotency"): every hash
stored so far was taken of that text, so the service's encoder must write exactly it, for
every body a request can store. It is built from json's public API only."""

from __future__ import annotations

import csv
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.schemas.events import GameIn, TournamentIn
from app.services.runtime import body_hash, canonical_json
from tests.helpers import JSON_LEAVES

ATP = Path(__file__).resolve().parents[3] / "shared" / "data" / "atp" / "atp_matches_2019.csv"


def reference_hash(body: Any) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _stored(model: type[GameIn] | type[TournamentIn], raw: dict[str, Any]) -> dict[str, Any]:
    """A body as the service stores it: the validated request, dumped as JSON values."""
    return model.model_validate(raw).model_dump(mode="json", by_alias=True)


def _atp_games() -> list[dict[str, Any]]:
    with ATP.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    games = []
    for row in rows:
        day = datetime.strptime(row["tourney_date"], "%Y%m%d").replace(tzinfo=UTC)
        games.append(
            _stored(
                GameIn,
                {
                    "ladder": "atp",
                    "id": f"{row['tourney_id']}-{row['match_num']}",
                    "played_at": (day + timedelta(minutes=int(row["match_num"]))).isoformat(),
                    "players": [
                        {"player": f"p{row['winner_id']}", "rank": 1},
                        {"player": f"p{row['loser_id']}", "rank": 2},
                    ],
                },
            )
        )
    return games


def test_real_game_bodies_hash_as_json_dumps() -> None:
    games = _atp_games()
    assert len(games) > 2_000
    for body in games:
        assert body_hash(body) == reference_hash(body)


#: Bodies with every optional part, non-ASCII text and floats json writes in exponent form.
STORED = [
    _stored(
        GameIn,
        {
            "ladder": "dip",
            "id": "g-1",
            "played_at": "2026-01-02T03:04:05.123456+02:00",
            "rated": False,
            "tournament": "manorcon-1986",
            "end_year": 1909,
            "event": {"id": "ukbbc", "coaches": 48, "major": True},
            "players": [
                {"player": "a", "rank": 1, "faction": "Österreich", "centres": 18},
                {"player": "b", "rank": 2, "faction": "Italy", "centres": 0, "eliminated_in": 1905},
            ],
        },
    ),
    _stored(
        GameIn,
        {
            "ladder": "halo",
            "id": "m-1",
            "played_at": "2026-11-29T10:00:00Z",
            "teams": [
                {
                    "team": "red",
                    "rank": 1,
                    "players": [{"player": "a"}, {"player": "b", "weight": 1e-7}],
                },
                {"team": "blue", "rank": 2, "players": [{"player": "c", "weight": 0.1}]},
            ],
        },
    ),
    _stored(
        TournamentIn,
        {
            "ladder": "wdd",
            "id": "wbc-2012",
            "name": "World Boardgaming Championships — 2012",
            "held_on": "2012-08-04",
            "rounds": 3,
            "standings": [{"player": "x", "rank": 1}, {"player": "y", "rank": 2}],
        },
    ),
]


@pytest.mark.parametrize("body", STORED)
def test_stored_bodies_hash_as_json_dumps(body: dict[str, Any]) -> None:
    assert canonical_json(body) == json.dumps(
        body, sort_keys=True, separators=(",", ":"), allow_nan=False
    )
    assert body_hash(body) == reference_hash(body)


JSON_VALUES = st.recursive(
    JSON_LEAVES | st.floats(min_value=-1e300, max_value=1e300) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), JSON_VALUES, max_size=6))
def test_any_json_document_hashes_as_json_dumps(body: dict[str, Any]) -> None:
    assert body_hash(body) == reference_hash(body)


def test_nan_is_refused_as_json_dumps_refuses_it() -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        canonical_json({"x": float("nan")})
