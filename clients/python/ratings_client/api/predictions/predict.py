from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.prediction_in import PredictionIn
from ...models.prediction_out import PredictionOut
from ...models.problem import Problem
from ...models.team_prediction_out import TeamPredictionOut
from typing import cast



def _get_kwargs(
    *,
    body: PredictionIn,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/predictions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PredictionOut | TeamPredictionOut | Problem | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> PredictionOut | TeamPredictionOut:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = PredictionOut.from_dict(data)



                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = TeamPredictionOut.from_dict(data)



            return response_200_type_1

        response_200 = _parse_response_200(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PredictionOut | TeamPredictionOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PredictionIn,

) -> Response[PredictionOut | TeamPredictionOut | Problem]:
    """ Predict

     What is at stake: each player's change for a win, a draw or a loss; nothing is stored.
    With ``teams``, each side's chance and each member's change (API.md "Teams").

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.

    Args:
        body (PredictionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PredictionOut | TeamPredictionOut | Problem]
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
    body: PredictionIn,

) -> PredictionOut | TeamPredictionOut | Problem | None:
    """ Predict

     What is at stake: each player's change for a win, a draw or a loss; nothing is stored.
    With ``teams``, each side's chance and each member's change (API.md "Teams").

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.

    Args:
        body (PredictionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PredictionOut | TeamPredictionOut | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PredictionIn,

) -> Response[PredictionOut | TeamPredictionOut | Problem]:
    """ Predict

     What is at stake: each player's change for a win, a draw or a loss; nothing is stored.
    With ``teams``, each side's chance and each member's change (API.md "Teams").

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.

    Args:
        body (PredictionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PredictionOut | TeamPredictionOut | Problem]
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
    body: PredictionIn,

) -> PredictionOut | TeamPredictionOut | Problem | None:
    """ Predict

     What is at stake: each player's change for a win, a draw or a loss; nothing is stored.
    With ``teams``, each side's chance and each member's change (API.md "Teams").

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.

    Args:
        body (PredictionIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PredictionOut | TeamPredictionOut | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
