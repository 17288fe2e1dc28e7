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
    stop_after: float | None = None,
) -> Iterator[FeedItemOut]:
    """Every item of ``ladder`` after cursor ``after``, in cursor order, as it commits.

    Reconnects from the last item yielded when the stream ends, breaks, or stays silent for
    ``idle_timeout`` seconds (the service sends a heartbeat at least every 10 s), waiting
    ``retry_delay`` (or a 429's or 503's Retry-After) first; so no item is skipped or repeated.
    Stop by leaving the loop (closing the generator closes the connection), or after
    ``stop_after`` seconds: the generator then ends, and the last cursor you applied is where
    the next call resumes."""
    http = client.get_httpx_client()
    path = f"/ladders/{quote(ladder, safe='')}/feed"
    deadline = None if stop_after is None else time.monotonic() + stop_after

    def left() -> float:
        return idle_timeout if deadline is None else min(idle_timeout, deadline - time.monotonic())

    while left() > 0:
        wait = retry_delay
        try:
            with http.stream(
                "GET",
                path,
                params={"after": after, "follow": "true"},
                headers={"Accept": NDJSON},
                timeout=httpx.Timeout(left(), connect=min(10.0, left())),
            ) as response:
                if response.status_code == 429 or response.status_code >= 500:
                    retry_after = response.headers.get("retry-after", "")
                    wait = float(retry_after) if retry_after.isdigit() else retry_delay
                elif response.status_code != 200:
                    response.read()
                    try:
                        problem = response.json()
                    except ValueError:
                        problem = response.text
                    raise FeedError(response.status_code, problem)
                else:
                    for line in response.iter_lines():
                        if line.strip():  # an empty line is a heartbeat
                            item = FeedItemOut.from_dict(json.loads(line))
                            after = item.cursor
                            yield item
                        if left() <= 0:
                            return
        except httpx.TransportError:
            pass  # a broken or silent stream (or time is up): resume from ``after``
        time.sleep(max(0.0, min(wait, left())))
