"""SQL for API keys and their rate-limit windows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session

from app.models import AddressWindow, ApiKey, RateWindow

#: What checking a request's key reads of it.
_KEY_COLUMNS = (
    ApiKey.id,
    ApiKey.secret_hash,
    ApiKey.scopes,
    ApiKey.ladders,
    ApiKey.communities,
    ApiKey.revoked_at,
    ApiKey.expires_at,
)
#: The same upsert on both databases (SQLite has ON CONFLICT and RETURNING since 3.35),
#: built once: a group commit counts its keys' requests in every transaction.
_COUNT = text(
    "INSERT INTO rate_windows (key_id, window_start, count) VALUES (:key, :window, :weight) "
    "ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_windows.count + :weight "
    "RETURNING count"
)

_COUNT_ADDRESS = text(
    "INSERT INTO address_windows (address, window_start, count) "
    "VALUES (:address, :window, :weight) ON CONFLICT (address, window_start) "
    "DO UPDATE SET count = address_windows.count + :weight RETURNING count"
)


class KeyRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, key: ApiKey) -> None:
        self.session.add(key)
        self.session.flush()

    def get(self, key_id: str) -> ApiKey | None:
        return self.session.get(ApiKey, key_id)

    def page(self, limit: int, offset: int) -> tuple[int, list[ApiKey]]:
        total = self.session.scalar(select(func.count()).select_from(ApiKey)) or 0
        rows = self.session.scalars(
            select(ApiKey).order_by(ApiKey.created_at, ApiKey.id).limit(limit).offset(offset)
        )
        return total, list(rows)

    def forget_ladder(self, ladder_id: str) -> None:
        """Take a deleted ladder out of the keys limited to it: a ladder made later under
        the same id (maybe in another community) is not theirs. A key left with no ladder
        sees none (an empty list is not every ladder)."""
        for key in self.session.scalars(select(ApiKey)):
            if ladder_id in key.ladders:
                key.ladders = [ladder for ladder in key.ladders if ladder != ladder_id]
        self.session.flush()

    def revoke(self, key_id: str, at: datetime) -> None:
        self.session.execute(
            update(ApiKey)
            .where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
            .values(revoked_at=at)
        )

    def with_counts(self, key_ids: Sequence[str], window_start: int) -> dict[str, Any]:
        """The keys of ``key_ids`` that exist (the columns a request's check reads, by
        attribute, and ``count``: the requests counted in its window starting at
        ``window_start``), in one statement whatever the number of keys; plain rows, not
        ORM objects: a group commit reads them for every request it writes."""
        in_window = (RateWindow.key_id == ApiKey.id) & (RateWindow.window_start == window_start)
        rows = self.session.execute(
            select(*_KEY_COLUMNS, func.coalesce(RateWindow.count, 0).label("count"))
            .outerjoin(RateWindow, in_window)
            .where(ApiKey.id.in_(sorted(set(key_ids))))
        )
        return {row.id: row for row in rows}

    def count_requests(self, key_id: str, window_start: int, weight: int = 1) -> int:
        """Add ``weight`` requests to the key's window and return the window's count (one
        atomic upsert: replicas counting at once queue on the row)."""
        count = self.session.execute(
            _COUNT, {"key": key_id, "window": window_start, "weight": weight}
        ).scalar()
        return int(count or 0)

    def forget_windows_before(self, key_id: str, window_start: int) -> None:
        self.session.execute(
            delete(RateWindow).where(
                RateWindow.key_id == key_id, RateWindow.window_start < window_start
            )
        )

    def count_address(self, address: str, window_start: int, weight: int = 1) -> int:
        """Add ``weight`` requests to the address's window and return the window's count
        (one atomic upsert, as :meth:`count_requests`)."""
        count = self.session.execute(
            _COUNT_ADDRESS, {"address": address, "window": window_start, "weight": weight}
        ).scalar()
        return int(count or 0)

    def forget_address_windows_before(self, window_start: int) -> None:
        """Every address's windows before ``window_start`` (the table keeps one minute)."""
        self.session.execute(delete(AddressWindow).where(AddressWindow.window_start < window_start))
