from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.curve_out import CurveOut
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    ladder: str,
    player: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/players/{player}/curve".format(ladder=quote(str(ladder), safe=""),player=quote(str(player), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CurveOut | Problem | None:
    if response.status_code == 200:
        response_200 = CurveOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CurveOut | Problem]:
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

) -> Response[CurveOut | Problem]:
    """ Get Curve

     A player's skill curve on a whole-history ladder (ttt, whr): one point per UTC day it
    played, each re-estimated from the whole history (422 on a ladder of another system).

    Args:
        ladder (str):
        player (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurveOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,

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

) -> CurveOut | Problem | None:
    """ Get Curve

     A player's skill curve on a whole-history ladder (ttt, whr): one point per UTC day it
    played, each re-estimated from the whole history (422 on a ladder of another system).

    Args:
        ladder (str):
        player (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurveOut | Problem
     """


    return sync_detailed(
        ladder=ladder,
player=player,
client=client,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    player: str,
    *,
    client: AuthenticatedClient,

) -> Response[CurveOut | Problem]:
    """ Get Curve

     A player's skill curve on a whole-history ladder (ttt, whr): one point per UTC day it
    played, each re-estimated from the whole history (422 on a ladder of another system).

    Args:
        ladder (str):
        player (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurveOut | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
player=player,

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

) -> CurveOut | Problem | None:
    """ Get Curve

     A player's skill curve on a whole-history ladder (ttt, whr): one point per UTC day it
    played, each re-estimated from the whole history (422 on a ladder of another system).

    Args:
        ladder (str):
        player (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurveOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
player=player,
client=client,

    )).parsed
