from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.season_changed import SeasonChanged
from ...models.season_in import SeasonIn
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    body: SeasonIn,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/ladders/{ladder}/seasons".format(ladder=quote(str(ladder), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SeasonChanged | None:
    if response.status_code == 201:
        response_201 = SeasonChanged.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SeasonChanged]:
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
    body: SeasonIn,

) -> Response[Problem | SeasonChanged]:
    """ Create Season

     Add a season (past or future). Its reset applies at ``starts_at`` to every player
    rated before it; a start that stored results follow re-rates them, like a late result.

    Args:
        ladder (str):
        body (SeasonIn): A season: from ``starts_at`` to the next season's start. ``PUT`` takes
            the whole body
            again (its ``id`` equal to the path's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeasonChanged]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    *,
    client: AuthenticatedClient,
    body: SeasonIn,

) -> Problem | SeasonChanged | None:
    """ Create Season

     Add a season (past or future). Its reset applies at ``starts_at`` to every player
    rated before it; a start that stored results follow re-rates them, like a late result.

    Args:
        ladder (str):
        body (SeasonIn): A season: from ``starts_at`` to the next season's start. ``PUT`` takes
            the whole body
            again (its ``id`` equal to the path's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeasonChanged
     """


    return sync_detailed(
        ladder=ladder,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    body: SeasonIn,

) -> Response[Problem | SeasonChanged]:
    """ Create Season

     Add a season (past or future). Its reset applies at ``starts_at`` to every player
    rated before it; a start that stored results follow re-rates them, like a late result.

    Args:
        ladder (str):
        body (SeasonIn): A season: from ``starts_at`` to the next season's start. ``PUT`` takes
            the whole body
            again (its ``id`` equal to the path's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeasonChanged]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    *,
    client: AuthenticatedClient,
    body: SeasonIn,

) -> Problem | SeasonChanged | None:
    """ Create Season

     Add a season (past or future). Its reset applies at ``starts_at`` to every player
    rated before it; a start that stored results follow re-rates them, like a late result.

    Args:
        ladder (str):
        body (SeasonIn): A season: from ``starts_at`` to the next season's start. ``PUT`` takes
            the whole body
            again (its ``id`` equal to the path's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeasonChanged
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
body=body,

    )).parsed
