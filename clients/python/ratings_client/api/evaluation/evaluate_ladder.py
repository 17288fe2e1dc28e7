from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.evaluate_in import EvaluateIn
from ...models.evaluate_out import EvaluateOut
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    body: EvaluateIn,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/ladders/{ladder}/evaluate".format(ladder=quote(str(ladder), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EvaluateOut | Problem | None:
    if response.status_code == 200:
        response_200 = EvaluateOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EvaluateOut | Problem]:
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
    body: EvaluateIn,

) -> Response[EvaluateOut | Problem]:
    """ Evaluate Ladder

     Replay the ladder's history under each candidate system and parameters (default:
    the ladder's own), predicting each game before it is rated, and score the predictions
    (log loss, Brier, accuracy, calibration) beside the baseline p = 1/2. Nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"), computed in one of the process's few
    slots and abandoned with its client.

    Args:
        ladder (str):
        body (EvaluateIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluateOut | Problem]
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
    body: EvaluateIn,

) -> EvaluateOut | Problem | None:
    """ Evaluate Ladder

     Replay the ladder's history under each candidate system and parameters (default:
    the ladder's own), predicting each game before it is rated, and score the predictions
    (log loss, Brier, accuracy, calibration) beside the baseline p = 1/2. Nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"), computed in one of the process's few
    slots and abandoned with its client.

    Args:
        ladder (str):
        body (EvaluateIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluateOut | Problem
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
    body: EvaluateIn,

) -> Response[EvaluateOut | Problem]:
    """ Evaluate Ladder

     Replay the ladder's history under each candidate system and parameters (default:
    the ladder's own), predicting each game before it is rated, and score the predictions
    (log loss, Brier, accuracy, calibration) beside the baseline p = 1/2. Nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"), computed in one of the process's few
    slots and abandoned with its client.

    Args:
        ladder (str):
        body (EvaluateIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvaluateOut | Problem]
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
    body: EvaluateIn,

) -> EvaluateOut | Problem | None:
    """ Evaluate Ladder

     Replay the ladder's history under each candidate system and parameters (default:
    the ladder's own), predicting each game before it is rated, and score the predictions
    (log loss, Brier, accuracy, calibration) beside the baseline p = 1/2. Nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"), computed in one of the process's few
    slots and abandoned with its client.

    Args:
        ladder (str):
        body (EvaluateIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvaluateOut | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
body=body,

    )).parsed
