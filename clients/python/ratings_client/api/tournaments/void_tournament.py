from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.tournament_out import TournamentOut
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    tournament_id: str,
    *,
    if_match: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/ladders/{ladder}/tournaments/{tournament_id}".format(ladder=quote(str(ladder), safe=""),tournament_id=quote(str(tournament_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | TournamentOut | None:
    if response.status_code == 200:
        response_200 = TournamentOut.from_dict(response.json())



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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())



        return response_412

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | TournamentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    ladder: str,
    tournament_id: str,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,

) -> Response[Problem | TournamentOut]:
    """ Void Tournament

     Void a tournament: it stays in history as voided and every later rating is
    recomputed. With If-Match, only if the tournament is still at that version (412
    otherwise).

    Args:
        ladder (str):
        tournament_id (str):
        if_match (None | str | Unset): Change the result only if it is still at this version: its
            ETag, as a GET or the last write returned (412 otherwise, and nothing changes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentOut]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
tournament_id=tournament_id,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    tournament_id: str,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,

) -> Problem | TournamentOut | None:
    """ Void Tournament

     Void a tournament: it stays in history as voided and every later rating is
    recomputed. With If-Match, only if the tournament is still at that version (412
    otherwise).

    Args:
        ladder (str):
        tournament_id (str):
        if_match (None | str | Unset): Change the result only if it is still at this version: its
            ETag, as a GET or the last write returned (412 otherwise, and nothing changes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentOut
     """


    return sync_detailed(
        ladder=ladder,
tournament_id=tournament_id,
client=client,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    tournament_id: str,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,

) -> Response[Problem | TournamentOut]:
    """ Void Tournament

     Void a tournament: it stays in history as voided and every later rating is
    recomputed. With If-Match, only if the tournament is still at that version (412
    otherwise).

    Args:
        ladder (str):
        tournament_id (str):
        if_match (None | str | Unset): Change the result only if it is still at this version: its
            ETag, as a GET or the last write returned (412 otherwise, and nothing changes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentOut]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
tournament_id=tournament_id,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    tournament_id: str,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,

) -> Problem | TournamentOut | None:
    """ Void Tournament

     Void a tournament: it stays in history as voided and every later rating is
    recomputed. With If-Match, only if the tournament is still at that version (412
    otherwise).

    Args:
        ladder (str):
        tournament_id (str):
        if_match (None | str | Unset): Change the result only if it is still at this version: its
            ETag, as a GET or the last write returned (412 otherwise, and nothing changes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentOut
     """


    return (await asyncio_detailed(
        ladder=ladder,
tournament_id=tournament_id,
client=client,
if_match=if_match,

    )).parsed
