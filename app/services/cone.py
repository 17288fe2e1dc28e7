"""The dependency cone of a change to history: the events that can move when some events are
stored, corrected or voided before the end of a ladder's history (SYSTEMS.md's per-rating
systems: an event depends only on its own ratings' states).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from app.repositories.changes import ChangeRepository
from app.repositories.ratings import RatingKey
from app.services.unit_of_work import LadderWrite


@dataclass(frozen=True, slots=True)
class Fresh:
    """A changed event as it stands now (live): its place in history and its ratings."""

    occurred_at: datetime
    seq: int
    keys: frozenset[RatingKey]


@dataclass(slots=True)
class Cone:
    """What a change re-rates, each list in history order."""

    #: The events to replay: the cone, and the live changed events at their new places.
    replayed: list[int] = field(default_factory=list)
    #: The stored events whose changes go: the cone's, and the changed events' (old places).
    deleted: list[int] = field(default_factory=list)
    #: The ratings whose changes go.
    lost: set[RatingKey] = field(default_factory=set)
    #: Every rating the replay rates or rewrites: ``lost`` and the changed events' ratings.
    touched: set[RatingKey] = field(default_factory=set)
    #: Each rating's last change the search saw (of those at or after its start).
    last_seen: dict[RatingKey, int] = field(default_factory=dict)

    def stands(self, rows: Mapping[RatingKey, Any], start: datetime) -> bool:
        """Whether the cone is still the cone, given its ratings' rows locked after it was
        found: every rating still ends at the change the search saw last for it (or, where
        it saw none, still ends before ``start``). A write that extended a rating, or a
        re-rating that rewrote its chain, changed its row's last change."""
        for key in self.touched:
            last = rows[key].last_change_id
            seen = self.last_seen.get(key)
            if seen is not None:
                if last != seen:
                    return False
            elif last is not None and rows[key].last_event_at >= start:
                return False
        return True


def find_cone(
    write: LadderWrite, start: datetime, fresh: Iterable[Fresh], changed: Collection[int]
) -> Cone:
    """The dependency cone of the ``changed`` events, given where the live ones stand now
    (``fresh``).

    A rating is *dirty* from the first place where its history differs: where a changed
    event stood before (its stored changes) or stands now (its current body), or where an
    event of the cone rates it. A stored event at or after ``start`` is in the cone when
    one of its ratings is dirty by then; it makes all of its ratings dirty. Walking the
    stored changes' positions in history order, merged with the changed events' new
    places, finds exactly that. An event's outcome depends only on its own ratings' states
    (every system but a ladder-scoped one), so an event outside the cone met the same
    states it was rated from, and its changes stand; and every change of a dirty rating
    after it became dirty belongs to the cone, so once they are deleted its newest
    surviving change is where its replay starts.
    """
    waiting = deque(sorted(fresh, key=lambda one: (one.occurred_at, one.seq)))
    dirty: set[RatingKey] = set()
    cone = Cone()

    def meet(seq: int, keys: set[RatingKey]) -> None:
        """A stored event (or a changed one where it stood) at its place in the walk."""
        if seq in changed or not dirty.isdisjoint(keys):
            dirty.update(keys)
            cone.lost.update(keys)
            cone.deleted.append(seq)
            if seq not in changed:  # a changed event is replayed at its new place
                cone.replayed.append(seq)

    def admit(fresh: Fresh) -> None:
        """A changed event at its new place."""
        dirty.update(fresh.keys)
        cone.replayed.append(fresh.seq)

    last_seen = cone.last_seen

    def seen(rows: Iterable[tuple[Any, ...]]) -> set[RatingKey]:
        """An event's ratings, from its change rows (id, player, faction last)."""
        keys = set()
        for *_, change_id, player, faction in rows:
            key = (player, faction)
            keys.add(key)
            last_seen[key] = change_id
        return keys

    changes = ChangeRepository(write.session)
    ladder = write.ladder
    # Up to the last changed event's new place, stored events and changed ones interleave;
    # from it only stored events come (and that event's own old changes, if it was corrected
    # in place), and their times are not needed.
    last = (waiting[-1].occurred_at, waiting[-1].seq) if waiting else None
    if last is not None:
        timed = changes.positions_before(ladder.id, start, last)
        for (seq, at), rows in groupby(timed, key=itemgetter(0, 1)):
            while waiting and (waiting[0].occurred_at, waiting[0].seq) < (at, seq):
                admit(waiting.popleft())
            meet(seq, seen(rows))
    for one in waiting:
        admit(one)
    untimed = changes.positions_after(ladder.id, start, last)
    for seq, entries in groupby(untimed, key=itemgetter(0)):
        meet(seq, seen(entries))
    cone.touched = dirty
    return cone
