from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    confirm: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_confirm: None | str | Unset
    if isinstance(confirm, Unset):
        json_confirm = UNSET
    else:
        json_confirm = confirm
    params["confirm"] = json_confirm


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/ladders/{ladder}".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    confirm: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Delete Ladder

     Delete the ladder and its whole history (admin token only; ``?confirm=`` repeats the
    ladder's id). Its players' profiles stay: they are its community's.

    Args:
        ladder (str):
        confirm (None | str | Unset): The ladder's id again: deletion cannot be undone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
confirm=confirm,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    *,
    client: AuthenticatedClient,
    confirm: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Delete Ladder

     Delete the ladder and its whole history (admin token only; ``?confirm=`` repeats the
    ladder's id). Its players' profiles stay: they are its community's.

    Args:
        ladder (str):
        confirm (None | str | Unset): The ladder's id again: deletion cannot be undone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return sync_detailed(
        ladder=ladder,
client=client,
confirm=confirm,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    confirm: None | str | Unset = UNSET,

) -> Response[Any | Problem]:
    """ Delete Ladder

     Delete the ladder and its whole history (admin token only; ``?confirm=`` repeats the
    ladder's id). Its players' profiles stay: they are its community's.

    Args:
        ladder (str):
        confirm (None | str | Unset): The ladder's id again: deletion cannot be undone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
confirm=confirm,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    *,
    client: AuthenticatedClient,
    confirm: None | str | Unset = UNSET,

) -> Any | Problem | None:
    """ Delete Ladder

     Delete the ladder and its whole history (admin token only; ``?confirm=`` repeats the
    ladder's id). Its players' profiles stay: they are its community's.

    Args:
        ladder (str):
        confirm (None | str | Unset): The ladder's id again: deletion cannot be undone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
confirm=confirm,

    )).parsed
