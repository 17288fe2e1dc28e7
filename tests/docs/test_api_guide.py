"""docs/api.md, run: every example in order against a fresh service, on each database.

The guide's convention (stated at its top): an example is a fenced ``http`` block holding a
request (request line, headers, a blank line, the body) followed by a fenced ``http`` block
holding the response (status line, headers worth showing, a blank line, the JSON body). Each
shown status, header and field is checked: objects may leave fields out, lists are shown
whole, a number with decimals matches to the digits shown and one without is exact, and a
string "$NAME" is a value the service generates, captured for the later examples that use
$NAME ($TOKEN is the admin token).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.main import create_app
from tests.conftest import ADMIN_TOKEN, make_settings

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
#: A fenced block: its info string (the language) and its text.
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
#: A generated value in a response, and its use in a later request.
VARIABLE = re.compile(r"\$([A-Z][A-Z0-9_]*)")
WHOLE_VARIABLE = re.compile(r"^\$([A-Z][A-Z0-9_]*)$")
STATUS_LINE = re.compile(r"^HTTP/1\.1 (\d{3})(?: .*)?$")
#: The guide is the tour of the whole API: far fewer examples means the parser lost them.
MIN_EXAMPLES = 90


class Shown(Decimal):
    """A number with decimals as the guide writes it: its digits say how exact it is."""


@dataclass(frozen=True)
class Message:
    line: int  # of the block's first line in docs/api.md, for failure messages
    start: str
    headers: list[tuple[str, str]]
    body: str


@dataclass(frozen=True)
class Example:
    request: Message
    response: Message


def _message(text: str, line: int) -> Message:
    head, _, body = text.strip("\n").partition("\n\n")
    start, *header_lines = head.split("\n")
    headers = []
    for header in header_lines:
        name, colon, value = header.partition(":")
        assert colon, f"docs/api.md:{line}: header line without a colon: {header!r}"
        headers.append((name.strip(), value.strip()))
    return Message(line, start.strip(), headers, body.strip())


def load_examples(markdown: str) -> list[Example]:
    """The guide's ``http`` blocks, paired: each request with the block right after it."""
    blocks = [
        _message(m.group(2), markdown.count("\n", 0, m.start()) + 2)
        for m in FENCE.finditer(markdown)
        if m.group(1) == "http"
    ]
    examples = []
    for request, response in zip(blocks[::2], blocks[1::2], strict=True):
        assert not STATUS_LINE.match(request.start), (
            f"docs/api.md:{request.line}: a response where a request should be"
        )
        assert STATUS_LINE.match(response.start), (
            f"docs/api.md:{response.line}: the request of line {request.line} is not "
            "followed by its response"
        )
        examples.append(Example(request, response))
    return examples


def _substitute(text: str, variables: dict[str, str], line: int) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in variables, f"docs/api.md:{line}: ${name} is used before it is shown"
        return variables[name]

    return VARIABLE.sub(value, text)


def _matches(shown: Any, actual: Any, where: str, variables: dict[str, str]) -> None:
    """Every field of ``shown`` is in ``actual``, as the guide's convention reads it."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in shown.items():
            assert key in actual, f"{where}: no field {key!r} in {sorted(actual)}"
            _matches(value, actual[key], f"{where}.{key}", variables)
    elif isinstance(shown, list):
        assert isinstance(actual, list), f"{where}: {actual!r} is not a list"
        assert len(actual) == len(shown), f"{where}: {len(actual)} items, shown {len(shown)}"
        for index, (item, real) in enumerate(zip(shown, actual, strict=True)):
            _matches(item, real, f"{where}[{index}]", variables)
    elif isinstance(shown, str) and (variable := WHOLE_VARIABLE.match(shown)):
        name = variable.group(1)
        assert actual is not None, f"{where}: no value for ${name}"
        if name in variables:
            assert str(actual) == variables[name], f"{where}: {actual!r} is not ${name}"
        else:
            variables[name] = str(actual)
    elif isinstance(shown, Shown | int) and not isinstance(shown, bool):
        assert not isinstance(actual, bool), f"{where}: {actual!r} is not a number"
        assert isinstance(actual, int | float), f"{where}: {actual!r} is not a number"
        if isinstance(shown, int):
            assert actual == shown, f"{where}: {actual!r}, shown exactly {shown}"
        else:
            exponent = shown.as_tuple().exponent
            assert isinstance(exponent, int)
            half_digit = Decimal(5).scaleb(exponent - 1)
            assert abs(Decimal(repr(actual)) - shown) <= half_digit, (
                f"{where}: {actual!r} does not round to the shown {shown}"
            )
    else:  # strings, booleans and null are shown exactly
        assert type(actual) is type(shown), f"{where}: {actual!r}, shown {shown!r}"
        assert actual == shown, f"{where}: {actual!r}, shown {shown!r}"


async def _run(client: httpx.AsyncClient, example: Example, variables: dict[str, str]) -> None:
    request, response = example.request, example.response
    where = f"docs/api.md:{request.line} ({request.start})"
    method, _, target = _substitute(request.start, variables, request.line).partition(" ")
    headers = {n: _substitute(v, variables, request.line) for n, v in request.headers}
    body = _substitute(request.body, variables, request.line).encode()
    answer = await client.request(method, target.strip(), headers=headers, content=body)
    status = STATUS_LINE.match(response.start)
    assert status is not None
    assert answer.status_code == int(status.group(1)), (
        f"{where}: status {answer.status_code}, shown {status.group(1)}: {answer.text}"
    )
    for name, shown_value in response.headers:
        # A header may use values shown earlier ($NAME), as an ETag names a game's seq.
        value = _substitute(shown_value, variables, response.line)
        assert answer.headers.get(name) == value, (
            f"{where}: header {name}: {answer.headers.get(name)!r}, shown {value!r}"
        )
    if response.body:
        shown = json.loads(response.body, parse_float=Shown)
        _matches(shown, answer.json(), where, variables)


@pytest.fixture
async def bare_client(database: Database) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a fresh service that sends only the headers the guide shows."""
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://ratings.test") as http:
        yield http


def test_the_guide_has_its_examples() -> None:
    examples = load_examples(GUIDE.read_text(encoding="utf-8"))
    assert len(examples) >= MIN_EXAMPLES


@pytest.mark.anyio
async def test_every_example_of_the_guide_answers_as_shown(
    bare_client: httpx.AsyncClient,
) -> None:
    variables = {"TOKEN": ADMIN_TOKEN}
    for example in load_examples(GUIDE.read_text(encoding="utf-8")):
        await _run(bare_client, example, variables)


def _shown(text: str) -> Any:
    return json.loads(text, parse_float=Shown)


@pytest.mark.parametrize(
    ("shown", "actual"),
    [
        ('{"rating": 1616.37}', {"rating": 1616.3683729286413, "games": 2}),
        ('{"rating": 1616.37}', {"rating": 1616.375}),
        ('{"delta": 16}', {"delta": 16.0}),
        ('{"e": 1e-6}', {"e": 0.0000014}),
        ('[{"id": "f-1"}, {"id": "f-2"}]', [{"id": "f-1", "seq": 3}, {"id": "f-2"}]),
        ('{"win_rate": null, "rated": false}', {"win_rate": None, "rated": False}),
    ],
)
def test_a_shown_response_matches_what_it_shows(shown: str, actual: Any) -> None:
    _matches(_shown(shown), actual, "example", {})


@pytest.mark.parametrize(
    ("shown", "actual"),
    [
        ('{"rating": 1616.37}', {"rating": 1616.3751}),  # more than half a shown digit away
        ('{"delta": 16}', {"delta": 16.0001}),  # no decimals: exact
        ('{"games": 2}', {"wins": 2}),  # a shown field is missing
        ('[{"id": "f-1"}]', [{"id": "f-1"}, {"id": "f-2"}]),  # lists are shown whole
        ('{"rated": 1}', {"rated": True}),  # a boolean is not a number
        ('{"rated": false}', {"rated": 0}),
        ('{"id": "f-1"}', {"id": "f-10"}),
        ('{"seq": "$SEQ"}', {"seq": 4}),  # $SEQ was 3 earlier
        ('{"key": "$NEW"}', {"key": None}),  # a generated value must be there
    ],
)
def test_a_shown_response_fails_on_any_difference(shown: str, actual: Any) -> None:
    with pytest.raises(AssertionError):
        _matches(_shown(shown), actual, "example", {"SEQ": "3"})


def test_a_generated_value_is_captured_for_later_requests() -> None:
    variables: dict[str, str] = {}
    _matches(_shown('{"key": "$KEY"}'), {"key": "rk_1_s"}, "example", variables)
    assert variables == {"KEY": "rk_1_s"}
    assert _substitute("Authorization: Bearer $KEY", variables, 1) == "Authorization: Bearer rk_1_s"
    with pytest.raises(AssertionError):
        _substitute("DELETE /keys/$KEY_ID", variables, 1)


def test_a_request_without_its_response_is_an_error() -> None:
    lonely = "```http\nGET /healthz\n```\n\n```http\nGET /readyz\n```\n"
    with pytest.raises(AssertionError):
        load_examples(lonely)
    paired = lonely.replace("GET /readyz", 'HTTP/1.1 200 OK\n\n{"status": "ok"}')
    (example,) = load_examples(paired)
    assert example.request.start == "GET /healthz"
    assert example.response.body == '{"status": "ok"}'
