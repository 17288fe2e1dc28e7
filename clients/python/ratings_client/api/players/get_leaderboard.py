from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_leaderboard_order_type_0 import GetLeaderboardOrderType0
from ...models.get_leaderboard_sort import GetLeaderboardSort
from ...models.leaderboard_out import LeaderboardOut
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    ladder: str,
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    sort: GetLeaderboardSort | Unset = GetLeaderboardSort.RATING,
    order: GetLeaderboardOrderType0 | None | Unset = UNSET,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    min_games: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,
    country: None | str | Unset = UNSET,
    around: None | str | Unset = UNSET,
    include_provisional: bool | Unset = False,
    division: None | str | Unset = UNSET,
    season: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_order: None | str | Unset
    if isinstance(order, Unset):
        json_order = UNSET
    elif isinstance(order, GetLeaderboardOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_active_within_days: int | None | Unset
    if isinstance(active_within_days, Unset):
        json_active_within_days = UNSET
    else:
        json_active_within_days = active_within_days
    params["active_within_days"] = json_active_within_days

    json_faction: None | str | Unset
    if isinstance(faction, Unset):
        json_faction = UNSET
    else:
        json_faction = faction
    params["faction"] = json_faction

    params["min_games"] = min_games

    json_as_of: None | str | Unset
    if isinstance(as_of, Unset):
        json_as_of = UNSET
    elif isinstance(as_of, datetime.datetime):
        json_as_of = as_of.isoformat()
    else:
        json_as_of = as_of
    params["as_of"] = json_as_of

    json_country: None | str | Unset
    if isinstance(country, Unset):
        json_country = UNSET
    else:
        json_country = country
    params["country"] = json_country

    json_around: None | str | Unset
    if isinstance(around, Unset):
        json_around = UNSET
    else:
        json_around = around
    params["around"] = json_around

    params["include_provisional"] = include_provisional

    json_division: None | str | Unset
    if isinstance(division, Unset):
        json_division = UNSET
    else:
        json_division = division
    params["division"] = json_division

    json_season: None | str | Unset
    if isinstance(season, Unset):
        json_season = UNSET
    else:
        json_season = season
    params["season"] = json_season


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/leaderboard".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LeaderboardOut | Problem | None:
    if response.status_code == 200:
        response_200 = LeaderboardOut.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LeaderboardOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    sort: GetLeaderboardSort | Unset = GetLeaderboardSort.RATING,
    order: GetLeaderboardOrderType0 | None | Unset = UNSET,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    min_games: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,
    country: None | str | Unset = UNSET,
    around: None | str | Unset = UNSET,
    include_provisional: bool | Unset = False,
    division: None | str | Unset = UNSET,
    season: None | str | Unset = UNSET,

) -> Response[LeaderboardOut | Problem]:
    """ Get Leaderboard

     Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why.

    ``country=FR`` is the national ranking (positions within the country, by the players'
    present profiles, with ``as_of`` too: the ranking by year); ``around=PLAYER`` the window
    of ``limit`` entries centred on that player. Entries carry the players' ``name`` and
    ``country`` where their profiles have them.

    With ``as_of`` or ``season``, a heavy read (docs/operations.md "Request classes and
    costs"): it reads the ladder's history up to then, in one of the process's fair slots,
    charged by its time.

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        sort (GetLeaderboardSort | Unset):  Default: GetLeaderboardSort.RATING.
        order (GetLeaderboardOrderType0 | None | Unset):
        active_within_days (int | None | Unset):
        faction (None | str | Unset):
        min_games (int | Unset):  Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.
        country (None | str | Unset): ISO 3166-1 alpha-2 code: the national ranking, only the
            players whose profile names that country, positions 1, 2, ... among them.
        around (None | str | Unset): A player id: the `limit` entries centred on that player's
            (first) entry instead of a page (404 when the filtered board has none); not with `offset`.
        include_provisional (bool | Unset): Also list provisional players (ranked play's
            placement). Default: False.
        division (None | str | Unset): Only the players of this division (ranked play).
        season (None | str | Unset): A season's board: as of its end (now while it is current),
            only the players with a rated event in it, its statistics and placement; a circuit
            (`best_of`) ranks by `points`. Not with `as_of`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LeaderboardOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
limit=limit,
offset=offset,
sort=sort,
order=order,
active_within_days=active_within_days,
faction=faction,
min_games=min_games,
as_of=as_of,
country=country,
around=around,
include_provisional=include_provisional,
division=division,
season=season,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    sort: GetLeaderboardSort | Unset = GetLeaderboardSort.RATING,
    order: GetLeaderboardOrderType0 | None | Unset = UNSET,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    min_games: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,
    country: None | str | Unset = UNSET,
    around: None | str | Unset = UNSET,
    include_provisional: bool | Unset = False,
    division: None | str | Unset = UNSET,
    season: None | str | Unset = UNSET,

) -> LeaderboardOut | Problem | None:
    """ Get Leaderboard

     Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why.

    ``country=FR`` is the national ranking (positions within the country, by the players'
    present profiles, with ``as_of`` too: the ranking by year); ``around=PLAYER`` the window
    of ``limit`` entries centred on that player. Entries carry the players' ``name`` and
    ``country`` where their profiles have them.

    With ``as_of`` or ``season``, a heavy read (docs/operations.md "Request classes and
    costs"): it reads the ladder's history up to then, in one of the process's fair slots,
    charged by its time.

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        sort (GetLeaderboardSort | Unset):  Default: GetLeaderboardSort.RATING.
        order (GetLeaderboardOrderType0 | None | Unset):
        active_within_days (int | None | Unset):
        faction (None | str | Unset):
        min_games (int | Unset):  Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.
        country (None | str | Unset): ISO 3166-1 alpha-2 code: the national ranking, only the
            players whose profile names that country, positions 1, 2, ... among them.
        around (None | str | Unset): A player id: the `limit` entries centred on that player's
            (first) entry instead of a page (404 when the filtered board has none); not with `offset`.
        include_provisional (bool | Unset): Also list provisional players (ranked play's
            placement). Default: False.
        division (None | str | Unset): Only the players of this division (ranked play).
        season (None | str | Unset): A season's board: as of its end (now while it is current),
            only the players with a rated event in it, its statistics and placement; a circuit
            (`best_of`) ranks by `points`. Not with `as_of`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LeaderboardOut | Problem
     """


    return sync_detailed(
        ladder=ladder,
client=client,
limit=limit,
offset=offset,
sort=sort,
order=order,
active_within_days=active_within_days,
faction=faction,
min_games=min_games,
as_of=as_of,
country=country,
around=around,
include_provisional=include_provisional,
division=division,
season=season,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    sort: GetLeaderboardSort | Unset = GetLeaderboardSort.RATING,
    order: GetLeaderboardOrderType0 | None | Unset = UNSET,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    min_games: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,
    country: None | str | Unset = UNSET,
    around: None | str | Unset = UNSET,
    include_provisional: bool | Unset = False,
    division: None | str | Unset = UNSET,
    season: None | str | Unset = UNSET,

) -> Response[LeaderboardOut | Problem]:
    """ Get Leaderboard

     Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why.

    ``country=FR`` is the national ranking (positions within the country, by the players'
    present profiles, with ``as_of`` too: the ranking by year); ``around=PLAYER`` the window
    of ``limit`` entries centred on that player. Entries carry the players' ``name`` and
    ``country`` where their profiles have them.

    With ``as_of`` or ``season``, a heavy read (docs/operations.md "Request classes and
    costs"): it reads the ladder's history up to then, in one of the process's fair slots,
    charged by its time.

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        sort (GetLeaderboardSort | Unset):  Default: GetLeaderboardSort.RATING.
        order (GetLeaderboardOrderType0 | None | Unset):
        active_within_days (int | None | Unset):
        faction (None | str | Unset):
        min_games (int | Unset):  Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.
        country (None | str | Unset): ISO 3166-1 alpha-2 code: the national ranking, only the
            players whose profile names that country, positions 1, 2, ... among them.
        around (None | str | Unset): A player id: the `limit` entries centred on that player's
            (first) entry instead of a page (404 when the filtered board has none); not with `offset`.
        include_provisional (bool | Unset): Also list provisional players (ranked play's
            placement). Default: False.
        division (None | str | Unset): Only the players of this division (ranked play).
        season (None | str | Unset): A season's board: as of its end (now while it is current),
            only the players with a rated event in it, its statistics and placement; a circuit
            (`best_of`) ranks by `points`. Not with `as_of`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LeaderboardOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
limit=limit,
offset=offset,
sort=sort,
order=order,
active_within_days=active_within_days,
faction=faction,
min_games=min_games,
as_of=as_of,
country=country,
around=around,
include_provisional=include_provisional,
division=division,
season=season,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    sort: GetLeaderboardSort | Unset = GetLeaderboardSort.RATING,
    order: GetLeaderboardOrderType0 | None | Unset = UNSET,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    min_games: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,
    country: None | str | Unset = UNSET,
    around: None | str | Unset = UNSET,
    include_provisional: bool | Unset = False,
    division: None | str | Unset = UNSET,
    season: None | str | Unset = UNSET,

) -> LeaderboardOut | Problem | None:
    """ Get Leaderboard

     Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why.

    ``country=FR`` is the national ranking (positions within the country, by the players'
    present profiles, with ``as_of`` too: the ranking by year); ``around=PLAYER`` the window
    of ``limit`` entries centred on that player. Entries carry the players' ``name`` and
    ``country`` where their profiles have them.

    With ``as_of`` or ``season``, a heavy read (docs/operations.md "Request classes and
    costs"): it reads the ladder's history up to then, in one of the process's fair slots,
    charged by its time.

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        sort (GetLeaderboardSort | Unset):  Default: GetLeaderboardSort.RATING.
        order (GetLeaderboardOrderType0 | None | Unset):
        active_within_days (int | None | Unset):
        faction (None | str | Unset):
        min_games (int | Unset):  Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.
        country (None | str | Unset): ISO 3166-1 alpha-2 code: the national ranking, only the
            players whose profile names that country, positions 1, 2, ... among them.
        around (None | str | Unset): A player id: the `limit` entries centred on that player's
            (first) entry instead of a page (404 when the filtered board has none); not with `offset`.
        include_provisional (bool | Unset): Also list provisional players (ranked play's
            placement). Default: False.
        division (None | str | Unset): Only the players of this division (ranked play).
        season (None | str | Unset): A season's board: as of its end (now while it is current),
            only the players with a rated event in it, its statistics and placement; a circuit
            (`best_of`) ranks by `points`. Not with `as_of`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LeaderboardOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
limit=limit,
offset=offset,
sort=sort,
order=order,
active_within_days=active_within_days,
faction=faction,
min_games=min_games,
as_of=as_of,
country=country,
around=around,
include_provisional=include_provisional,
division=division,
season=season,

    )).parsed
