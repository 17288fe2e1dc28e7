"""Settings from the environment (prefix ``RATINGS_``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path("data")
DEFAULT_SQLITE_URL = f"sqlite:///{DEFAULT_DATA_DIR / 'ratings.db'}"


class Settings(BaseSettings):
    """Everything configurable, read once per process."""

    model_config = SettingsConfigDict(env_prefix="RATINGS_", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_SQLITE_URL,
        description="SQLAlchemy URL; sqlite:///path or postgresql+psycopg://...",
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1, le=64)
    admin_token: str | None = Field(default=None, min_length=16)
    #: Where ``ratings serve`` keeps a generated admin token when none is configured.
    admin_token_file: Path = DEFAULT_DATA_DIR / "admin_token"
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
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    max_players_per_game: int = Field(default=100, ge=2, le=100)
    max_standings: int = Field(default=10_000, ge=2, le=10_000)
    max_batch_games: int = Field(default=10_000, ge=1, le=10_000)
    #: Heavy reads (docs/operations.md "Heavy requests"). Players per POST /predictions:
    #: amounts are computed per pair of players, so a table costs its size squared.
    max_prediction_players: int = Field(default=100, ge=2, le=100)
    #: Players times placements per tournament prediction.
    max_prediction_placements: int = Field(default=10_000, ge=1, le=100_000)
    #: Events a POST /ladders/{ladder}/whatif may replay.
    max_whatif_events: int = Field(default=100_000, ge=1)
    #: Heavy reads (predictions, what-ifs) computing at once in each process; the others
    #: wait for a slot without holding a thread or a connection. Each computing one takes
    #: its share of the process's one interpreter lock from every other request.
    heavy_concurrency: int = Field(default=1, ge=1, le=64)
    #: Most games one transaction records together when POST /games requests arrive at the
    #: same time (group commit); 0 records each in its own transaction.
    write_group_max: int = Field(default=64, ge=0, le=1_000)
    #: Origins allowed by CORS (comma-separated), e.g. "https://lobby.example.org".
    cors_origins: str = ""


@lru_cache
def get_settings() -> Settings:
    return Settings()
