from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.opponents_out import OpponentsOut
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    player: str,
    *,
    limit: int | Unset = 10,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    coaches: int | None | Unset = UNSET,
    major: bool | Unset = False,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

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

    json_coaches: int | None | Unset
    if isinstance(coaches, Unset):
        json_coaches = UNSET
    else:
        json_coaches = coaches
    params["coaches"] = json_coaches

    params["major"] = major


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/players/{player}/opponents".format(ladder=quote(str(ladder), safe=""),player=quote(str(player), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OpponentsOut | Problem | None:
    if response.status_code == 200:
        response_200 = OpponentsOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OpponentsOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 10,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    coaches: int | None | Unset = UNSET,
    major: bool | Unset = False,

) -> Response[OpponentsOut | Problem]:
    """ Get Opponents

     The rated players the player would meet most evenly (highest quality), each with the
    player's win probability and its change for a win, a draw or a loss. They are weighed
    among the ratings nearest the player's (docs/api.md "Matchmaking").

    Args:
        ladder (str):
        player (str):
        limit (int | Unset): How many opponents, most even first. Default: 10.
        active_within_days (int | None | Unset): Only opponents who played within this many days
            (0: everyone; default: the system's leaderboard default, e.g. Fundox's 30).
        faction (None | str | Unset): On a per-faction ladder, which of the player's ratings to
            match.
        coaches (int | None | Unset): The event's coaches, where the system's amounts depend on
            them (NAF).
        major (bool | Unset): The event is a major (NAF). Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpponentsOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
limit=limit,
active_within_days=active_within_days,
faction=faction,
coaches=coaches,
major=major,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 10,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    coaches: int | None | Unset = UNSET,
    major: bool | Unset = False,

) -> OpponentsOut | Problem | None:
    """ Get Opponents

     The rated players the player would meet most evenly (highest quality), each with the
    player's win probability and its change for a win, a draw or a loss. They are weighed
    among the ratings nearest the player's (docs/api.md "Matchmaking").

    Args:
        ladder (str):
        player (str):
        limit (int | Unset): How many opponents, most even first. Default: 10.
        active_within_days (int | None | Unset): Only opponents who played within this many days
            (0: everyone; default: the system's leaderboard default, e.g. Fundox's 30).
        faction (None | str | Unset): On a per-faction ladder, which of the player's ratings to
            match.
        coaches (int | None | Unset): The event's coaches, where the system's amounts depend on
            them (NAF).
        major (bool | Unset): The event is a major (NAF). Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpponentsOut | Problem
     """


    return sync_detailed(
        ladder=ladder,
player=player,
client=client,
limit=limit,
active_within_days=active_within_days,
faction=faction,
coaches=coaches,
major=major,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 10,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    coaches: int | None | Unset = UNSET,
    major: bool | Unset = False,

) -> Response[OpponentsOut | Problem]:
    """ Get Opponents

     The rated players the player would meet most evenly (highest quality), each with the
    player's win probability and its change for a win, a draw or a loss. They are weighed
    among the ratings nearest the player's (docs/api.md "Matchmaking").

    Args:
        ladder (str):
        player (str):
        limit (int | Unset): How many opponents, most even first. Default: 10.
        active_within_days (int | None | Unset): Only opponents who played within this many days
            (0: everyone; default: the system's leaderboard default, e.g. Fundox's 30).
        faction (None | str | Unset): On a per-faction ladder, which of the player's ratings to
            match.
        coaches (int | None | Unset): The event's coaches, where the system's amounts depend on
            them (NAF).
        major (bool | Unset): The event is a major (NAF). Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpponentsOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
limit=limit,
active_within_days=active_within_days,
faction=faction,
coaches=coaches,
major=major,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 10,
    active_within_days: int | None | Unset = UNSET,
    faction: None | str | Unset = UNSET,
    coaches: int | None | Unset = UNSET,
    major: bool | Unset = False,

) -> OpponentsOut | Problem | None:
    """ Get Opponents

     The rated players the player would meet most evenly (highest quality), each with the
    player's win probability and its change for a win, a draw or a loss. They are weighed
    among the ratings nearest the player's (docs/api.md "Matchmaking").

    Args:
        ladder (str):
        player (str):
        limit (int | Unset): How many opponents, most even first. Default: 10.
        active_within_days (int | None | Unset): Only opponents who played within this many days
            (0: everyone; default: the system's leaderboard default, e.g. Fundox's 30).
        faction (None | str | Unset): On a per-faction ladder, which of the player's ratings to
            match.
        coaches (int | None | Unset): The event's coaches, where the system's amounts depend on
            them (NAF).
        major (bool | Unset): The event is a major (NAF). Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpponentsOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
player=player,
client=client,
limit=limit,
active_within_days=active_within_days,
faction=faction,
coaches=coaches,
major=major,

    )).parsed
