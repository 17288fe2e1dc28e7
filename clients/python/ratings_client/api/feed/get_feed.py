from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.feed_page import FeedPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    ladder: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    follow: bool | Unset = False,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["follow"] = follow


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ladders/{ladder}/feed".format(ladder=quote(str(ladder), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FeedPage | Problem | None:
    if response.status_code == 200:
        response_200 = FeedPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FeedPage | Problem]:
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
    after: int | Unset = 0,
    limit: int | Unset = 100,
    follow: bool | Unset = False,

) -> Response[FeedPage | Problem]:
    """ Get Feed

     What each committed write changed in the ladder, in commit order: follow ``next``
    (``after=next``) to read on, from any cursor.

    Args:
        ladder (str):
        after (int | Unset): Items after this cursor (0: from the start). Default: 0.
        limit (int | Unset): Items per page. Default: 100.
        follow (bool | Unset): Keep the response open and stream each item as it commits (JSON
            lines, or server-sent events when asked for text/event-stream), with a heartbeat at least
            every 10 s. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedPage | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
after=after,
limit=limit,
follow=follow,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    ladder: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    follow: bool | Unset = False,

) -> FeedPage | Problem | None:
    """ Get Feed

     What each committed write changed in the ladder, in commit order: follow ``next``
    (``after=next``) to read on, from any cursor.

    Args:
        ladder (str):
        after (int | Unset): Items after this cursor (0: from the start). Default: 0.
        limit (int | Unset): Items per page. Default: 100.
        follow (bool | Unset): Keep the response open and stream each item as it commits (JSON
            lines, or server-sent events when asked for text/event-stream), with a heartbeat at least
            every 10 s. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedPage | Problem
     """


    return sync_detailed(
        ladder=ladder,
client=client,
after=after,
limit=limit,
follow=follow,

    ).parsed

async def asyncio_detailed(
    ladder: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    follow: bool | Unset = False,

) -> Response[FeedPage | Problem]:
    """ Get Feed

     What each committed write changed in the ladder, in commit order: follow ``next``
    (``after=next``) to read on, from any cursor.

    Args:
        ladder (str):
        after (int | Unset): Items after this cursor (0: from the start). Default: 0.
        limit (int | Unset): Items per page. Default: 100.
        follow (bool | Unset): Keep the response open and stream each item as it commits (JSON
            lines, or server-sent events when asked for text/event-stream), with a heartbeat at least
            every 10 s. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FeedPage | Problem]
     """


    kwargs = _get_kwargs(
        ladder=ladder,
after=after,
limit=limit,
follow=follow,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    ladder: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    follow: bool | Unset = False,

) -> FeedPage | Problem | None:
    """ Get Feed

     What each committed write changed in the ladder, in commit order: follow ``next``
    (``after=next``) to read on, from any cursor.

    Args:
        ladder (str):
        after (int | Unset): Items after this cursor (0: from the start). Default: 0.
        limit (int | Unset): Items per page. Default: 100.
        follow (bool | Unset): Keep the response open and stream each item as it commits (JSON
            lines, or server-sent events when asked for text/event-stream), with a heartbeat at least
            every 10 s. Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FeedPage | Problem
     """


    return (await asyncio_detailed(
        ladder=ladder,
client=client,
after=after,
limit=limit,
follow=follow,

    )).parsed
