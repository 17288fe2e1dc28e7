"""A PostgreSQL primary and a streaming standby of its own, for the failover test: two
clusters made with initdb and pg_basebackup in a temporary directory, on free ports of
127.0.0.1, run as the ``postgres`` account (PostgreSQL refuses to run as root).

The primary waits for the standby's flush before a commit returns
(``synchronous_standby_names``, ``synchronous_commit = on``): an acknowledged write is on
both. The standby is set up to be promoted: as a primary it has no standby of its own, so
its ``synchronous_standby_names`` is empty (else every commit would wait for a standby that
is not there).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.faults.helpers import require
from tests.helpers import free_port

ACCOUNT = "postgres"
STANDBY_NAME = "standby1"
DATABASE = "ratings"
#: Seconds for a cluster to start, stop, or be promoted.
PATIENCE = 60


def _bin_directory() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    return Path(found[-1]).parent if found else None


def _version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


class PostgresPair:
    def __init__(self) -> None:
        binaries = _bin_directory()
        require(binaries is not None, "no PostgreSQL server binaries in /usr/lib/postgresql")
        require(os.geteuid() == 0 and shutil.which("runuser") is not None, "needs root and runuser")
        try:
            account = pwd.getpwnam(ACCOUNT)
        except KeyError:
            account = None
        require(account is not None, f"no {ACCOUNT!r} account to run PostgreSQL as")
        assert binaries is not None
        assert account is not None
        self.bin = binaries
        self.uid, self.gid = account.pw_uid, account.pw_gid
        self.root = Path(tempfile.mkdtemp(prefix="ratings-failover-"))
        os.chown(self.root, self.uid, self.gid)
        self.root.chmod(0o700)
        self.primary = self.root / "primary"
        self.standby = self.root / "standby"
        self.primary_port = free_port()
        self.standby_port = free_port()
        self.running: set[Path] = set()

    # -- commands ---------------------------------------------------------------------------

    def _as_postgres(self, *command: str, timeout: float = PATIENCE) -> str:
        done = subprocess.run(
            ["runuser", "-u", ACCOUNT, "--", *command],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert done.returncode == 0, f"{' '.join(command)}: {done.stdout}{done.stderr}"
        return done.stdout

    def _tool(self, name: str, *args: str, timeout: float = PATIENCE) -> str:
        return self._as_postgres(str(self.bin / name), *args, timeout=timeout)

    def psql(self, port: int, sql: str, database: str = "postgres") -> str:
        return self._tool(
            "psql", "-h", "127.0.0.1", "-p", str(port), "-d", database, "-XAtqc", sql
        ).strip()

    def _pg_ctl(self, data: Path, *args: str) -> None:
        self._tool("pg_ctl", "-D", str(data), "-w", "-t", str(PATIENCE), *args)

    # -- the pair ---------------------------------------------------------------------------

    def start(self) -> None:
        self._tool("initdb", "-D", str(self.primary), "-U", ACCOUNT, "-A", "trust", "--no-sync")
        conf = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.primary_port),
            "unix_socket_directories": f"'{self.root}'",
            "wal_level": "replica",
            "max_wal_senders": "5",
            "hot_standby": "on",
            "synchronous_commit": "on",
            "synchronous_standby_names": f"'FIRST 1 ({STANDBY_NAME})'",
            "max_connections": "60",
            "fsync": "off",  # a test's cluster: durability against power loss is not tested
            "logging_collector": "off",
        }
        with (self.primary / "postgresql.conf").open("a") as out:
            out.writelines(f"{name} = {value}\n" for name, value in conf.items())
        with (self.primary / "pg_hba.conf").open("a") as out:
            out.write("host replication all 127.0.0.1/32 trust\n")
        self._start(self.primary)
        self._tool(
            "pg_basebackup",
            "-D",
            str(self.standby),
            "-R",  # standby.signal and primary_conninfo
            "-X",
            "stream",
            "-d",
            f"host=127.0.0.1 port={self.primary_port} user={ACCOUNT} "
            f"application_name={STANDBY_NAME}",
        )
        with (self.standby / "postgresql.auto.conf").open("a") as out:
            out.write(f"port = {self.standby_port}\n")
            out.write("synchronous_standby_names = ''\n")
        self._start(self.standby)
        deadline = time.monotonic() + PATIENCE
        while self.sync_state() != "sync":
            assert time.monotonic() < deadline, "the standby never became synchronous"
            time.sleep(0.1)
        self.psql(self.primary_port, f"CREATE DATABASE {DATABASE}")

    def _start(self, data: Path) -> None:
        self._pg_ctl(data, "-l", str(data.parent / f"{data.name}.log"), "start")
        self.running.add(data)

    def sync_state(self) -> str:
        return self.psql(
            self.primary_port,
            f"SELECT sync_state FROM pg_stat_replication WHERE application_name = '{STANDBY_NAME}'",
        )

    def url(self) -> str:
        """Both hosts; libpq takes the first that accepts writes."""
        return (
            f"postgresql+psycopg://{ACCOUNT}@/{DATABASE}?host=127.0.0.1:{self.primary_port}"
            f"&host=127.0.0.1:{self.standby_port}&target_session_attrs=read-write"
        )

    def primary_url(self) -> str:
        return f"postgresql+psycopg://{ACCOUNT}@127.0.0.1:{self.primary_port}/{DATABASE}"

    def standby_url(self) -> str:
        return f"postgresql+psycopg://{ACCOUNT}@127.0.0.1:{self.standby_port}/{DATABASE}"

    def stop_standby(self) -> None:
        self._pg_ctl(self.standby, "-m", "fast", "stop")
        self.running.discard(self.standby)

    def stop_primary(self) -> None:
        """The primary fails: stopped at once (``immediate``: no shutdown checkpoint, every
        connection dropped, as a crash leaves it)."""
        self._pg_ctl(self.primary, "-m", "immediate", "stop")
        self.running.discard(self.primary)

    def promote(self) -> None:
        self._pg_ctl(self.standby, "promote")

    def stop(self) -> None:
        for data in list(self.running):
            try:
                self._pg_ctl(data, "-m", "immediate", "stop")
            finally:
                self.running.discard(data)
        shutil.rmtree(self.root, ignore_errors=True)
