from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.player_out import PlayerOut
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    ladder: str,
    player: str,
    *,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_as_of: None | str | Unset
    if isinstance(as_of, Unset):
        json_as_of = UNSET
    elif isinstance(as_of, datetime.datetime):
        json_as_of = as_of.isoformat()
    else:
        json_as_of = as_of
    params["as_of"] = json_as_of


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/players/{player}".format(ladder=quote(str(ladder), safe=""),player=quote(str(player), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerOut | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlayerOut | Problem]:
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
    as_of: datetime.datetime | None | Unset = UNSET,

) -> Response[PlayerOut | Problem]:
    """ Get Player

     A player's ratings (one per faction on per-faction ladders) with statistics.

    With ``as_of``, a heavy read (docs/operations.md "Request classes and costs"): it reads
    the ladder's history up to then, in one of the process's fair slots, charged by its time.

    Args:
        ladder (str):
        player (str):
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
as_of=as_of,

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
    as_of: datetime.datetime | None | Unset = UNSET,

) -> PlayerOut | Problem | None:
    """ Get Player

     A player's ratings (one per faction on per-faction ladders) with statistics.

    With ``as_of``, a heavy read (docs/operations.md "Request classes and costs"): it reads
    the ladder's history up to then, in one of the process's fair slots, charged by its time.

    Args:
        ladder (str):
        player (str):
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerOut | Problem
     """


    return sync_detailed(
        ladder=ladder,
player=player,
client=client,
as_of=as_of,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> Response[PlayerOut | Problem]:
    """ Get Player

     A player's ratings (one per faction on per-faction ladders) with statistics.

    With ``as_of``, a heavy read (docs/operations.md "Request classes and costs"): it reads
    the ladder's history up to then, in one of the process's fair slots, charged by its time.

    Args:
        ladder (str):
        player (str):
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
as_of=as_of,

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
    as_of: datetime.datetime | None | Unset = UNSET,

) -> PlayerOut | Problem | None:
    """ Get Player

     A player's ratings (one per faction on per-faction ladders) with statistics.

    With ``as_of``, a heavy read (docs/operations.md "Request classes and costs"): it reads
    the ladder's history up to then, in one of the process's fair slots, charged by its time.

    Args:
        ladder (str):
        player (str):
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
player=player,
client=client,
as_of=as_of,

    )).parsed
