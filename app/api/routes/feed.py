"""The change feed: GET /ladders/{ladder}/feed, as pages or followed as it grows."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import StreamingResponse

from app.api.deps import Reader
from app.api.query import LadderId
from app.core.database import Database
from app.core.errors import DomainError
from app.schemas.common import MAX_PAGE_SIZE
from app.schemas.feed import FeedItemOut, FeedPage, feed_page
from app.services import feed

router = APIRouter(tags=["feed"])

DEFAULT_FEED_PAGE = 100
#: How often a followed feed looks for new items (each look is one short read).
POLL_SECONDS = 0.5
#: A followed feed sends something at least this often, so proxies and clients keep it open.
HEARTBEAT_SECONDS = 10.0
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"

After = Annotated[int, Query(ge=0, description="Items after this cursor (0: from the start).")]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="Items per page.")]
Follow = Annotated[
    bool,
    Query(
        description="Keep the response open and stream each item as it commits (JSON lines, "
        "or server-sent events when asked for text/event-stream), with a heartbeat at least "
        f"every {HEARTBEAT_SECONDS:g} s."
    ),
]


@router.get("/ladders/{ladder}/feed", response_model=FeedPage)
async def get_feed(
    request: Request,
    ladder: LadderId,
    caller: Reader,
    after: After = 0,
    limit: Limit = DEFAULT_FEED_PAGE,
    follow: Follow = False,
    last_event_id: Annotated[int | None, Header(ge=0, include_in_schema=False)] = None,
) -> Response | FeedPage:
    """What each committed write changed in the ladder, in commit order: follow ``next``
    (``after=next``) to read on, from any cursor."""
    caller.check_ladder(ladder)
    db: Database = request.app.state.db
    if last_event_id is not None:  # an EventSource reconnecting names the last item it had
        after = max(after, last_event_id)
    items = await anyio.to_thread.run_sync(feed.page, db, ladder, after, limit)
    if not follow:
        return feed_page(ladder, after, items)
    sse = SSE in request.headers.get("accept", "")
    stream = _follow(db, ladder, after, items, limit, sse)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream, media_type=SSE if sse else NDJSON, headers=headers)


async def _follow(
    db: Database, ladder: str, after: int, items: list[dict[str, Any]], limit: int, sse: bool
) -> AsyncIterator[bytes]:
    """Each item as it commits, and a heartbeat when there has been nothing for a while; ends
    when the client goes (Starlette cancels it) or the ladder does."""
    sent_at = time.monotonic()
    while True:
        for item in items:
            yield _encoded(item, sse)
            after, sent_at = item["cursor"], time.monotonic()
        if time.monotonic() - sent_at >= HEARTBEAT_SECONDS:
            yield b": heartbeat\n\n" if sse else b"\n"
            sent_at = time.monotonic()
        if len(items) < limit:
            await anyio.sleep(POLL_SECONDS)
        try:
            items = await anyio.to_thread.run_sync(feed.page, db, ladder, after, limit)
        except DomainError:  # the ladder is gone (404), or the database (503): reconnect
            return


def _encoded(item: dict[str, Any], sse: bool) -> bytes:
    document = FeedItemOut.model_validate(item).model_dump_json()
    if sse:
        return f"id: {item['cursor']}\nevent: {item['type']}\ndata: {document}\n\n".encode()
    return document.encode() + b"\n"
