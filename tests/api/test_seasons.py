"""Seasons through HTTP (API.md and SYSTEMS.md "Seasons"): create, change, delete and list;
resets applied at a season's start to every player rated before it (read now, and as the
next game's starting state); past seasons re-rating the results after them; season boards.
The numbers are worked by hand in the comments."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.helpers import by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio

THIRD = 1 / 3
NOW = datetime.now(UTC).replace(microsecond=0)


def _time(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).isoformat().replace("+00:00", "Z")


def _game(ladder: str, game_id: str, winner: str, loser: str, days_ago: float) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": game_id,
        "played_at": _time(days_ago),
        "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
    }


def _elo_win(winner: float, loser: float) -> float:
    """Elo, K 32: what the winner gains."""
    return 32 * (1 - 1 / (1 + 10 ** ((loser - winner) / 400)))


async def _season(
    client: httpx.AsyncClient, ladder: str, season: str, days_ago: float, **body: Any
) -> dict[str, Any]:
    response = await client.post(
        f"/ladders/{ladder}/seasons", json={"id": season, "starts_at": _time(days_ago), **body}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _rating(client: httpx.AsyncClient, ladder: str, player: str, **query: Any) -> Any:
    response = await client.get(f"/ladders/{ladder}/players/{player}", params=query)
    assert response.status_code == 200, response.text
    return response.json()["ratings"][0]


async def _board(client: httpx.AsyncClient, ladder: str, **query: Any) -> list[dict[str, Any]]:
    response = await client.get(f"/ladders/{ladder}/leaderboard", params=query)
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


async def test_a_soft_reset_is_read_after_the_start(client: httpx.AsyncClient) -> None:
    """a beats b 20 days ago: 1516 / 1484. A season 10 days ago regresses a third toward
    1500 (FiveThirtyEight): 1500 + 16 * 2/3 = 1510.667, 1500 - 16 * 2/3 = 1489.333."""
    await make_ladder(client, "soft", "elo")
    await post_game(client, _game("soft", "g1", "a", "b", 20))
    created = await _season(
        client, "soft", "s2", 10, name="Season 2", reset={"kind": "soft", "fraction": THIRD}
    )
    assert created["status"] == "current"
    assert created["ends_at"] is None
    # The ladder's first reset re-rates its history once: its states start carrying the time
    # of their last event, which an uncertainty reset and decay read (docs/ranked.md).
    assert (created["recomputed_events"], created["recomputed_players"]) == (1, 2)
    assert created["reset"] == {"kind": "soft", "fraction": THIRD}
    assert (await _rating(client, "soft", "a"))["rating"] == pytest.approx(1510.6667, abs=1e-4)
    assert (await _rating(client, "soft", "b"))["rating"] == pytest.approx(1489.3333, abs=1e-4)
    # As of before the season: as stored.
    then = await _rating(client, "soft", "a", as_of=_time(11))
    assert then["rating"] == 1516.0
    board = await _board(client, "soft")
    assert [(e["player"], round(e["rating"], 4)) for e in board] == [
        ("a", 1510.6667), ("b", 1489.3333)
    ]  # fmt: skip
    # The next game starts from the reset ratings and says so.
    new = by_player((await post_game(client, _game("soft", "g2", "b", "a", 1)))["changes"])
    gain = _elo_win(1489.3333333333333, 1510.6666666666667)
    assert new["b"]["rating_after"] == pytest.approx(1489.3333333333333 + gain, abs=1e-9)
    assert new["b"]["details"]["season_reset"] == {
        "seasons": ["s2"],
        "rating": 1484.0,
        "deviation": None,
    }


async def test_a_past_season_rerates_what_follows_it(client: httpx.AsyncClient) -> None:
    """g1 20 days ago (1516 / 1484), g2 5 days ago (a wins again). A season 10 days ago with a
    soft third reset: g2 starts from 1510.667 / 1489.333 and is re-rated; deleting the season
    puts g2 back on 1516 / 1484."""
    await make_ladder(client, "past", "elo")
    await post_game(client, _game("past", "g1", "a", "b", 20))
    await post_game(client, _game("past", "g2", "a", "b", 5))
    plain = 1516 + _elo_win(1516, 1484)
    assert (await _rating(client, "past", "a"))["rating"] == pytest.approx(plain, abs=1e-9)
    # The ladder's first reset (before anyone played: it resets nobody) re-rates everything
    # once, its states then carrying their last event's time.
    first = await _season(client, "past", "s1", 30, reset={"kind": "hard"})
    assert (first["recomputed_events"], first["recomputed_players"]) == (2, 2)
    assert (await _rating(client, "past", "a"))["rating"] == pytest.approx(plain, abs=1e-9)
    # From then on, a season re-rates what follows its start: g2.
    created = await _season(client, "past", "s2", 10, reset={"kind": "soft", "fraction": THIRD})
    assert (created["recomputed_events"], created["recomputed_players"]) == (1, 2)
    a_start, b_start = 1500 + 16 * (2 / 3), 1500 - 16 * (2 / 3)
    reset = a_start + _elo_win(a_start, b_start)
    assert (await _rating(client, "past", "a"))["rating"] == pytest.approx(reset, abs=1e-9)
    history = (await client.get("/ladders/past/players/a/history")).json()
    resets = [e["details"].get("season_reset") for e in history["entries"]]
    assert [r for r in resets if r is not None] == [
        {"seasons": ["s2"], "rating": 1516.0, "deviation": None}
    ]
    # A change of its reset re-rates again: hard puts both back at 1500 (+16 for a's win).
    changed = await client.put(
        "/ladders/past/seasons/s2",
        json={"id": "s2", "starts_at": _time(10), "reset": {"kind": "hard"}},
    )
    assert changed.status_code == 200, changed.text
    assert (await _rating(client, "past", "a"))["rating"] == pytest.approx(1516.0, abs=1e-9)
    deleted = await client.delete("/ladders/past/seasons/s2")
    assert deleted.status_code == 200
    assert (deleted.json()["id"], deleted.json()["reset"]) == ("s2", {"kind": "hard"})
    assert deleted.json()["recomputed_events"] == 1
    assert (await _rating(client, "past", "a"))["rating"] == pytest.approx(plain, abs=1e-9)
    assert [s["id"] for s in (await client.get("/ladders/past/seasons")).json()] == ["s1"]


@pytest.mark.parametrize(
    ("idle_days", "sigma"),
    [
        (30, 5.0),  # clamp((30 - 30) / 330) = 0: m
        (60, 5.303030303030303),  # 5 + (25/3 - 5) * 30/330 = 5 + 10/33
        (360, 8.333333333333334),  # clamp(1) = 1: sigma0 = 25/3
    ],
)
async def test_beyond_all_reasons_uncertainty_reset(
    client: httpx.AsyncClient, idle_days: int, sigma: float
) -> None:
    """teiserver#539 on TrueSkill (sigma0 = 25/3), m 5, a 30, b 360: a settled player (mu 31,
    sigma 2, set by an adjustment) whose last event was ``idle_days`` before the season."""
    await make_ladder(client, "bar", "trueskill")
    adjusted = await client.put(
        "/ladders/bar/players/p",
        json={"rating": 31, "deviation": 2, "at": _time(idle_days + 1)},
    )
    assert adjusted.status_code == 200, adjusted.text
    reset = {"kind": "uncertainty", "min": 5, "min_until_days": 30, "full_after_days": 360}
    await _season(client, "bar", "s2", 1, reset=reset)
    read = await _rating(client, "bar", "p")
    assert read["deviation"] == pytest.approx(sigma, abs=1e-9)
    assert read["rating"] == 31.0


async def test_seasons_are_listed_with_their_ends_and_status(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "list", "elo")
    await _season(client, "list", "s1", 30)
    await _season(client, "list", "s3", -30, reset={"kind": "hard"})
    await _season(client, "list", "s2", 10, name="Two")
    listed = (await client.get("/ladders/list/seasons")).json()
    assert [(s["id"], s["status"]) for s in listed] == [
        ("s1", "closed"), ("s2", "current"), ("s3", "upcoming")
    ]  # fmt: skip
    assert listed[0]["ends_at"] == listed[1]["starts_at"].replace("Z", "+00:00") or (
        datetime.fromisoformat(listed[0]["ends_at"])
        == datetime.fromisoformat(listed[1]["starts_at"])
    )
    assert listed[1]["name"] == "Two"
    assert listed[0]["name"] == "s1"
    assert listed[2]["ends_at"] is None
    assert listed[0]["reset"] == {"kind": "none"}
    one = (await client.get("/ladders/list/seasons/s2")).json()
    assert one == listed[1]


async def test_seasons_are_paged_as_every_list_is(client: httpx.AsyncClient) -> None:
    """docs/api.md "Pagination": ``limit`` (default 50, at most 500) and ``offset``; the body
    stays API.md's list, and the number of seasons is the X-Total-Count header. A weekly
    schedule from 59.5 weeks ago has stood 60 times (now included) and names its next: 61,
    of which the default page shows the first 50."""
    await make_ladder(client, "weekly", "elo")
    schedule = {
        "id": "w",
        "starts_at": _time(59.5 * 7),
        "repeat": {"every": 1, "unit": "weeks"},
    }
    created = await client.post("/ladders/weekly/seasons", json=schedule)
    assert created.status_code == 201, created.text
    first = await client.get("/ladders/weekly/seasons")
    assert first.headers["X-Total-Count"] == "61"
    assert len(first.json()) == 50
    rest = await client.get("/ladders/weekly/seasons", params={"limit": 20, "offset": 50})
    assert rest.headers["X-Total-Count"] == "61"
    assert [s["status"] for s in rest.json()] == ["closed"] * 9 + ["current", "upcoming"]
    starts = [s["starts_at"] for s in first.json() + rest.json()]
    assert starts == sorted(starts)
    assert len(set(starts)) == 61
    for query, field in (
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"offset": -1}, "offset"),
    ):
        refused = await client.get("/ladders/weekly/seasons", params=query)
        assert refused.status_code == 422, query
        assert refused.json()["errors"][0]["loc"] == ["query", field]


async def test_a_future_season_takes_effect_at_its_time(client: httpx.AsyncClient) -> None:
    """Nothing is written when it starts: a read after its start sees the reset."""
    await make_ladder(client, "future", "elo")
    await post_game(client, _game("future", "g1", "a", "b", 1))
    starts = datetime.now(UTC) + timedelta(seconds=1.5)
    response = await client.post(
        "/ladders/future/seasons",
        json={"id": "next", "starts_at": starts.isoformat(), "reset": {"kind": "hard"}},
    )
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "upcoming"
    assert (await _rating(client, "future", "a"))["rating"] == 1516.0
    await asyncio.sleep(max(0.0, (starts - datetime.now(UTC)).total_seconds()) + 0.2)
    assert (await _rating(client, "future", "a"))["rating"] == 1500.0
    assert (await client.get("/ladders/future/seasons/next")).json()["status"] == "current"


@pytest.mark.parametrize(
    ("system", "body", "status", "loc"),
    [
        ("elo", {"reset": {"kind": "soft", "fraction": 2}}, 422, ["reset", "fraction"]),
        ("elo", {"reset": {"kind": "soft"}}, 422, ["reset"]),
        ("elo", {"reset": {"kind": "sideways"}}, 422, ["reset", "kind"]),
        (
            "elo",
            {"reset": {"kind": "uncertainty", "min": 5, "min_until_days": 1, "full_after_days": 9}},
            422,
            ["reset", "kind"],
        ),
        ("elo", {"best_of": 3}, 422, ["best_of"]),
        ("elo", {"best_of": 0}, 422, ["best_of"]),
        ("cdiplo", {"reset": {"kind": "hard"}}, 422, ["reset", "kind"]),
        ("glicko", {"reset": {"kind": "soft", "fraction": 0.5}}, 201, None),
    ],
)
async def test_bad_seasons_are_refused_naming_the_field(
    client: httpx.AsyncClient, system: str, body: dict[str, Any], status: int, loc: Any
) -> None:
    await make_ladder(client, "bad", system)
    response = await client.post(
        "/ladders/bad/seasons", json={"id": "s", "starts_at": _time(1), **body}
    )
    assert response.status_code == status, response.text
    if loc is not None:
        assert response.headers["content-type"].startswith("application/problem+json")
        assert [e["loc"] for e in response.json()["errors"]] == [loc]
        assert (await client.get("/ladders/bad/seasons")).json() == []


async def test_conflicts_and_unknown_seasons(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "edges", "elo")
    await _season(client, "edges", "s1", 3)
    again = await client.post("/ladders/edges/seasons", json={"id": "s1", "starts_at": _time(2)})
    assert again.status_code == 409
    same_start = await client.post(
        "/ladders/edges/seasons", json={"id": "s2", "starts_at": _time(3)}
    )
    assert same_start.status_code == 422
    assert same_start.json()["errors"][0]["loc"] == ["starts_at"]
    other_id = await client.put(
        "/ladders/edges/seasons/s1", json={"id": "s9", "starts_at": _time(2)}
    )
    assert other_id.status_code == 422
    assert (await client.get("/ladders/edges/seasons/nope")).status_code == 404
    assert (await client.delete("/ladders/edges/seasons/nope")).status_code == 404
    missing = await client.put(
        "/ladders/edges/seasons/nope", json={"id": "nope", "starts_at": _time(1)}
    )
    assert missing.status_code == 404
    assert (await client.get("/ladders/nope/seasons")).status_code == 404


async def _season_board(
    client: httpx.AsyncClient, ladder: str, season: str, **query: Any
) -> list[dict[str, Any]]:
    response = await client.get(
        f"/ladders/{ladder}/leaderboard", params={"season": season, **query}
    )
    assert response.status_code == 200, response.text
    assert response.json()["season"] == season
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


def _rows(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(e["position"], e["player"], round(e["rating"], 4), e["games"]) for e in entries]


async def test_season_boards_count_their_own_events(client: httpx.AsyncClient) -> None:
    """s1 from 30 days ago: a beats b (1516 / 1484). s2 from 10 days ago (no reset): c beats a
    (c 1500 vs a 1516: c gains 32 (1 - 1 / (1 + 10^(16/400))) = 16.7361), then c beats d.
    s1's board: a and b as s1 ended, one game each. s2's: c, a and d, s2's games only."""
    await make_ladder(client, "boards", "elo")
    await _season(client, "boards", "s1", 30)
    await _season(client, "boards", "s2", 10)
    await post_game(client, _game("boards", "g1", "a", "b", 20))
    await post_game(client, _game("boards", "g2", "c", "a", 5))
    gain = _elo_win(1500, 1516)
    assert gain == pytest.approx(16.7363, abs=1e-4)
    c = 1500 + gain
    d_gain = _elo_win(c, 1500)
    await post_game(client, _game("boards", "g3", "c", "d", 4))
    assert _rows(await _season_board(client, "boards", "s1")) == [
        (1, "a", 1516.0, 1), (2, "b", 1484.0, 1)
    ]  # fmt: skip
    assert _rows(await _season_board(client, "boards", "s2")) == [
        (1, "c", round(c + d_gain, 4), 2),
        (2, "a", round(1516 - gain, 4), 1),
        (3, "d", round(1500 - d_gain, 4), 1),
    ]
    s1 = await _season_board(client, "boards", "s1")
    assert (s1[0]["win_rate"], s1[1]["win_rate"]) == (1.0, 0.0)
    bad = await client.get("/ladders/boards/leaderboard", params={"season": "nope"})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["loc"] == ["query", "season"]
    both = await client.get(
        "/ladders/boards/leaderboard", params={"season": "s1", "as_of": _time(1)}
    )
    assert both.status_code == 422


async def test_a_correction_in_a_closed_season_changes_its_board_only(
    client: httpx.AsyncClient,
) -> None:
    """s0 (40 days ago), s1 (30), s2 (10), each with a soft third reset. x beats y in s0; a
    beats b in s1, then the result is corrected (b won). s1's board turns over; s0's is
    exactly as it was; s2's has nobody (no game in it)."""
    soft = {"kind": "soft", "fraction": THIRD}
    await make_ladder(client, "closed", "elo")
    for season, days in (("s0", 40), ("s1", 30), ("s2", 10)):
        await _season(client, "closed", season, days, reset=soft)
    await post_game(client, _game("closed", "g0", "x", "y", 35))
    await post_game(client, _game("closed", "g1", "a", "b", 20))
    before = await _season_board(client, "closed", "s0")
    assert _rows(before) == [(1, "x", 1516.0, 1), (2, "y", 1484.0, 1)]
    assert _rows(await _season_board(client, "closed", "s1")) == [
        (1, "a", 1516.0, 1), (2, "b", 1484.0, 1)
    ]  # fmt: skip
    corrected = await client.put(
        "/ladders/closed/games/g1", json=_game("closed", "g1", "b", "a", 20)
    )
    assert corrected.status_code == 200, corrected.text
    assert _rows(await _season_board(client, "closed", "s1")) == [
        (1, "b", 1516.0, 1), (2, "a", 1484.0, 1)
    ]  # fmt: skip
    assert await _season_board(client, "closed", "s0") == before
    assert await _season_board(client, "closed", "s2") == []
    # Now, through s2's reset (b's game came after s1's): 1500 + 16 * 2/3 = 1510.667.
    assert (await _rating(client, "closed", "b"))["rating"] == pytest.approx(
        1500 + 16 * (2 / 3), abs=1e-9
    )


async def test_placement_restarts_with_each_season(client: httpx.AsyncClient) -> None:
    """placement_games 1: a and b played in s1, so in s2 (from 10 days ago) they are
    provisional again until they play; c, who played in s2, is not."""
    await make_ladder(client, "placing", "elo", placement_games=1)
    await _season(client, "placing", "s1", 30)
    await _season(client, "placing", "s2", 10)
    await post_game(client, _game("placing", "g1", "a", "b", 20))
    await post_game(client, _game("placing", "g2", "c", "d", 5))
    assert (await _rating(client, "placing", "a"))["provisional"] is True
    assert (await _rating(client, "placing", "c"))["provisional"] is False
    assert [e["player"] for e in await _board(client, "placing")] == ["c", "d"]
    # As of s1, a and b had their placement game.
    assert (await _rating(client, "placing", "a", as_of=_time(15)))["provisional"] is False
    assert [e["player"] for e in await _season_board(client, "placing", "s1")] == ["a", "b"]


def _tournament(ladder: str, tournament_id: str, days_ago: int, order: str) -> dict[str, Any]:
    held = (NOW - timedelta(days=days_ago)).date().isoformat()
    return {
        "ladder": ladder,
        "id": tournament_id,
        "held_on": held,
        "standings": [{"player": p, "rank": i} for i, p in enumerate(order, start=1)],
    }


async def test_a_circuit_ranks_by_each_players_best_three_of_five(
    client: httpx.AsyncClient,
) -> None:
    """C-Diplo, 4 players an event: N/place + 38, 14, 7 for the first three places, so 1st 42,
    2nd 16, 3rd 4/3 + 7 = 8.333, 4th 1. Five events:
    p 1,2,3,4,2: 42 16 8.33 1 16 -> best 3: 74 (all five: 83.33)
    q 2,1,1,2,3: 16 42 42 16 8.33 -> 100 (124.33)
    r 3,3,2,1,1: 8.33 8.33 16 42 42 -> 100 (116.67)
    s 4,4,4,3,4: 1 1 1 8.33 1 -> 10.33 (12.33)
    By best 3, q and r share first place, where the totals put q ahead."""
    await make_ladder(client, "circuit", "cdiplo")
    await _season(client, "circuit", "y1", 60, best_of=3)
    for number, order in enumerate(("pqrs", "qprs", "qrps", "rqsp", "rpqs"), start=1):
        response = await client.post(
            "/tournaments", json=_tournament("circuit", f"t{number}", 50 - number, order)
        )
        assert response.status_code == 201, response.text
    board = await _season_board(client, "circuit", "y1")
    assert [(e["position"], e["player"], round(e["points"], 4)) for e in board] == [
        (1, "q", 100.0), (1, "r", 100.0), (3, "p", 74.0), (4, "s", 10.3333)
    ]  # fmt: skip
    assert [round(e["rating"], 4) for e in board] == [124.3333, 116.6667, 83.3333, 12.3333]


async def test_export_and_import_keep_the_seasons(
    client: httpx.AsyncClient,
    database: Any,
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The copy has the same seasons, so the same reset ratings and season boards."""
    from tests.api.test_import_export import run_cli

    await make_ladder(client, "orig", "elo")
    await _season(client, "orig", "s1", 30, name="One")
    await _season(client, "orig", "s2", 10, reset={"kind": "soft", "fraction": THIRD})
    await post_game(client, _game("orig", "g1", "a", "b", 20))
    await post_game(client, _game("orig", "g2", "c", "a", 5))
    out = tmp_path / "orig.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "orig", "--output", str(out)) == 0
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert (await client.get("/ladders/copy/seasons")).json() == (
        await client.get("/ladders/orig/seasons")
    ).json()
    assert await _board(client, "copy") == await _board(client, "orig")
    for season in ("s1", "s2"):
        assert await _season_board(client, "copy", season) == await _season_board(
            client, "orig", season
        )


async def test_what_if_keeps_the_seasons(client: httpx.AsyncClient) -> None:
    """The same parameters proposed: the replay, resets included, gives the ratings read now
    (a: 1500 + 16 * 2/3 after s2's soft reset, then a win over c)."""
    await make_ladder(client, "wi", "elo")
    await _season(client, "wi", "s2", 10, reset={"kind": "soft", "fraction": THIRD})
    await post_game(client, _game("wi", "g1", "a", "b", 20))
    await post_game(client, _game("wi", "g2", "a", "c", 5))
    response = await client.post("/ladders/wi/whatif", json={"params": {"k": 32}})
    assert response.status_code == 200, response.text
    a_start = 1500 + 16 * (2 / 3)
    entries = {e["player"]: e for e in response.json()["entries"]}
    assert entries["a"]["proposed"]["rating"] == pytest.approx(
        a_start + _elo_win(a_start, 1500), abs=1e-9
    )


async def test_the_feed_announces_a_season_when_its_time_comes(
    client: httpx.AsyncClient, database: Any
) -> None:
    """Creating a season publishes season.changed; the dispatcher's look at a time past a
    future season's start publishes its season.started, once (a past season's creation was
    its announcement)."""
    from app.services.seasons import announce_started

    await make_ladder(client, "herald", "elo")
    await post_game(client, _game("herald", "g1", "a", "b", 1))
    await _season(client, "herald", "past", 3)
    await _season(client, "herald", "next", -2, reset={"kind": "hard"})
    assert announce_started(database, NOW) == 0
    assert announce_started(database, NOW + timedelta(days=3)) == 1
    assert announce_started(database, NOW + timedelta(days=4)) == 0
    items = (await client.get("/ladders/herald/feed")).json()["items"]
    assert [(i["type"], i["event"]) for i in items] == [
        ("game.rated", {"kind": "game", "id": "g1"}),
        ("season.changed", {"kind": "season", "id": "past"}),
        ("season.changed", {"kind": "season", "id": "next"}),
        ("season.started", {"kind": "season", "id": "next"}),
    ]
    assert items[-1]["ratings"] == []
    # The mark is the service's own: not shown, not in a season's body.
    assert "announced" not in (await client.get("/ladders/herald/seasons/next")).json()


# -- recurring schedules (docs/ranked.md "Recurring seasons") --------------------------------


def _day(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).date().isoformat()


async def _schedule(
    client: httpx.AsyncClient, ladder: str, every: int, reset: dict[str, Any], **body: Any
) -> dict[str, Any]:
    response = await client.post(
        f"/ladders/{ladder}/seasons",
        json={
            "id": "ten",
            "starts_at": _time(25),
            "repeat": {"every": every, "unit": "days"},
            "reset": reset,
            **body,
        },
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def test_a_schedule_lists_its_seasons_and_resets_at_each(client: httpx.AsyncClient) -> None:
    """Every 10 days from 25 days ago, a soft reset of one half: starts 25, 15 and 5 days ago,
    the next 5 days ahead. g1 30 days ago: a 1516, b 1484. Halved three times toward 1500:
    1508, 1504, 1502 (b: 1492, 1496, 1498)."""
    await make_ladder(client, "sched", "elo")
    await post_game(client, _game("sched", "g1", "a", "b", 30))
    created = await _schedule(client, "sched", 10, {"kind": "soft", "fraction": 0.5})
    assert created["repeat"] == {"every": 10, "unit": "days"}
    assert (created["ends_at"], created["schedule"]) == (None, None)
    assert created["recomputed_events"] == 1  # the first reset: states start carrying times
    listed = (await client.get("/ladders/sched/seasons")).json()
    assert [(s["id"], s["status"], s["schedule"]) for s in listed] == [
        (f"ten-{_day(25)}", "closed", "ten"),
        (f"ten-{_day(15)}", "closed", "ten"),
        (f"ten-{_day(5)}", "current", "ten"),
        (f"ten-{_day(-5)}", "upcoming", "ten"),
    ]
    assert [datetime.fromisoformat(s["starts_at"]) for s in listed] == [
        NOW - timedelta(days=d) for d in (25, 15, 5, -5)
    ]
    assert listed[0]["ends_at"] == listed[1]["starts_at"]
    assert listed[0]["name"] == f"ten {_day(25)}"
    assert listed[0]["reset"] == {"kind": "soft", "fraction": 0.5}
    assert (await client.get(f"/ladders/sched/seasons/{listed[2]['id']}")).json() == listed[2]
    shown = (await client.get("/ladders/sched/seasons/ten")).json()
    assert (shown["repeat"], shown["status"]) == ({"every": 10, "unit": "days"}, "current")
    assert (await _rating(client, "sched", "a"))["rating"] == pytest.approx(1502.0, abs=1e-9)
    assert (await _rating(client, "sched", "b"))["rating"] == pytest.approx(1498.0, abs=1e-9)
    # As of 20 days ago: through the first start only.
    as_of = await _rating(client, "sched", "a", as_of=_time(20))
    assert as_of["rating"] == pytest.approx(1508.0, abs=1e-9)
    # As of 30 days ahead: through the starts 5, 15 and 25 days ahead too, 1500 + 16/2^6.
    ahead = await _rating(client, "sched", "a", as_of=_time(-30))
    assert ahead["rating"] == pytest.approx(1500.25, abs=1e-9)
    board = await _board(client, "sched", as_of=_time(-30))
    assert [round(e["rating"], 9) for e in board] == [1500.25, 1499.75]


async def test_changing_a_schedule_rerates_what_it_changes(client: httpx.AsyncClient) -> None:
    """g1 30 days ago (a 1516, b 1484), g2 20 days ago (a beats b again). Every 10 days from 25
    days ago, hard: g2 starts from 1500/1500 (a 1516), and two more hard resets read 1500.
    Changed to a soft half every 20 days (starts 25 and 5 days ago): g2 starts from
    1508/1492, then one halving. Deleted: the plain ratings again."""
    await make_ladder(client, "change", "elo")
    await post_game(client, _game("change", "g1", "a", "b", 30))
    await post_game(client, _game("change", "g2", "a", "b", 20))
    plain = 1516 + _elo_win(1516, 1484)
    await _schedule(client, "change", 10, {"kind": "hard"})
    assert (await _rating(client, "change", "a"))["rating"] == 1500.0
    history = (await client.get("/ladders/change/players/a/history")).json()["entries"]
    assert [e["rating_after"] for e in history] == [1516.0, 1516.0]
    changed = await client.put(
        "/ladders/change/seasons/ten",
        json={
            "id": "ten",
            "starts_at": _time(25),
            "repeat": {"every": 20, "unit": "days"},
            "reset": {"kind": "soft", "fraction": 0.5},
        },
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["recomputed_events"] == 1  # g2: the start 25 days ago changed
    after_g2 = 1508 + _elo_win(1508, 1492)
    assert (await _rating(client, "change", "a"))["rating"] == pytest.approx(
        1500 + (after_g2 - 1500) / 2, abs=1e-9
    )
    listed = (await client.get("/ladders/change/seasons")).json()
    assert [s["id"] for s in listed] == [f"ten-{_day(25)}", f"ten-{_day(5)}", f"ten-{_day(-15)}"]
    deleted = await client.delete("/ladders/change/seasons/ten")
    assert deleted.status_code == 200
    assert deleted.json()["repeat"] == {"every": 20, "unit": "days"}
    assert (await _rating(client, "change", "a"))["rating"] == pytest.approx(plain, abs=1e-9)
    assert (await client.get("/ladders/change/seasons")).json() == []


async def test_an_explicit_season_takes_an_occurrences_place(client: httpx.AsyncClient) -> None:
    """Hard every 10 days from 25 days ago, but the start 15 days ago is an explicit season
    without a reset: g1 30 days ago (a 1516), the hard reset 25 days ago (1500), g2 20 days ago
    a wins (1516), no reset 15 days ago, a hard one 5 days ago (1500)."""
    await make_ladder(client, "override", "elo")
    await post_game(client, _game("override", "g1", "a", "b", 30))
    await post_game(client, _game("override", "g2", "a", "b", 20))
    await _schedule(client, "override", 10, {"kind": "hard"})
    await _season(client, "override", "break", 15, name="Break")
    listed = (await client.get("/ladders/override/seasons")).json()
    assert [(s["id"], s["reset"]["kind"]) for s in listed] == [
        (f"ten-{_day(25)}", "hard"), ("break", "none"), (f"ten-{_day(5)}", "hard"),
        (f"ten-{_day(-5)}", "hard"),
    ]  # fmt: skip
    # The season board of the explicit season: g2 is before it, nothing in it.
    assert await _season_board(client, "override", "break") == []
    board = await _season_board(client, "override", f"ten-{_day(25)}")
    assert [(e["player"], e["games"]) for e in board] == [("a", 1), ("b", 1)]
    assert (await _rating(client, "override", "a", as_of=_time(10)))["rating"] == 1516.0
    assert (await _rating(client, "override", "a"))["rating"] == 1500.0


async def test_schedule_refusals(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "refuse", "elo")
    for repeat, loc in [
        ({"every": 1, "unit": "years"}, ["repeat", "unit"]),
        ({"every": 0, "unit": "days"}, ["repeat", "every"]),
        ({"every": 1}, ["repeat"]),
    ]:
        response = await client.post(
            "/ladders/refuse/seasons", json={"id": "x", "starts_at": _time(1), "repeat": repeat}
        )
        assert response.status_code == 422, response.text
        assert [e["loc"] for e in response.json()["errors"]] == [loc]
    await _schedule(client, "refuse", 10, {"kind": "hard"})
    second = await client.post(
        "/ladders/refuse/seasons",
        json={"id": "y", "starts_at": _time(1), "repeat": {"every": 1, "unit": "weeks"}},
    )
    assert (second.status_code, second.json()["errors"][0]["loc"]) == (422, ["repeat"])
    clash = await client.post(
        "/ladders/refuse/seasons", json={"id": "ten-extra", "starts_at": _time(1)}
    )
    assert (clash.status_code, clash.json()["errors"][0]["loc"]) == (422, ["id"])
    occurrence = f"ten-{_day(15)}"
    assert (await client.delete(f"/ladders/refuse/seasons/{occurrence}")).status_code == 409
    put = await client.put(
        f"/ladders/refuse/seasons/{occurrence}", json={"id": occurrence, "starts_at": _time(15)}
    )
    assert put.status_code == 409


async def test_export_and_import_keep_a_schedule(
    client: httpx.AsyncClient,
    database: Any,
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.api.test_import_export import run_cli

    await make_ladder(client, "sorig", "elo")
    await _schedule(client, "sorig", 10, {"kind": "soft", "fraction": 0.5})
    await post_game(client, _game("sorig", "g1", "a", "b", 30))
    await post_game(client, _game("sorig", "g2", "c", "a", 12))
    out = tmp_path / "sorig.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "sorig", "--output", str(out)) == 0
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "scopy") == 0
    assert (await client.get("/ladders/scopy/seasons")).json() == (
        await client.get("/ladders/sorig/seasons")
    ).json()
    assert (await client.get("/ladders/scopy/seasons/ten")).json() == (
        await client.get("/ladders/sorig/seasons/ten")
    ).json()
    assert await _board(client, "scopy") == await _board(client, "sorig")


async def test_the_feed_announces_each_scheduled_start(
    client: httpx.AsyncClient, database: Any
) -> None:
    """Daily from 2 days ahead: by 3 days ahead two seasons have started (days 2 and 3), by 4
    days ahead one more."""
    from app.services.seasons import announce_started

    await make_ladder(client, "daily", "elo")
    response = await client.post(
        "/ladders/daily/seasons",
        json={"id": "d", "starts_at": _time(-2), "repeat": {"every": 1, "unit": "days"}},
    )
    assert response.status_code == 201, response.text
    assert announce_started(database, NOW) == 0
    assert announce_started(database, NOW + timedelta(days=3)) == 2
    assert announce_started(database, NOW + timedelta(days=4)) == 1
    assert announce_started(database, NOW + timedelta(days=4)) == 0
    items = (await client.get("/ladders/daily/feed")).json()["items"]
    assert [(i["type"], i["event"]["id"]) for i in items] == [
        ("season.changed", "d"),
        ("season.started", f"d-{_day(-2)}"),
        ("season.started", f"d-{_day(-3)}"),
        ("season.started", f"d-{_day(-4)}"),
    ]
    assert "announced_until" not in (await client.get("/ladders/daily/seasons/d")).json()


async def test_evaluation_replays_the_resets(client: httpx.AsyncClient) -> None:
    """a beats b 20 and 5 days ago (Elo 1500, K 32). Without seasons the second game is
    predicted from 1516 / 1484: p = 1 / (1 + 10^(-32/400)), log loss (ln 2 - ln p)/2. With a
    hard reset 10 days ago, from 1500 / 1500: p = 1/2 twice, log loss ln 2, Brier 1/4; a
    tuning's points replay it too."""
    import math

    p = 1 / (1 + 10 ** (-32 / 400))
    for ladder in ("evplain", "evhard"):
        await make_ladder(client, ladder, "elo")
        await post_game(client, _game(ladder, "g1", "a", "b", 20))
        await post_game(client, _game(ladder, "g2", "a", "b", 5))
    await _season(client, "evhard", "s2", 10, reset={"kind": "hard"})
    plain = (await client.post("/ladders/evplain/evaluate", json={})).json()["results"][0]
    hard = (await client.post("/ladders/evhard/evaluate", json={})).json()["results"][0]
    assert plain["log_loss"] == pytest.approx((math.log(2) - math.log(p)) / 2, abs=1e-12)
    assert (plain["accuracy"], hard["accuracy"]) == (0.75, 0.5)
    assert hard["log_loss"] == pytest.approx(math.log(2), abs=1e-12)
    assert hard["brier"] == 0.25
    tuned = await client.post("/ladders/evhard/tune", json={"grid": {"k": [16, 32]}})
    assert tuned.status_code == 200, tuned.text
    assert [r["log_loss"] for r in tuned.json()["results"]] == pytest.approx(
        [math.log(2), math.log(2)], abs=1e-12
    )
