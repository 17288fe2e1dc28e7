from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.season_out import SeasonOut
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/seasons".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | list[SeasonOut] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = SeasonOut.from_dict(response_200_item_data)



            response_200.append(response_200_item)

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | list[SeasonOut]]:
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

) -> Response[Problem | list[SeasonOut]]:
    """ List Seasons

     The ladder's seasons by start, each with its end (the next one's start) and status,
    paged as every list is (``limit``, ``offset``); the body stays the list API.md defines,
    so their number is the ``X-Total-Count`` header (a schedule's seasons may be many).

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[SeasonOut]]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Problem | list[SeasonOut] | None:
    """ List Seasons

     The ladder's seasons by start, each with its end (the next one's start) and status,
    paged as every list is (``limit``, ``offset``); the body stays the list API.md defines,
    so their number is the ``X-Total-Count`` header (a schedule's seasons may be many).

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[SeasonOut]
     """


    return sync_detailed(
        ladder=ladder,
client=client,
limit=limit,
offset=offset,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[Problem | list[SeasonOut]]:
    """ List Seasons

     The ladder's seasons by start, each with its end (the next one's start) and status,
    paged as every list is (``limit``, ``offset``); the body stays the list API.md defines,
    so their number is the ``X-Total-Count`` header (a schedule's seasons may be many).

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[SeasonOut]]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Problem | list[SeasonOut] | None:
    """ List Seasons

     The ladder's seasons by start, each with its end (the next one's start) and status,
    paged as every list is (``limit``, ``offset``); the body stays the list API.md defines,
    so their number is the ``X-Total-Count`` header (a schedule's seasons may be many).

    Args:
        ladder (str):
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[SeasonOut]
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
limit=limit,
offset=offset,

    )).parsed
