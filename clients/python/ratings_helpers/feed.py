"""Following a ladder's change feed (``GET /ladders/{ladder}/feed?follow=true``, JSON lines),
resumed from the last cursor whenever the stream breaks (docs/sync.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
from ratings_client import AuthenticatedClient, Client
from ratings_client.models.feed_item_out import FeedItemOut

NDJSON = "application/x-ndjson"


class FeedError(Exception):
    """An answer that reconnecting will not change (401, 403, 404, 422)."""

    def __init__(self, status: int, problem: Any) -> None:
        super().__init__(f"the feed answered {status}: {problem}")
        self.status = status
        self.problem = problem


def follow_feed(
    client: AuthenticatedClient | Client,
    ladder: str,
    after: int = 0,
    *,
    idle_timeout: float = 30.0,
    retry_delay: float = 1.0,
) -> Iterator[FeedItemOut]:
    """Every item of ``ladder`` after cursor ``after``, in cursor order, as it commits.

    Reconnects from the last item yielded when the stream ends, breaks, or stays silent for
    ``idle_timeout`` seconds (the service sends a heartbeat at least every 10 s), waiting
    ``retry_delay`` (or a 429's or 503's Retry-After) first; so no item is skipped or repeated.
    Stop by leaving the loop: closing the generator closes the connection."""
    http = client.get_httpx_client()
    path = f"/ladders/{quote(ladder, safe='')}/feed"
    timeout = httpx.Timeout(idle_timeout, connect=10.0)
    while True:
        wait = retry_delay
        try:
            with http.stream(
                "GET",
                path,
                params={"after": after, "follow": "true"},
                headers={"Accept": NDJSON},
                timeout=timeout,
            ) as response:
                if response.status_code == 429 or response.status_code >= 500:
                    retry_after = response.headers.get("retry-after", "")
                    wait = float(retry_after) if retry_after.isdigit() else retry_delay
                elif response.status_code != 200:
                    response.read()
                    raise FeedError(response.status_code, response.text)
                else:
                    for line in response.iter_lines():
                        if not line.strip():
                            continue  # a heartbeat
                        item = FeedItemOut.from_dict(json.loads(line))
                        after = item.cursor
                        yield item
        except httpx.TransportError:
            pass  # a broken or silent stream: resume from ``after``
        time.sleep(wait)
