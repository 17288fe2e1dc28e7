from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.player_list import PlayerList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    search: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_search: None | str | Unset
    if isinstance(search, Unset):
        json_search = UNSET
    else:
        json_search = search
    params["search"] = json_search

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/players".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerList | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlayerList | Problem]:
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
    search: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[PlayerList | Problem]:
    """ List Players

     The ladder's rated players by id, each with its name and country where its profile
    has them and its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them.

    Args:
        ladder (str):
        search (None | str | Unset): Only the players whose id holds this text, in any case.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerList | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
search=search,
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
    search: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> PlayerList | Problem | None:
    """ List Players

     The ladder's rated players by id, each with its name and country where its profile
    has them and its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them.

    Args:
        ladder (str):
        search (None | str | Unset): Only the players whose id holds this text, in any case.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerList | Problem
     """


    return sync_detailed(
        ladder=ladder,
client=client,
search=search,
limit=limit,
offset=offset,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    search: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[PlayerList | Problem]:
    """ List Players

     The ladder's rated players by id, each with its name and country where its profile
    has them and its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them.

    Args:
        ladder (str):
        search (None | str | Unset): Only the players whose id holds this text, in any case.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerList | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
search=search,
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
    search: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> PlayerList | Problem | None:
    """ List Players

     The ladder's rated players by id, each with its name and country where its profile
    has them and its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them.

    Args:
        ladder (str):
        search (None | str | Unset): Only the players whose id holds this text, in any case.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerList | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
search=search,
limit=limit,
offset=offset,

    )).parsed
