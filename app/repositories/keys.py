"""SQL for API keys and their rate-limit windows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.models import ApiKey, RateWindow
from app.repositories.base import is_postgres


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

    def revoke(self, key_id: str, at: datetime) -> None:
        self.session.execute(
            update(ApiKey)
            .where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
            .values(revoked_at=at)
        )

    def with_counts(
        self, key_ids: Sequence[str], window_start: int
    ) -> dict[str, tuple[ApiKey, int]]:
        """The keys of ``key_ids`` that exist, each with the requests counted in its window
        starting at ``window_start`` (one statement, whatever the number of keys)."""
        in_window = (RateWindow.key_id == ApiKey.id) & (RateWindow.window_start == window_start)
        rows = self.session.execute(
            select(ApiKey, func.coalesce(RateWindow.count, 0))
            .outerjoin(RateWindow, in_window)
            .where(ApiKey.id.in_(sorted(set(key_ids))))
        )
        return {key.id: (key, int(count)) for key, count in rows}

    def count_requests(self, key_id: str, window_start: int, weight: int = 1) -> int:
        """Add ``weight`` requests to the key's window and return the window's count (one
        atomic upsert: replicas counting at once queue on the row)."""
        dialect_insert = postgresql.insert if is_postgres(self.session) else sqlite.insert
        insert = dialect_insert(RateWindow).values(
            key_id=key_id, window_start=window_start, count=weight
        )
        upsert = insert.on_conflict_do_update(
            index_elements=[RateWindow.key_id, RateWindow.window_start],
            set_={"count": RateWindow.count + weight},
        ).returning(RateWindow.count)
        count = self.session.scalar(upsert)
        return int(count or 0)

    def forget_windows_before(self, key_id: str, window_start: int) -> None:
        self.session.execute(
            delete(RateWindow).where(
                RateWindow.key_id == key_id, RateWindow.window_start < window_start
            )
        )
