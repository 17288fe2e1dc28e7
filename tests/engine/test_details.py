"""Lazy details (app.engine.types.Details): rendered on the first read, once, and read like the
dict they render; a replay that never reads them never renders them."""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime
from typing import Any

import pytest

from app.engine import elo, glicko2
from app.engine.ledger import replay
from app.engine.types import Details, Game, Json, Participant


class Renders:
    """A render function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, a: int, b: str) -> dict[str, Json]:
        self.calls += 1
        return {"a": a, "b": b, "nested": [a, b]}


def test_renders_once_on_first_read_and_reads_as_its_dict() -> None:
    render = Renders()
    details = Details(render, 1, "x")
    assert render.calls == 0
    assert dict(details) == {"a": 1, "b": "x", "nested": [1, "x"]}
    assert details["a"] == 1
    assert details.get("missing") is None
    assert "b" in details
    assert "missing" not in details
    assert len(details) == 3
    assert list(details) == ["a", "b", "nested"]
    assert list(details.items()) == [("a", 1), ("b", "x"), ("nested", [1, "x"])]
    assert list(details.values()) == [1, "x", [1, "x"]]
    assert details == {"a": 1, "b": "x", "nested": [1, "x"]}
    assert render.calls == 1


def test_is_read_only() -> None:
    details = Details(Renders(), 1, "x")
    with pytest.raises(TypeError):
        details["a"] = 2  # type: ignore[index]


class CountingDetails(Details):
    """Details that count how many of their kind rendered (for the replay test)."""

    rendered = 0

    def _dict(self) -> dict[str, Json]:
        if self._rendered is None:
            CountingDetails.rendered += 1
        return super()._dict()


@pytest.mark.parametrize(
    ("system", "where", "params", "per_change"),
    [
        (elo.SYSTEM, "app.engine.elo.Details", {}, 1),
        # Glicko-2 in "game" mode: the change's details and, inside them, the period's terms.
        (glicko2.SYSTEM, "app.engine.glicko2.Details", {}, 2),
        (glicko2.SYSTEM, "app.engine.glicko_family.Details", {"period": "day"}, 1),
    ],
    ids=["elo", "glicko2", "glicko2-day"],
)
def test_a_replay_that_reads_no_details_renders_none(
    system: Any,
    where: str,
    params: dict[str, Json],
    per_change: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(where, CountingDetails)
    CountingDetails.rendered = 0
    at = datetime(2026, 1, 1, tzinfo=UTC)
    games = [Game(at, (Participant("a", 1), Participant("b", 2), Participant("c", 2)))] * 3
    steps = list(replay(system.info, system.configure(params), games))
    assert CountingDetails.rendered == 0
    # Reading them renders each change's once: 3 games of 3 players.
    deque((dict(c.details) for s in steps for c in s.outcome.changes), maxlen=0)
    deque((dict(c.details) for s in steps for c in s.outcome.changes), maxlen=0)
    assert CountingDetails.rendered == 9 * per_change
