from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.history_out import HistoryOut
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    ladder: str,
    player: str,
    *,
    faction: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_faction: None | str | Unset
    if isinstance(faction, Unset):
        json_faction = UNSET
    else:
        json_faction = faction
    params["faction"] = json_faction

    params["limit"] = limit

    params["offset"] = offset

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
        "url": "/ladders/{ladder}/players/{player}/history".format(ladder=quote(str(ladder), safe=""),player=quote(str(player), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HistoryOut | Problem | None:
    if response.status_code == 200:
        response_200 = HistoryOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HistoryOut | Problem]:
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
    faction: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> Response[HistoryOut | Problem]:
    """ Get History

     The player's changes, oldest first.

    Args:
        ladder (str):
        player (str):
        faction (None | str | Unset):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HistoryOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
faction=faction,
limit=limit,
offset=offset,
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
    faction: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> HistoryOut | Problem | None:
    """ Get History

     The player's changes, oldest first.

    Args:
        ladder (str):
        player (str):
        faction (None | str | Unset):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HistoryOut | Problem
     """


    return sync_detailed(
        ladder=ladder,
player=player,
client=client,
faction=faction,
limit=limit,
offset=offset,
as_of=as_of,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,
    faction: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> Response[HistoryOut | Problem]:
    """ Get History

     The player's changes, oldest first.

    Args:
        ladder (str):
        player (str):
        faction (None | str | Unset):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HistoryOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,
faction=faction,
limit=limit,
offset=offset,
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
    faction: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    as_of: datetime.datetime | None | Unset = UNSET,

) -> HistoryOut | Problem | None:
    """ Get History

     The player's changes, oldest first.

    Args:
        ladder (str):
        player (str):
        faction (None | str | Unset):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.
        as_of (datetime.datetime | None | Unset): RFC 3339 time: the state just after everything
            up to then.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HistoryOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
player=player,
client=client,
faction=faction,
limit=limit,
offset=offset,
as_of=as_of,

    )).parsed
