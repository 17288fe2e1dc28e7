from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.season_changed import SeasonChanged
from typing import cast



def _get_kwargs(
    ladder: str,
    season: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/ladders/{ladder}/seasons/{season}".format(ladder=quote(str(ladder), safe=""),season=quote(str(season), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SeasonChanged | None:
    if response.status_code == 200:
        response_200 = SeasonChanged.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SeasonChanged]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    ladder: str,
    season: str,
    *,
    client: AuthenticatedClient,

) -> Response[Problem | SeasonChanged]:
    """ Delete Season

     Remove a season: its reset no longer applies, and history after it is re-rated. The
    answer is the season as it stood.

    Args:
        ladder (str):
        season (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeasonChanged]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
season=season,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    season: str,
    *,
    client: AuthenticatedClient,

) -> Problem | SeasonChanged | None:
    """ Delete Season

     Remove a season: its reset no longer applies, and history after it is re-rated. The
    answer is the season as it stood.

    Args:
        ladder (str):
        season (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeasonChanged
     """


    return sync_detailed(
        ladder=ladder,
season=season,
client=client,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    season: str,
    *,
    client: AuthenticatedClient,

) -> Response[Problem | SeasonChanged]:
    """ Delete Season

     Remove a season: its reset no longer applies, and history after it is re-rated. The
    answer is the season as it stood.

    Args:
        ladder (str):
        season (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeasonChanged]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
season=season,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    season: str,
    *,
    client: AuthenticatedClient,

) -> Problem | SeasonChanged | None:
    """ Delete Season

     Remove a season: its reset no longer applies, and history after it is re-rated. The
    answer is the season as it stood.

    Args:
        ladder (str):
        season (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeasonChanged
     """


    return (await asyncio_detailed(
        ladder=ladder,
season=season,
client=client,

    )).parsed
