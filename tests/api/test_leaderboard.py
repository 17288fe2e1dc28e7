from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

DAY_MINUTES = 24 * 60


async def _seed(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    # "old" played 40 days ago only; the rest recently.
    old = datetime.now(UTC) - timedelta(days=40)
    await post_game(
        client,
        {
            "ladder": "club",
            "id": "old-game",
            "played_at": old.isoformat().replace("+00:00", "Z"),
            "players": [{"player": "old", "rank": 1}, {"player": "zed", "rank": 2}],
        },
    )
    await post_game(client, game("club", "g1", {"amy": 1, "bea": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"cal": 1, "cid": 2}, minutes=2))
    await post_game(client, game("club", "g3", {"zed": 1, "dan": 2}, minutes=3))


async def test_fundox_default_shows_only_active_in_30_days(client: httpx.AsyncClient) -> None:
    await _seed(client)
    board = (await client.get("/ladders/club/leaderboard")).json()
    names = [e["player"] for e in board["entries"]]
    assert "old" not in names
    assert board["total"] == 6
    everyone = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    assert everyone["total"] == 7
    assert "old" in [e["player"] for e in everyone["entries"]]


async def test_positions_by_rating_whatever_the_sort(client: httpx.AsyncClient) -> None:
    await _seed(client)
    by_rating = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    ratings = [e["rating"] for e in by_rating["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    position = {e["player"]: e["position"] for e in by_rating["entries"]}
    by_name = (await client.get("/ladders/club/leaderboard?active_within_days=0&sort=name")).json()
    assert [e["player"] for e in by_name["entries"]] == sorted(position)
    assert {e["player"]: e["position"] for e in by_name["entries"]} == position
    # bea and cid each lost once to a 1600 player -> 1592 both, one shared position.
    assert position["bea"] == position["cid"]
    assert position["amy"] == position["cal"] == 1
    desc_name = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&sort=name&order=desc")
    ).json()
    assert [e["player"] for e in desc_name["entries"]] == sorted(position, reverse=True)


async def test_games_sort_min_games_and_paging(client: httpx.AsyncClient) -> None:
    await _seed(client)
    board = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&sort=games&min_games=2")
    ).json()
    assert {e["player"] for e in board["entries"]} == {"zed"}
    assert all(e["games"] == 2 for e in board["entries"])
    page = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&limit=2&offset=2")
    ).json()
    assert page["total"] == 7
    assert len(page["entries"]) == 2
    bad = await client.get("/ladders/club/leaderboard?limit=501")
    assert bad.status_code == 422
    bad_sort = await client.get("/ladders/club/leaderboard?sort=elo")
    assert bad_sort.status_code == 422


def _rfc3339(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def test_the_applied_activity_filter_is_echoed(client: httpx.AsyncClient) -> None:
    # A Fundox ladder whose only game is 40 days old: the 30-day default (SYSTEMS.md, Fundox)
    # empties the board, and the answer says which filter did it.
    await make_ladder(client, "quiet", "fundox")
    played = (datetime.now(UTC) - timedelta(days=40)).replace(microsecond=0)
    body = {"ladder": "quiet", "id": "g1", "played_at": _rfc3339(played)}
    await post_game(
        client, body | {"players": [{"player": "amy", "rank": 1}, {"player": "bo", "rank": 2}]}
    )
    assert (await client.get("/ladders/quiet")).json()["players"] == 2

    before = datetime.now(UTC)
    board = (await client.get("/ladders/quiet/leaderboard")).json()
    after = datetime.now(UTC)
    assert (board["total"], board["entries"]) == (0, [])
    assert board["active_within_days"] == 30
    since = datetime.fromisoformat(board["active_since"])
    assert before - timedelta(days=30) <= since <= after - timedelta(days=30)

    # An explicit filter is echoed as given; 0 (everyone) has no cutoff.
    wide = (await client.get("/ladders/quiet/leaderboard?active_within_days=45")).json()
    assert (wide["total"], wide["active_within_days"]) == (2, 45)
    everyone = (await client.get("/ladders/quiet/leaderboard?active_within_days=0")).json()
    assert (everyone["total"], everyone["active_within_days"], everyone["active_since"]) == (
        2,
        0,
        None,
    )

    # With as_of the cutoff is 30 days before that time, exactly.
    as_of = played + timedelta(days=1)
    then = (
        await client.get("/ladders/quiet/leaderboard", params={"as_of": _rfc3339(as_of)})
    ).json()
    assert (then["total"], then["active_within_days"]) == (2, 30)
    assert then["active_since"] == _rfc3339(as_of - timedelta(days=30))


async def test_a_system_without_default_echoes_no_filter(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "plain", "elo")
    await post_game(client, game("plain", "g1", {"amy": 1, "bo": 2}))
    board = (await client.get("/ladders/plain/leaderboard")).json()
    assert (board["total"], board["active_within_days"], board["active_since"]) == (2, 0, None)
    assert [e["tiebreak"] for e in board["entries"]] == [None, None]


def _f(n: int) -> float:
    """Kinzett's f(n) = 0.5·(n² + n) + 4 (seed 002)."""
    return 0.5 * (n * n + n) + 4


async def test_kinzett_entries_carry_secondary_points(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "manorcon", "kinzett")
    # A 17-16-1 three-way draw (each survivor 1 primary point); the others eliminated.
    rows = [("fra", "F", 17, None), ("ger", "G", 16, None), ("ita", "I", 1, None)]
    rows += [("aus", "A", 0, 1905), ("eng", "E", 0, 1906), ("rus", "R", 0, 1907)]
    rows += [("tur", "T", 0, 1908)]
    players = [
        {"player": p, "faction": f, "centres": c, "rank": 1 if c else 2}
        | ({"eliminated_in": e} if e else {})
        for p, f, c, e in rows
    ]
    body = {"ladder": "manorcon", "id": "r1", "played_at": at(0), "end_year": 1909}
    await post_game(client, body | {"players": players})
    board = (await client.get("/ladders/manorcon/leaderboard")).json()["entries"]
    # Survivors share 100 in the ratio f(n)/divisor, the divisor adding f(0) = 4 per eliminated
    # power; an eliminated power gets 0.1 per complete year survived (seed 002).
    divisor = _f(17) + _f(16) + _f(1) + 4 * _f(0)
    expected = [
        ("fra", 1, 1.0, 100 * _f(17) / divisor),
        ("ger", 2, 1.0, 100 * _f(16) / divisor),
        ("ita", 3, 1.0, 100 * _f(1) / divisor),
        ("tur", 4, 0.0, 0.7),
        ("rus", 5, 0.0, 0.6),
        ("eng", 6, 0.0, 0.5),
        ("aus", 7, 0.0, 0.4),
    ]
    shown = [(e["player"], e["position"], e["rating"], e["tiebreak"]) for e in board]
    assert [s[:3] for s in shown] == [e[:3] for e in expected]
    assert [s[3] for s in shown] == pytest.approx([e[3] for e in expected])
