"""Settings from the environment (prefix ``RATINGS_``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path("data")
DEFAULT_SQLITE_URL = f"sqlite:///{DEFAULT_DATA_DIR / 'ratings.db'}"
DEFAULT_ADMIN_TOKEN_FILE = DEFAULT_DATA_DIR / "admin_token"
MIB = 1024 * 1024
#: Body bytes POST /games/batch allows per game by default: a two-player game whose four
#: identifiers all have the 100 characters API.md allows takes about 530 bytes of JSON with
#: spaces after the separators; 1 KiB leaves room for factions, scores and event details.
BATCH_BYTES_PER_GAME = 1024


class Settings(BaseSettings):
    """Everything configurable, read once per process."""

    model_config = SettingsConfigDict(env_prefix="RATINGS_", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_SQLITE_URL,
        description="SQLAlchemy URL; sqlite:///path or postgresql+psycopg://...",
    )
    #: A hot standby of the database for heavy reads (what-if, evaluation, as-of boards);
    #: PostgreSQL only. Each such read first waits for it to replay what the primary had
    #: committed, else runs on the primary (app/core/database.py, Database._on_replica).
    read_database_url: str | None = None
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1, le=64)
    #: Without it, the token kept in ``admin_token_file`` (``ratings serve`` generates one).
    admin_token: str | None = Field(default=None, min_length=16)
    #: Where ``ratings serve`` keeps a generated admin token when none is configured.
    admin_token_file: Path = DEFAULT_ADMIN_TOKEN_FILE
    public_reads: bool = False
    log_level: str = "INFO"
    #: Connections per process (PostgreSQL); SQLite uses a small pool of its own.
    pool_size: int = Field(default=10, ge=1, le=200)
    pool_overflow: int = Field(default=10, ge=0, le=200)
    #: How long a writer waits for SQLite's write lock before giving up (seconds).
    sqlite_busy_timeout: float = Field(default=30.0, gt=0)
    #: Attempts for a transaction that hit a deadlock, serialization failure or lock timeout.
    write_retries: int = Field(default=8, ge=1, le=100)
    #: Secret for the keyed hash of API keys; default: derived from the admin token.
    #: Every replica must share it (as they share the admin token).
    key_secret: str | None = Field(default=None, min_length=16)
    #: Requests per minute per API key, across all replicas (0: no limit). The admin token
    #: is not limited.
    rate_limit_per_minute: int = Field(default=1_200, ge=0)
    #: Requests per minute per client address for reads without a key under
    #: ``public_reads``, in each process (0: no limit). Heavy reads count by their cost.
    public_reads_per_minute: int = Field(default=600, ge=0)
    #: Request limits (413 for the body, 422 for the rest).
    max_body_bytes: int = Field(default=MIB, ge=1024)
    #: POST /games/batch's own body limit; default: max_batch_games × BATCH_BYTES_PER_GAME
    #: (10 MiB for 10,000 games), so the largest batch allowed can be sent.
    max_batch_body_bytes: int | None = Field(default=None, ge=1024)
    #: Of a body over its limit, how many more bytes are read and thrown away before the 413,
    #: so that a client that sends its whole body before reading (Python's urllib, most
    #: HTTP/1.1 clients) gets the 413 rather than a reset connection. Past it the connection
    #: is closed at once.
    max_discard_bytes: int = Field(default=8 * MIB, ge=0)
    #: Seconds a connection may wait for a request's headers: idle between requests
    #: (keep-alive), new, or trickling them; then it is closed (granian's header read
    #: timeout). Longer than what a client or load balancer in front keeps one idle (httpx
    #: 5 s, nginx's upstream 15 s in deploy/nginx.conf): a request sent as the server closes
    #: the connection fails with a reset, and a POST is not resent for the client.
    keep_alive_timeout: float = Field(default=20.0, ge=1)
    #: Seconds a stopping worker (SIGTERM, a reload) gives its in-flight requests before it is
    #: killed (granian's workers_kill_timeout); a little before, the worker answers what is
    #: still running 503 with Retry-After and rolls its work back (app/core/shutdown.py).
    shutdown_grace_seconds: int = Field(default=20, ge=1, le=3600)
    #: Players per game a request may carry, whatever the ladder (API.md: an Elo-MMR ladder
    #: takes games this large): each game ladder's own ``max_field_players`` (100 by default
    #: outside the large-field systems) is the limit that usually applies.
    max_field_players: int = Field(default=20_000, ge=2, le=100_000)
    max_standings: int = Field(default=10_000, ge=2, le=10_000)
    max_batch_games: int = Field(default=10_000, ge=1, le=10_000)
    #: Heavy reads (docs/operations.md "Heavy requests"). Players per POST /predictions:
    #: amounts are computed per pair of players, so a table costs its size squared.
    max_prediction_players: int = Field(default=100, ge=2, le=100)
    #: Players times placements per tournament prediction.
    max_prediction_placements: int = Field(default=10_000, ge=1, le=100_000)
    #: Events a POST /ladders/{ladder}/whatif may replay.
    max_whatif_events: int = Field(default=100_000, ge=1)
    #: Events a POST /ladders/{ladder}/evaluate or /tune may replay in all: the ladder's live
    #: events once per candidate (grid point). Past it: the command line (ratings evaluate).
    max_evaluate_events: int = Field(default=200_000, ge=1)
    #: Heavy reads (predictions, what-ifs) computing at once in each process; the others
    #: wait for a slot without holding a thread or a connection. Each computing one takes
    #: its share of the process's one interpreter lock from every other request.
    heavy_concurrency: int = Field(default=1, ge=1, le=64)
    #: Milliseconds of a heavy request's computing that count as one request in the rate
    #: limit, charged after it computed beyond its estimate (docs/operations.md "Request
    #: classes and costs"): 50 ms lets the default limit keep about one slot busy.
    cost_unit_ms: int = Field(default=50, ge=1, le=60_000)
    #: Most games one transaction records together when POST /games requests arrive at the
    #: same time (group commit); 0 records each in its own transaction.
    write_group_max: int = Field(default=64, ge=0, le=1_000)
    #: Seconds a result's time (played_at, an adjustment's at) may lie ahead of the server's
    #: clock: a client's clock runs a little ahead. Later ones are refused (422).
    future_tolerance_seconds: float = Field(default=300.0, ge=0, le=86_400)
    #: Origins allowed by CORS (comma-separated), e.g. "https://lobby.example.org".
    cors_origins: str = ""
    #: Webhook hosts allowed although they are loopback, private or link-local addresses
    #: (comma-separated host names or addresses); every other such destination is refused.
    webhook_allowed_hosts: str = ""
    #: Seconds an endpoint has to answer a delivery before it counts as failed.
    webhook_timeout: float = Field(default=15.0, gt=0, le=300)
    #: Seconds before each retry of a failed delivery; past the last, the endpoint is marked
    #: failing (API.md: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
    webhook_retry_seconds: str = "5,300,1800,7200,18000,36000,36000"
    #: Brokers the feed's items are also published to (none by default).
    feed_nats_url: str | None = None
    feed_amqp_url: str | None = None
    #: How often a process looks for feed items to deliver (webhooks, brokers).
    delivery_poll_seconds: float = Field(default=1.0, gt=0, le=60)
    #: How long a process may hold a consumer's deliveries before another may take them over
    #: (renewed with each item delivered): longer than a delivery takes.
    delivery_lease_seconds: float = Field(default=60.0, gt=0, le=3600)
    #: How often a process looks for whole-history fits to bring back to convergence.
    convergence_poll_seconds: float = Field(default=1.0, gt=0, le=3600)
    #: How long a process may hold a ladder's convergence before another may take it over:
    #: longer than a refit of the ladder takes (if it runs out mid-fit, the other process's
    #: refit waits for the ladder's lock, finds the fit converged, and stops).
    convergence_lease_seconds: float = Field(default=600.0, gt=0, le=86400)

    @field_validator("webhook_retry_seconds")
    @classmethod
    def _schedule(cls, value: str) -> str:
        try:
            delays = [float(part) for part in value.split(",")]
        except ValueError:
            raise ValueError("must be seconds separated by commas, e.g. 5,300,1800") from None
        if not delays or any(not 0 < delay < 10**7 for delay in delays):
            raise ValueError("must list at least one delay, each above 0 seconds")
        return value

    @property
    def allowed_webhook_hosts(self) -> frozenset[str]:
        return frozenset(
            h.strip().lower() for h in self.webhook_allowed_hosts.split(",") if h.strip()
        )

    @property
    def retry_schedule(self) -> tuple[float, ...]:
        return tuple(float(part) for part in self.webhook_retry_seconds.split(",") if part.strip())

    @model_validator(mode="before")
    @classmethod
    def _token_from_file(cls, data: Any) -> Any:
        """The kept token, so that ``ratings serve``'s workers need it in no environment."""
        if isinstance(data, dict) and not data.get("admin_token"):
            path = Path(data.get("admin_token_file") or DEFAULT_ADMIN_TOKEN_FILE)
            try:
                token = path.read_text().strip()
            except FileNotFoundError:
                token = ""
            if token:
                data = {**data, "admin_token": token}
        return data

    @property
    def batch_body_limit(self) -> int:
        """POST /games/batch's body limit: ``max_batch_body_bytes``, or by default derived from
        the batch limit (never below the general limit)."""
        if self.max_batch_body_bytes is not None:
            return self.max_batch_body_bytes
        return max(self.max_batch_games * BATCH_BYTES_PER_GAME, self.max_body_bytes)


@lru_cache
def get_settings() -> Settings:
    return Settings()
