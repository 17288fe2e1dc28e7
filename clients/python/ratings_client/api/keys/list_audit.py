from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_list import AuditList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    community: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_community: None | str | Unset
    if isinstance(community, Unset):
        json_community = UNSET
    else:
        json_community = community
    params["community"] = json_community

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/audit",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditList | Problem | None:
    if response.status_code == 200:
        response_200 = AuditList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    community: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[AuditList | Problem]:
    """ List Audit

     The audit log of renames, merges and erasures, newest first (admin token only). An
    erasure's entry names only the pseudonym.

    Args:
        community (None | str | Unset): Only this community's entries.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditList | Problem]
     """


    kwargs = _get_kwargs(
        community=community,
limit=limit,
offset=offset,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    community: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> AuditList | Problem | None:
    """ List Audit

     The audit log of renames, merges and erasures, newest first (admin token only). An
    erasure's entry names only the pseudonym.

    Args:
        community (None | str | Unset): Only this community's entries.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditList | Problem
     """


    return sync_detailed(
        client=client,
community=community,
limit=limit,
offset=offset,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    community: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> Response[AuditList | Problem]:
    """ List Audit

     The audit log of renames, merges and erasures, newest first (admin token only). An
    erasure's entry names only the pseudonym.

    Args:
        community (None | str | Unset): Only this community's entries.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditList | Problem]
     """


    kwargs = _get_kwargs(
        community=community,
limit=limit,
offset=offset,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    community: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,

) -> AuditList | Problem | None:
    """ List Audit

     The audit log of renames, merges and erasures, newest first (admin token only). An
    erasure's entry names only the pseudonym.

    Args:
        community (None | str | Unset): Only this community's entries.
        limit (int | Unset): Entries per page (at most 500). Default: 50.
        offset (int | Unset): Entries to skip. Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditList | Problem
     """


    return (await asyncio_detailed(
        client=client,
community=community,
limit=limit,
offset=offset,

    )).parsed
