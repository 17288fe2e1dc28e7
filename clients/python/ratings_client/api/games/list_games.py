from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.game_list import GameList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    ladder: str,
    *,
    player: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    voided: bool | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_player: None | str | Unset
    if isinstance(player, Unset):
        json_player = UNSET
    else:
        json_player = player
    params["player"] = json_player

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

    json_voided: bool | None | Unset
    if isinstance(voided, Unset):
        json_voided = UNSET
    else:
        json_voided = voided
    params["voided"] = json_voided

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/games".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GameList | Problem | None:
    if response.status_code == 200:
        response_200 = GameList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GameList | Problem]:
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
    player: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    voided: bool | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[GameList | Problem]:
    """ List Games

     The ladder's games, newest first (by time played, then arrival), each as
    ``GET /ladders/{ladder}/games/{id}`` returns it; ``total`` counts all that match.

    Args:
        ladder (str):
        player (None | str | Unset): Only the events that rated this player.
        from_ (datetime.datetime | None | Unset): RFC 3339 time: events at or after it.
        to (datetime.datetime | None | Unset): RFC 3339 time: events at or before it.
        voided (bool | None | Unset): true: only voided events; false: only live ones; absent:
            both.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameList | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
from_=from_,
to=to,
voided=voided,
limit=limit,
offset=offset,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    *,
    client: AuthenticatedClient,
    player: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    voided: bool | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> GameList | Problem | None:
    """ List Games

     The ladder's games, newest first (by time played, then arrival), each as
    ``GET /ladders/{ladder}/games/{id}`` returns it; ``total`` counts all that match.

    Args:
        ladder (str):
        player (None | str | Unset): Only the events that rated this player.
        from_ (datetime.datetime | None | Unset): RFC 3339 time: events at or after it.
        to (datetime.datetime | None | Unset): RFC 3339 time: events at or before it.
        voided (bool | None | Unset): true: only voided events; false: only live ones; absent:
            both.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameList | Problem
     """


    return sync_detailed(
        ladder=ladder,
client=client,
player=player,
from_=from_,
to=to,
voided=voided,
limit=limit,
offset=offset,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    player: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    voided: bool | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[GameList | Problem]:
    """ List Games

     The ladder's games, newest first (by time played, then arrival), each as
    ``GET /ladders/{ladder}/games/{id}`` returns it; ``total`` counts all that match.

    Args:
        ladder (str):
        player (None | str | Unset): Only the events that rated this player.
        from_ (datetime.datetime | None | Unset): RFC 3339 time: events at or after it.
        to (datetime.datetime | None | Unset): RFC 3339 time: events at or before it.
        voided (bool | None | Unset): true: only voided events; false: only live ones; absent:
            both.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameList | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
from_=from_,
to=to,
voided=voided,
limit=limit,
offset=offset,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    *,
    client: AuthenticatedClient,
    player: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    voided: bool | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> GameList | Problem | None:
    """ List Games

     The ladder's games, newest first (by time played, then arrival), each as
    ``GET /ladders/{ladder}/games/{id}`` returns it; ``total`` counts all that match.

    Args:
        ladder (str):
        player (None | str | Unset): Only the events that rated this player.
        from_ (datetime.datetime | None | Unset): RFC 3339 time: events at or after it.
        to (datetime.datetime | None | Unset): RFC 3339 time: events at or before it.
        voided (bool | None | Unset): true: only voided events; false: only live ones; absent:
            both.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameList | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
player=player,
from_=from_,
to=to,
voided=voided,
limit=limit,
offset=offset,

    )).parsed
