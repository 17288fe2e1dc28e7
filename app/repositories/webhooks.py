"""SQL for webhooks, their delivery log, and the feed's consumers (webhooks and brokers):
how far each got in each ladder, and who delivers for it now (a lease)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, delete, func, or_, select, true, update
from sqlalchemy.orm import Session

from app.models import FeedConsumer, Ladder, Webhook, WebhookDelivery
from app.repositories.base import insert_ignoring_conflicts


class WebhookRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, webhook: Webhook) -> None:
        self.session.add(webhook)
        self.session.flush()

    def get(self, webhook_id: str) -> Webhook | None:
        return self.session.get(Webhook, webhook_id)

    def page(self, owner: str | None, limit: int, offset: int) -> tuple[int, list[Webhook]]:
        """Every webhook (``owner`` None: the admin's view), or those a key created."""
        condition = true() if owner is None else Webhook.owner_key == owner
        total = self.session.scalar(select(func.count()).select_from(Webhook).where(condition))
        rows = self.session.scalars(
            select(Webhook)
            .where(condition)
            .order_by(Webhook.created_at, Webhook.id)
            .limit(limit)
            .offset(offset)
        )
        return total or 0, list(rows)

    def active(self) -> list[Webhook]:
        return list(
            self.session.scalars(
                select(Webhook).where(
                    Webhook.disabled_at.is_(None), Webhook.failing_since.is_(None)
                )
            )
        )

    def forget_ladder(self, ladder_id: str) -> None:
        """Take a deleted ladder out of the webhooks that hear of it (as keys.forget_ladder:
        a ladder made later under its id is not theirs; an empty list hears of none)."""
        for webhook in self.session.scalars(select(Webhook)):
            if webhook.ladders is not None and ladder_id in webhook.ladders:
                webhook.ladders = [ladder for ladder in webhook.ladders if ladder != ladder_id]
        self.session.flush()

    def remove(self, webhook_id: str) -> None:
        self.session.execute(delete(FeedConsumer).where(FeedConsumer.consumer == webhook_id))
        self.session.execute(delete(Webhook).where(Webhook.id == webhook_id))

    def log(self, delivery: WebhookDelivery) -> None:
        self.session.add(delivery)

    def deliveries(
        self, webhook_id: str, limit: int, offset: int
    ) -> tuple[int, list[WebhookDelivery]]:
        """Newest first."""
        condition = WebhookDelivery.webhook_id == webhook_id
        total = self.session.scalar(
            select(func.count()).select_from(WebhookDelivery).where(condition)
        )
        rows = self.session.scalars(
            select(WebhookDelivery)
            .where(condition)
            .order_by(WebhookDelivery.id.desc())
            .limit(limit)
            .offset(offset)
        )
        return total or 0, list(rows)


class ConsumerRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def ladder_cursors(self) -> dict[str, int]:
        """Every ladder's last feed cursor."""
        return {
            row[0]: row[1] for row in self.session.execute(select(Ladder.id, Ladder.feed_cursor))
        }

    def of(self, consumer: str) -> dict[str, FeedConsumer]:
        rows = self.session.scalars(select(FeedConsumer).where(FeedConsumer.consumer == consumer))
        return {row.ladder_id: row for row in rows}

    def ensure(self, rows: Sequence[dict[str, object]]) -> None:
        """Start consumers of ladders (``consumer``, ``ladder_id``, ``delivered``) that have
        none yet; another process creating the same ones meanwhile is fine."""
        insert_ignoring_conflicts(self.session, FeedConsumer, list(rows))

    def due(self, consumers: Sequence[str], now: datetime, limit: int) -> list[FeedConsumer]:
        """Consumers with items to deliver, not waiting for a retry, not leased."""
        if not consumers:
            return []
        return list(
            self.session.scalars(
                select(FeedConsumer)
                .join(Ladder, Ladder.id == FeedConsumer.ladder_id)
                .where(
                    FeedConsumer.consumer.in_(list(consumers)),
                    Ladder.feed_cursor > FeedConsumer.delivered,
                    or_(
                        FeedConsumer.next_attempt_at.is_(None), FeedConsumer.next_attempt_at <= now
                    ),
                    or_(FeedConsumer.leased_until.is_(None), FeedConsumer.leased_until < now),
                )
                .order_by(FeedConsumer.next_attempt_at.nulls_first(), FeedConsumer.ladder_id)
                .limit(limit)
            )
        )

    def take_lease(
        self, consumer: str, ladder_id: str, lease: str, now: datetime, until: datetime
    ) -> FeedConsumer | None:
        """The consumer's row if this lease took it (nobody held it, or the holder's lease ran
        out); None if another process holds it. One atomic update."""
        taken = self.session.execute(
            update(FeedConsumer)
            .where(
                FeedConsumer.consumer == consumer,
                FeedConsumer.ladder_id == ladder_id,
                or_(FeedConsumer.leased_until.is_(None), FeedConsumer.leased_until < now),
            )
            .values(lease=lease, leased_until=until)
            .execution_options(synchronize_session=False)
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return self.session.scalars(
            select(FeedConsumer).where(
                FeedConsumer.consumer == consumer, FeedConsumer.ladder_id == ladder_id
            )
        ).one()

    def advance(
        self,
        consumer: str,
        ladder_id: str,
        lease: str,
        *,
        delivered: int | None = None,
        attempts: int = 0,
        next_attempt_at: datetime | None = None,
        leased_until: datetime | None = None,
        last_error: str | None = None,
    ) -> bool:
        """Record progress under ``lease`` (False: the lease was lost, nothing recorded):
        what is delivered, the failures of the next item, and the lease's new end (None:
        released)."""
        values: dict[str, object] = {
            "attempts": attempts,
            "next_attempt_at": next_attempt_at,
            "leased_until": leased_until,
            "lease": lease if leased_until is not None else None,
            "last_error": last_error,
        }
        if delivered is not None:
            values["delivered"] = delivered
        done = self.session.execute(
            update(FeedConsumer)
            .where(
                and_(
                    FeedConsumer.consumer == consumer,
                    FeedConsumer.ladder_id == ladder_id,
                    FeedConsumer.lease == lease,
                )
            )
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def rewind(self, consumer: str, after: int, ladder_id: str | None) -> None:
        """Deliver again every item after cursor ``after`` (a replay) of one ladder, or of
        every ladder the consumer follows, at once."""
        condition = FeedConsumer.consumer == consumer
        if ladder_id is not None:
            condition = and_(condition, FeedConsumer.ladder_id == ladder_id)
        self.session.execute(
            update(FeedConsumer)
            .where(condition)
            .values(delivered=after, attempts=0, next_attempt_at=None, last_error=None)
            .execution_options(synchronize_session=False)
        )
