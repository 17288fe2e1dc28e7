"""SQL for API keys and their rate-limit windows."""

from __future__ import annotations

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

    def count_request(self, key_id: str, window_start: int) -> int:
        """Add one request to the key's window and return the window's count (atomic upsert)."""
        dialect_insert = postgresql.insert if is_postgres(self.session) else sqlite.insert
        insert = dialect_insert(RateWindow).values(
            key_id=key_id, window_start=window_start, count=1
        )
        upsert = insert.on_conflict_do_update(
            index_elements=[RateWindow.key_id, RateWindow.window_start],
            set_={"count": RateWindow.count + 1},
        ).returning(RateWindow.count)
        count = self.session.scalar(upsert)
        return int(count or 0)

    def forget_windows_before(self, key_id: str, window_start: int) -> None:
        self.session.execute(
            delete(RateWindow).where(
                RateWindow.key_id == key_id, RateWindow.window_start < window_start
            )
        )
