"""The HTTP edges a client meets first: the documentation pages, the body limits and read
timeouts (against the real server, ``ratings serve``), the token checked before the body, and
error messages that say what to do (issues 23 and 24)."""

from __future__ import annotations

import http.client
import json
import re
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest

from app.api.routes import docs
from app.cli import ensure_admin_token
from app.core.database import Database
from app.core.settings import Settings
from app.main import create_app
from tests.api.live_server import GRACE_SECONDS, Served, serving
from tests.conftest import ADMIN_TOKEN, AUTH, make_settings
from tests.helpers import at, game, make_ladder

pytestmark = pytest.mark.anyio


def _client(database: Database, **settings: object) -> httpx.AsyncClient:
    app = create_app(make_settings(**settings), database=database)
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test", headers=AUTH
    )


# --- /docs and /redoc ----------------------------------------------------------------------

#: src= and href= attributes, and the two attributes that name the OpenAPI document.
URL_ATTRIBUTES = re.compile(r'(?:src|href|data-openapi|spec-url)="([^"]*)"')


@pytest.mark.parametrize(("page", "tool"), [("/docs", b"SwaggerUIBundle"), ("/redoc", b"Redoc")])
async def test_documentation_pages_load_only_local_assets(
    client: httpx.AsyncClient, page: str, tool: bytes
) -> None:
    response = await client.get(page, headers={"Authorization": ""})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    # Only this origin: no host, scheme or 'unsafe-eval' is allowed anywhere, nor inline script.
    assert "script-src 'self';" in policy + ";"
    assert not re.search(r"https?:|\*|unsafe-eval", policy), policy
    urls = URL_ATTRIBUTES.findall(response.text)
    assert len(urls) >= 3, response.text  # icon, script(s), OpenAPI document
    scripts = []
    for url in urls:
        # Relative: this origin, under whatever prefix a proxy adds.
        assert "//" not in url, url
        assert not url.startswith("/"), url
        asset = await client.get(
            urljoin(str(client.base_url) + page, url), headers={"Authorization": ""}
        )
        assert asset.status_code == 200, url
        if url.endswith(".js"):
            assert asset.headers["content-type"].startswith("text/javascript"), url
            scripts.append(asset.content)
        if url == "openapi.json":
            assert asset.json()["info"]["title"] == "Ratings"
    assert any(tool in script for script in scripts)


async def test_swagger_ui_starts_without_inline_script(client: httpx.AsyncClient) -> None:
    html = (await client.get("/docs")).text
    assert "<script>" not in html
    assert "<script " in html
    assert "'unsafe-inline'" not in (await client.get("/docs")).headers["content-security-policy"]
    # The start script turns off the online validator, which would send the document away.
    init = await client.get(f"/docs/static/{docs.BUNDLE.version}/swagger-init.js")
    assert "validatorUrl: null" in init.text


async def test_documentation_assets_are_cached_under_their_version(
    client: httpx.AsyncClient,
) -> None:
    current = await client.get(f"/docs/static/{docs.BUNDLE.version}/redoc.standalone.js")
    assert "immutable" in current.headers["cache-control"]
    older = await client.get("/docs/static/000000000000/redoc.standalone.js")
    assert (older.status_code, older.headers["cache-control"]) == (200, "no-cache")
    assert older.content == current.content
    missing = await client.get(f"/docs/static/{docs.BUNDLE.version}/app.py")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"


# --- a real server on 127.0.0.1 -----------------------------------------------------------


def _closed_by_server(connection: socket.socket, within: float = GRACE_SECONDS) -> bytes:
    """What the server sent until it closed the connection (fails if it does not)."""
    connection.settimeout(within)
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"the server kept the connection open; it sent {received[:200]!r}")
    return received


def _post_with_urllib(port: int, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """urllib sends the whole body before it reads anything (and asks for Connection: close)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": AUTH["Authorization"]},
    )
    try:
        with urllib.request.urlopen(request, timeout=GRACE_SECONDS * 10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        problem: dict[str, Any] = {"content-type": error.headers["content-type"]}
        return error.code, {**json.loads(error.read()), **problem}


LIMIT = 4096
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``ratings serve`` with a body limit of LIMIT bytes (and the default discard bound)."""
    with serving(tmp_path_factory.mktemp("limited"), RATINGS_MAX_BODY_BYTES=str(LIMIT)) as server:
        yield server


def test_an_oversized_body_sent_before_reading_gets_its_413(limited: Served) -> None:
    # Megabytes: more than the sockets' buffers hold, so the client is still sending when the
    # server answers (a small body would be buffered whole and read after the close).
    oversized = json.dumps({**game("club", "g1", {"a": 1, "b": 2}), "pad": "x" * 4 * MIB})
    status, problem = _post_with_urllib(limited.port, "/games", oversized.encode())
    assert status == 413
    assert problem["content-type"] == "application/problem+json"
    assert problem["title"] == "Payload too large"
    assert str(LIMIT) in problem["detail"]
    # A chunked body (no Content-Length) is counted as it comes, with the same answer.
    connection = http.client.HTTPConnection("127.0.0.1", limited.port, timeout=GRACE_SECONDS * 10)
    chunks = (oversized[i : i + LIMIT].encode() for i in range(0, len(oversized), LIMIT))
    connection.request("POST", "/games", body=chunks, headers={**AUTH}, encode_chunked=True)
    response = connection.getresponse()
    assert (response.status, response.getheader("connection")) == (413, "close")
    connection.close()


def test_a_client_that_waits_for_100_continue_gets_the_413_at_once(limited: Served) -> None:
    with socket.create_connection(("127.0.0.1", limited.port)) as connection:
        connection.sendall(
            b"POST /games HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
            b"Content-Length: 5000\r\n\r\n"
        )
        answer = _closed_by_server(connection)
        assert answer.startswith(b"HTTP/1.1 413 ")
        assert b"100 Continue" not in answer


def test_a_body_past_the_discard_bound_is_cut_off_at_once(tmp_path: Path) -> None:
    with (
        serving(
            tmp_path, RATINGS_MAX_BODY_BYTES=str(LIMIT), RATINGS_MAX_DISCARD_BYTES="0"
        ) as server,
        socket.create_connection(("127.0.0.1", server.port)) as connection,
    ):
        # Declared too large and not sent: the answer comes without the body being read.
        connection.sendall(b"POST /games HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        answer = _closed_by_server(connection)
        assert answer.startswith(b"HTTP/1.1 413 ")


def test_connections_that_send_no_headers_in_time_are_closed(tmp_path: Path) -> None:
    """granian's header read timeout, RATINGS_KEEP_ALIVE_TIMEOUT: a connection that sends
    nothing, trickles its headers, or idles after a request is closed; one whose requests each
    arrive at once is served for as long as it likes."""
    timeout = 1.0
    with serving(tmp_path, RATINGS_KEEP_ALIVE_TIMEOUT=str(timeout)) as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        trickling = socket.create_connection(("127.0.0.1", server.port))
        for byte in b"GET /healthz HTTP/1.1\r\nHost: t\r\n":
            try:
                trickling.send(bytes([byte]))
            except OSError:  # closed by the server: the point of the test
                break
            time.sleep(timeout / 10)
        assert _closed_by_server(trickling, timeout + GRACE_SECONDS) == b""
        assert _closed_by_server(silent, timeout + GRACE_SECONDS) == b""
        trickling.close()
        silent.close()
        idle = socket.create_connection(("127.0.0.1", server.port))
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        assert _closed_by_server(idle, timeout + GRACE_SECONDS).startswith(b"HTTP/1.1 200 ")
        idle.close()
        # The timer counts per request: a keep-alive connection used for longer than the
        # timeout, each request's headers sent at once, is served throughout.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=GRACE_SECONDS)
        for _ in range(4):
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
            time.sleep(timeout / 2)
        connection.close()


# --- the batch limit and the body limit agree ----------------------------------------------

#: The most compact games: one-character ladder and players, ids "0".."9999" (API.md ids).
COMPACT = (",", ":")


def _batch(count: int, identifier: str = "", separators: tuple[str, str] = COMPACT) -> bytes:
    ladder = identifier or "c"
    games = [
        {
            "ladder": ladder,
            "id": identifier or str(number),
            "played_at": at(number),
            "players": [
                {"player": identifier or "a", "rank": 1},
                {"player": (identifier[:-1] + "b") if identifier else "b", "rank": 2},
            ],
        }
        for number in range(count)
    ]
    return json.dumps({"games": games}, separators=separators).encode()


async def test_a_batch_of_the_most_games_allowed_fits_the_default_limits(
    database: Database,
) -> None:
    defaults = Settings()
    count = defaults.max_batch_games
    body = _batch(count)
    # The general limit alone would refuse it (issue 23: about 8,600 such games fit).
    assert len(body) > defaults.max_body_bytes
    async with _client(database) as http_client:
        await make_ladder(http_client, "c", "elo")
        response = await http_client.post(
            "/games/batch", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 200, response.text[:500]
        assert response.json()["created"] == count
        assert (await http_client.get("/ladders/c")).json()["games"] == count


def test_the_default_batch_limit_holds_as_many_games_with_the_longest_ids() -> None:
    defaults = Settings()
    # 100 characters: the longest identifier API.md allows, with json.dumps' default spacing.
    longest = _batch(defaults.max_batch_games, "x" * 100, separators=(", ", ": "))
    assert len(longest) <= defaults.batch_body_limit


async def test_a_batch_over_its_own_limit_is_413(database: Database) -> None:
    limit = 2048
    async with _client(database, max_batch_body_bytes=limit) as http_client:
        body = _batch(40)
        assert len(body) > limit
        response = await http_client.post(
            "/games/batch", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 413
        assert f"limit of {limit} bytes" in response.json()["detail"]


# --- the token before the body ---------------------------------------------------------------

MALFORMED = b'{"ladder": "club", '
NOT_UTF8 = b'{"ladder": "\xff"}'


@pytest.mark.parametrize("body", [MALFORMED, NOT_UTF8])
@pytest.mark.parametrize(
    "authorization", ["Bearer not-a-valid-token", "Bearer rk_notakey.secret", ""]
)
async def test_an_invalid_token_gets_401_whatever_the_body(
    client: httpx.AsyncClient, body: bytes, authorization: str
) -> None:
    for path in ("/games", "/games/batch", "/ladders", "/keys", "/predictions"):
        response = await client.post(
            path,
            content=body,
            headers={"content-type": "application/json", "Authorization": authorization},
        )
        assert response.status_code == 401, (path, response.text)
        assert response.headers["www-authenticate"] == "Bearer"


async def test_a_valid_token_with_malformed_json_gets_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/games", content=MALFORMED, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422


async def test_public_reads_need_no_token_to_hear_about_the_body(database: Database) -> None:
    async with _client(database, public_reads=True) as http_client:
        response = await http_client.post(
            "/predictions",
            content=MALFORMED,
            headers={"content-type": "application/json", "Authorization": ""},
        )
        assert response.status_code == 422
        refused = await http_client.post(
            "/games",
            content=MALFORMED,
            headers={"content-type": "application/json", "Authorization": ""},
        )
        assert refused.status_code == 401


# --- error messages a person can act on -----------------------------------------------------


def _only_error(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    problem: dict[str, Any] = response.json()
    assert len(problem["errors"]) == 1, problem
    error: dict[str, Any] = problem["errors"][0]
    assert not error["msg"].startswith("Value error"), error
    return error


GAME = json.dumps(game("club", "g1", {"a": 1, "b": 2})).encode()


@pytest.mark.parametrize(
    ("content_type", "says"),
    [(None, "has no Content-Type"), ("text/plain", "has Content-Type: text/plain")],
)
async def test_a_body_without_the_json_content_type_is_told_so(
    client: httpx.AsyncClient, content_type: str | None, says: str
) -> None:
    await make_ladder(client, "club", "elo")
    headers = {"content-type": content_type} if content_type else {}
    request = client.build_request("POST", "/games", content=GAME, headers=headers)
    assert request.headers.get("content-type") == content_type  # httpx adds none for bytes
    error = _only_error(await client.send(request))
    assert error == {
        "loc": [],
        "msg": f"must be JSON, sent with Content-Type: application/json; this request {says}",
    }


async def test_invalid_json_is_located_by_line_and_column(client: httpx.AsyncClient) -> None:
    document = '{"ladder": "club",\n "id": "g1",}'
    # The "}" after the trailing comma: line 2, column 13 (counted from 1 as editors do).
    with pytest.raises(json.JSONDecodeError) as decoding:
        json.loads(document)
    assert (decoding.value.lineno, decoding.value.colno) == (2, 13)
    response = await client.post(
        "/games", content=document.encode(), headers={"content-type": "application/json"}
    )
    error = _only_error(response)
    assert error == {
        "loc": [],
        "msg": f"invalid JSON at line 2 column 13: {decoding.value.msg}",
    }
    assert response.json()["detail"] == f"body: {error['msg']}"


@pytest.mark.parametrize(
    ("path", "raw", "loc"),
    [
        ("/ladders", b'{"id": "x", "system": "elo", "params": {"k": NaN}}', ["params", "k"]),
        (
            "/games",
            GAME.replace(b'"rank": 2', b'"rank": Infinity'),
            ["players", 1, "rank"],
        ),
    ],
)
async def test_nan_and_infinity_name_their_field(
    client: httpx.AsyncClient, path: str, raw: bytes, loc: list[Any]
) -> None:
    await make_ladder(client, "club", "elo")
    response = await client.post(path, content=raw, headers={"content-type": "application/json"})
    assert _only_error(response) == {"loc": loc, "msg": "NaN and Infinity are not allowed"}
    dotted = ".".join(str(part) for part in loc)
    assert response.json()["detail"] == f"{dotted}: NaN and Infinity are not allowed"


async def test_a_validator_message_has_no_pydantic_prefix(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    body = game("club", "g1", {"a": 1, "b": 2})
    body["players"].append({"player": "a", "rank": 2})
    response = await client.post("/games", json=body)
    assert response.status_code == 422
    assert all(not e["msg"].startswith("Value error") for e in response.json()["errors"])
    assert "Value error" not in response.json()["detail"]


# --- the generated admin token ---------------------------------------------------------------


def test_a_generated_token_is_shown_on_the_terminal_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(admin_token=None, admin_token_file=tmp_path / "data" / "admin_token")
    terminal = tmp_path / "tty"
    token = ensure_admin_token(settings, terminal=terminal)
    assert len(token) >= len(ADMIN_TOKEN)
    assert settings.admin_token_file.read_text() == token + "\n"
    assert token in terminal.read_text()
    captured = capsys.readouterr()
    assert token not in captured.err + captured.out + caplog.text
    # The next start reads the file and shows nothing.
    terminal.unlink()
    assert ensure_admin_token(settings, terminal=terminal) == token
    assert not terminal.exists()


def test_without_a_terminal_the_log_names_the_file_not_the_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(admin_token=None, admin_token_file=tmp_path / "admin_token")
    with caplog.at_level("INFO"):
        token = ensure_admin_token(settings, terminal=tmp_path / "no-such-dir" / "tty")
    assert settings.admin_token_file.read_text() == token + "\n"
    assert str(settings.admin_token_file) in caplog.text
    captured = capsys.readouterr()
    assert token not in captured.err + captured.out + caplog.text


def test_without_a_configured_token_the_settings_read_the_kept_one(tmp_path: Path) -> None:
    path = tmp_path / "admin_token"
    assert Settings(admin_token=None, admin_token_file=path).admin_token is None
    path.write_text("kept-token-0123456789\n")
    assert Settings(admin_token=None, admin_token_file=path).admin_token == "kept-token-0123456789"
    configured = Settings(admin_token=ADMIN_TOKEN, admin_token_file=path)
    assert configured.admin_token == ADMIN_TOKEN
