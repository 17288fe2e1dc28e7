from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.tournament_batch_in import TournamentBatchIn
from ...models.tournament_batch_out import TournamentBatchOut
from typing import cast



def _get_kwargs(
    *,
    body: TournamentBatchIn,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tournaments/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TournamentBatchOut | None:
    if response.status_code == 200:
        response_200 = TournamentBatchOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TournamentBatchOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TournamentBatchIn,

) -> Response[Problem | TournamentBatchOut]:
    """ Create Tournaments Batch

     Up to 10,000 tournaments in one atomic request (a season), as ``POST /games/batch``:
    every tournament is validated first and nothing is stored unless all are valid; ids
    already stored with the same body count as existing, a different body is a 409.

    Args:
        body (TournamentBatchIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentBatchOut]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: TournamentBatchIn,

) -> Problem | TournamentBatchOut | None:
    """ Create Tournaments Batch

     Up to 10,000 tournaments in one atomic request (a season), as ``POST /games/batch``:
    every tournament is validated first and nothing is stored unless all are valid; ids
    already stored with the same body count as existing, a different body is a 409.

    Args:
        body (TournamentBatchIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentBatchOut
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TournamentBatchIn,

) -> Response[Problem | TournamentBatchOut]:
    """ Create Tournaments Batch

     Up to 10,000 tournaments in one atomic request (a season), as ``POST /games/batch``:
    every tournament is validated first and nothing is stored unless all are valid; ids
    already stored with the same body count as existing, a different body is a 409.

    Args:
        body (TournamentBatchIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentBatchOut]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TournamentBatchIn,

) -> Problem | TournamentBatchOut | None:
    """ Create Tournaments Batch

     Up to 10,000 tournaments in one atomic request (a season), as ``POST /games/batch``:
    every tournament is validated first and nothing is stored unless all are valid; ids
    already stored with the same body count as existing, a different body is a 409.

    Args:
        body (TournamentBatchIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentBatchOut
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
