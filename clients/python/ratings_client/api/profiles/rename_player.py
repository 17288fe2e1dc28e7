from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.player_action_out import PlayerActionOut
from ...models.problem import Problem
from ...models.rename_in import RenameIn
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    player: str,
    *,
    body: RenameIn,
    community: str | Unset = 'default',

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    params: dict[str, Any] = {}

    params["community"] = community


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/players/{player}/rename".format(player=quote(str(player), safe=""),),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerActionOut | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerActionOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlayerActionOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    player: str,
    *,
    client: AuthenticatedClient,
    body: RenameIn,
    community: str | Unset = 'default',

) -> Response[PlayerActionOut | Problem]:
    """ Rename Player

     The player's id becomes ``to`` in every ladder of ``community``: results, ratings and
    profile kept (409 if the community has ``to`` already). A result sent before the rename
    and sent again as it was is still the same result (docs/players-data.md). Admin token,
    or a ``ladders:admin`` key of the community not limited to ladders; audited.

    Args:
        player (str):
        community (str | Unset): The community whose player this is (API.md "Communities").
            Default: 'default'.
        body (RenameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerActionOut | Problem]
     """


    kwargs = _get_kwargs(
        player=player,
body=body,
community=community,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    player: str,
    *,
    client: AuthenticatedClient,
    body: RenameIn,
    community: str | Unset = 'default',

) -> PlayerActionOut | Problem | None:
    """ Rename Player

     The player's id becomes ``to`` in every ladder of ``community``: results, ratings and
    profile kept (409 if the community has ``to`` already). A result sent before the rename
    and sent again as it was is still the same result (docs/players-data.md). Admin token,
    or a ``ladders:admin`` key of the community not limited to ladders; audited.

    Args:
        player (str):
        community (str | Unset): The community whose player this is (API.md "Communities").
            Default: 'default'.
        body (RenameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerActionOut | Problem
     """


    return sync_detailed(
        player=player,
client=client,
body=body,
community=community,

    ).parsed

async def asyncio_detailed(
    player: str,
    *,
    client: AuthenticatedClient,
    body: RenameIn,
    community: str | Unset = 'default',

) -> Response[PlayerActionOut | Problem]:
    """ Rename Player

     The player's id becomes ``to`` in every ladder of ``community``: results, ratings and
    profile kept (409 if the community has ``to`` already). A result sent before the rename
    and sent again as it was is still the same result (docs/players-data.md). Admin token,
    or a ``ladders:admin`` key of the community not limited to ladders; audited.

    Args:
        player (str):
        community (str | Unset): The community whose player this is (API.md "Communities").
            Default: 'default'.
        body (RenameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerActionOut | Problem]
     """


    kwargs = _get_kwargs(
        player=player,
body=body,
community=community,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    player: str,
    *,
    client: AuthenticatedClient,
    body: RenameIn,
    community: str | Unset = 'default',

) -> PlayerActionOut | Problem | None:
    """ Rename Player

     The player's id becomes ``to`` in every ladder of ``community``: results, ratings and
    profile kept (409 if the community has ``to`` already). A result sent before the rename
    and sent again as it was is still the same result (docs/players-data.md). Admin token,
    or a ``ladders:admin`` key of the community not limited to ladders; audited.

    Args:
        player (str):
        community (str | Unset): The community whose player this is (API.md "Communities").
            Default: 'default'.
        body (RenameIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerActionOut | Problem
     """


    return (await asyncio_detailed(
        player=player,
client=client,
body=body,
community=community,

    )).parsed
