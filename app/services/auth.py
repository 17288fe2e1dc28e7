"""Who is calling: the admin token or an API key, with scopes and ladders.

Keys look like ``rk_<id>_<secret>``. Only HMAC-SHA256(key secret, key) is stored, compared in
constant time. Nothing is cached between requests, so a revocation takes effect on every
replica at once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.core.database import Database, RaceLost
from app.core.errors import (
    DomainError,
    Forbidden,
    Invalid,
    NotFound,
    TooManyRequests,
    Unauthorized,
)
from app.core.logging import note
from app.models import ApiKey
from app.repositories.keys import KeyRepository
from app.repositories.ladders import LadderRepository
from app.schemas.keys import KeyCreated, KeyIn, KeyList, KeyOut
from app.services.runtime import now

KEY_PREFIX = "rk_"
KEY_ID_BYTES = 6
KEY_SECRET_BYTES = 32
READ = "read"
RESULTS_WRITE = "results:write"
LADDERS_ADMIN = "ladders:admin"
SCOPES = (READ, RESULTS_WRITE, LADDERS_ADMIN)
ALL_LADDERS = "*"
ALL_COMMUNITIES = "*"
#: The rate limit's fixed window (seconds).
RATE_WINDOW_SECONDS = 60
#: Label that derives the key-hash secret from the admin token when none is configured.
DERIVATION_LABEL = b"ratings api key hashing v1"


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller. The admin holds every scope on every ladder of every community, and manages
    keys. A key may be limited to ladders and to communities (API.md "Communities"): it sees a
    ladder that both admit. ``community_ladders`` holds the ids of its communities' ladders,
    read with the key (None: the key has every community)."""

    scopes: frozenset[str]
    ladders: frozenset[str]
    key_id: str | None = None
    is_admin: bool = False
    communities: frozenset[str] = frozenset({ALL_COMMUNITIES})
    community_ladders: frozenset[str] | None = None

    def require_scope(self, scope: str) -> None:
        if not self.is_admin and scope not in self.scopes:
            raise Forbidden(f"this key lacks the {scope!r} scope")

    @property
    def every_ladder(self) -> bool:
        """Whether the key is limited to no ladder list (its communities may still limit it)."""
        return self.is_admin or ALL_LADDERS in self.ladders

    def sees_community(self, community: str) -> bool:
        return self.is_admin or ALL_COMMUNITIES in self.communities or community in self.communities

    def sees(self, ladder_id: str) -> bool:
        if self.is_admin:
            return True
        if self.community_ladders is not None and ladder_id not in self.community_ladders:
            return False
        return ALL_LADDERS in self.ladders or ladder_id in self.ladders

    def may_create(self, ladder_id: str, community: str) -> bool:
        """Whether the key may create ladder ``ladder_id`` in ``community``."""
        ladder_ok = self.every_ladder or ladder_id in self.ladders
        return ladder_ok and self.sees_community(community)

    def visible_ladders(self) -> frozenset[str] | None:
        """The ids of the ladders the key sees (None: every ladder)."""
        if self.is_admin:
            return None
        if self.community_ladders is None:
            return None if ALL_LADDERS in self.ladders else self.ladders
        if ALL_LADDERS in self.ladders:
            return self.community_ladders
        return self.ladders & self.community_ladders

    def check_ladder(self, ladder_id: str) -> None:
        """A key limited to other ladders sees this one as if it did not exist."""
        note(ladder=ladder_id)
        if not self.sees(ladder_id):
            raise NotFound(f"ladder {ladder_id!r} does not exist")


ADMIN = Principal(scopes=frozenset(SCOPES), ladders=frozenset({ALL_LADDERS}), is_admin=True)
PUBLIC_READER = Principal(scopes=frozenset({READ}), ladders=frozenset({ALL_LADDERS}))


def hashing_secret(admin_token: str | None, key_secret: str | None) -> bytes | None:
    if key_secret:
        return key_secret.encode()
    if admin_token:
        return hmac.new(admin_token.encode(), DERIVATION_LABEL, hashlib.sha256).digest()
    return None


def _digest(secret: bytes, token: str) -> str:
    return hmac.new(secret, token.encode(), hashlib.sha256).hexdigest()


def is_admin_token(admin_token: str | None, token: str) -> bool:
    return admin_token is not None and hmac.compare_digest(token.encode(), admin_token.encode())


#: What a rate-limited caller is told of its window (the RateLimit-* headers): its limit, the
#: requests it has left, and the seconds until the window ends.
RateState = tuple[int, int, int]


def rate_state(limit: int, count: int, window: int, moment: float) -> RateState:
    return limit, max(0, limit - count), int(window + RATE_WINDOW_SECONDS - moment) + 1


@dataclass(slots=True)
class KeyClaim:
    """An API key as a request presented it, not verified yet: a write verifies and counts it
    in its own transaction (:class:`Admission`), any other request in one of its own
    (:func:`authenticate`). Carries what the check needs: the key's id, the keyed hash of the
    token, the scope the route needs and the rate limit."""

    key_id: str
    digest: str
    scope: str
    per_minute: int
    #: Verified and counted in a committed transaction, or refused with nothing to count
    #: (401, 429): the request's error path must not count it again.
    settled: bool = False
    #: The key's principal once a committed transaction verified and counted it: a later
    #: transaction of the same request (a game a group handed back) neither reads nor counts
    #: it again.
    principal: Principal | None = None
    #: The key's window once counted (sent as RateLimit-* headers).
    rate: RateState | None = None


#: Who a request says it is: the admin (known at once) or an API key still to verify.
Caller = Principal | KeyClaim


def claim(
    admin_token: str | None, secret: bytes | None, token: str, scope: str, per_minute: int
) -> Caller:
    """The caller a bearer token names, checked as far as it can be without the database:
    the admin token, or the claim of a well-formed key (401 otherwise)."""
    if is_admin_token(admin_token, token):
        return ADMIN
    if secret is None or not token.startswith(KEY_PREFIX) or token.count("_") < 2:
        raise Unauthorized("the bearer token is not valid")
    key_id = token[len(KEY_PREFIX) :].split("_", 1)[0]
    return KeyClaim(key_id, _digest(secret, token), scope, per_minute)


def _window(moment: float) -> int:
    return int(moment // RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS


def _too_many(per_minute: int, window: int, moment: float) -> TooManyRequests:
    return TooManyRequests(
        f"more than {per_minute} requests this minute for this key; retry later",
        int(window + RATE_WINDOW_SECONDS - moment) + 1,
    )


#: The ids of the ladders of some communities, read in the transaction at hand.
LaddersOf = Callable[[frozenset[str]], frozenset[str]]


def ladders_reader(session: Session) -> LaddersOf:
    """Reads the ladders of a set of communities once per transaction (a group commit checks
    many requests of one key)."""
    found: dict[frozenset[str], frozenset[str]] = {}

    def ladders_of(communities: frozenset[str]) -> frozenset[str]:
        if communities not in found:
            ids = LadderRepository(session).ids_in_communities(communities)
            found[communities] = frozenset(ids)
        return found[communities]

    return ladders_of


def _verified(key: Any, claim: KeyClaim, ladders_of: LaddersOf) -> Principal:
    """The key's principal; 401 for an unknown, malformed, revoked or expired key. A key
    limited to communities gets their ladders, read by ``ladders_of`` in the transaction that
    uses the principal to write, or in the request's key check just before its read."""
    # Compare even when the key is unknown, so timing does not tell which ids exist.
    expected = key.secret_hash if key is not None else "0" * 64
    valid = hmac.compare_digest(expected, claim.digest)
    if key is None or not valid:
        claim.settled = True
        raise Unauthorized("the bearer token is not valid")
    if key.revoked_at is not None:
        claim.settled = True
        raise Unauthorized("this key has been revoked")
    if key.expires_at is not None and key.expires_at <= now():
        claim.settled = True
        raise Unauthorized("this key has expired")
    # The key's public id (never its secret): who made the request, in its log line.
    note(key_id=key.id)
    communities = frozenset(key.communities)
    community_ladders = None if ALL_COMMUNITIES in communities else ladders_of(communities)
    return Principal(
        scopes=frozenset(key.scopes),
        ladders=frozenset(key.ladders),
        key_id=key.id,
        communities=communities,
        community_ladders=community_ladders,
    )


class Admission:
    """The callers of one write, checked in its transaction, and the requests their keys count
    at its end (:meth:`settle`, just before the commit: a window's row stays locked only
    that long).

    A key whose window is full is refused at once (429). Counting at the end is exact across
    replicas: a transaction that finds its window past the limit after its own count (another
    replica counted meanwhile) is rolled back and run again (:class:`RaceLost`), and then
    finds the window full.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.moment = time.time()
        self.window = _window(self.moment)
        #: Per key: (requests to count, limit).
        self._pending: dict[str, list[int]] = {}
        self._claims: list[tuple[KeyClaim, Principal]] = []
        self._ladders_of = ladders_reader(session)

    def admit(self, callers: Sequence[Caller], ladder_id: str) -> list[Principal | DomainError]:
        """Each caller's principal, or why it is refused (401, 403, 404, 429), for a write
        to ``ladder_id``; the admitted keys' requests are counted by :meth:`settle`."""
        claims = [c for c in callers if isinstance(c, KeyClaim) and c.principal is None]
        found = (
            KeyRepository(self.session).with_counts([c.key_id for c in claims], self.window)
            if claims
            else {}
        )
        admitted: list[Principal | DomainError] = []
        for caller in callers:
            try:
                admitted.append(self._admit(caller, found, ladder_id))
            except DomainError as exc:
                admitted.append(exc)
        return admitted

    def admit_one(self, caller: Caller, ladder_id: str) -> Principal:
        [admitted] = self.admit([caller], ladder_id)
        if isinstance(admitted, DomainError):
            raise admitted
        return admitted

    def _admit(self, caller: Caller, found: dict[str, Any], ladder_id: str) -> Principal:
        if isinstance(caller, Principal):
            caller.check_ladder(ladder_id)
            return caller
        if caller.principal is not None:  # counted by an earlier transaction of the request
            principal = caller.principal
        else:
            key = found.get(caller.key_id)
            count = key.count if key is not None else 0
            principal = _verified(key, caller, self._ladders_of)
            limit = caller.per_minute
            pending = self._pending.setdefault(caller.key_id, [0, limit])
            if limit > 0 and count + pending[0] >= limit:
                caller.settled = True
                caller.rate = rate_state(limit, limit, self.window, self.moment)
                raise _too_many(limit, self.window, self.moment)
            pending[0] += 1
            self._claims.append((caller, principal))
        principal.require_scope(caller.scope)
        principal.check_ladder(ladder_id)
        return principal

    def settle(self) -> None:
        """Count the admitted requests; :class:`RaceLost` if a window went past its limit."""
        keys = KeyRepository(self.session)
        for key_id, (weight, limit) in sorted(self._pending.items()):
            if not weight:
                continue
            total = keys.count_requests(key_id, self.window, weight)
            if total == weight:  # the window's first requests: older windows are done
                keys.forget_windows_before(key_id, self.window)
            if 0 < limit < total:
                raise RaceLost(f"key {key_id}: its window passed the limit meanwhile")
            if limit > 0:
                state = rate_state(limit, total, self.window, self.moment)
                for claim, _principal in self._claims:
                    if claim.key_id == key_id:
                        claim.rate = state

    def committed(self) -> None:
        """The transaction that counted the claims committed."""
        for claim, principal in self._claims:
            claim.settled, claim.principal = True, principal


def authenticate(db: Database, claim: KeyClaim, weight: int = 1) -> Principal:
    """Verify the key and count the request (``weight`` times) in one transaction; 401, 429 or
    403 (a valid key's request counts even so)."""
    moment = time.time()
    window = _window(moment)

    def work(session: Session) -> tuple[Principal, int]:
        keys = KeyRepository(session)
        key = keys.with_counts([claim.key_id], window).get(claim.key_id)
        principal = _verified(key, claim, ladders_reader(session))
        count = keys.count_requests(claim.key_id, window, weight)
        if count == weight:
            keys.forget_windows_before(claim.key_id, window)
        return principal, count

    principal, count = db.run(work)
    claim.settled = True
    if claim.per_minute > 0:
        claim.rate = rate_state(claim.per_minute, count, window, moment)
    if 0 < claim.per_minute < count:
        raise _too_many(claim.per_minute, window, moment)
    principal.require_scope(claim.scope)
    return principal


def count_request(
    db: Database, principal: Principal, per_minute: int, weight: int = 1
) -> RateState | None:
    """Count ``weight`` more requests of an identified key (a heavy read by its cost,
    app.services.heavy); its window after, or 429 past ``per_minute``."""
    if principal.key_id is None or per_minute <= 0:
        return None
    moment = time.time()
    window = _window(moment)
    key_id = principal.key_id
    count = db.run(lambda session: KeyRepository(session).count_requests(key_id, window, weight))
    if count > per_minute:
        raise _too_many(per_minute, window, moment)
    return rate_state(per_minute, count, window, moment)


def count_address(db: Database, address: str, per_minute: int, weight: int = 1) -> RateState | None:
    """Count ``weight`` requests without a key from ``address`` (``RATINGS_PUBLIC_READS``) in
    the database, so every replica shares the window as for a key; its window after (None:
    no limit), or 429 past ``per_minute``. The first request of a window forgets the older
    windows of every address: the table holds about a minute of addresses."""
    if per_minute <= 0:
        return None
    moment = time.time()
    window = _window(moment)

    def work(session: Session) -> int:
        keys = KeyRepository(session)
        count = keys.count_address(address, window, weight)
        if count == weight:
            keys.forget_address_windows_before(window)
        return count

    count = db.run(work)
    if count > per_minute:
        raise TooManyRequests(
            f"more than {per_minute} requests this minute from this address without a "
            "key; retry later, or use an API key",
            int(window + RATE_WINDOW_SECONDS - moment) + 1,
        )
    return rate_state(per_minute, count, window, moment)


def create_key(db: Database, secret: bytes | None, body: KeyIn) -> KeyCreated:
    if secret is None:
        raise Invalid.at((), "keys need RATINGS_KEY_SECRET or RATINGS_ADMIN_TOKEN to be set")
    key_id = secrets.token_hex(KEY_ID_BYTES)
    token = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(KEY_SECRET_BYTES)}"
    stamp = now()
    if body.expires_at is not None and body.expires_at <= stamp:
        raise Invalid.at(("expires_at",), "must be in the future")
    key = ApiKey(
        id=key_id,
        name=body.name,
        secret_hash=_digest(secret, token),
        scopes=sorted(set(body.scopes)),
        ladders=sorted(set(body.ladders)),
        communities=sorted(set(body.communities)),
        created_at=stamp,
        expires_at=body.expires_at,
    )
    db.run(lambda session: KeyRepository(session).add(key))
    return KeyCreated(**_out(key).model_dump(), key=token)


def _out(key: ApiKey) -> KeyOut:
    return KeyOut(
        id=key.id,
        name=key.name,
        prefix=f"{KEY_PREFIX}{key.id}_",
        scopes=list(key.scopes),
        ladders=list(key.ladders),
        communities=list(key.communities),
        created_at=key.created_at,
        expires_at=key.expires_at,
        revoked_at=key.revoked_at,
    )


def list_keys(db: Database, limit: int, offset: int) -> KeyList:
    def work(session: Session) -> KeyList:
        total, keys = KeyRepository(session).page(limit, offset)
        return KeyList(total=total, keys=[_out(k) for k in keys])

    return db.run(work, write=False)


def revoke_key(db: Database, key_id: str) -> KeyOut:
    def work(session: Session) -> KeyOut:
        repo = KeyRepository(session)
        if repo.get(key_id) is None:
            raise NotFound(f"key {key_id!r} does not exist")
        repo.revoke(key_id, now())
        session.expire_all()
        key = repo.get(key_id)
        assert key is not None
        return _out(key)

    return db.run(work)
