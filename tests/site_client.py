"""A test browser that asks the site as its server does: through the ASGI application
(``yatzy_site.asgi``), the door in front of Django's handler included (the limits,
``yatzy_site/door.py``). Django's test Client calls the handler itself, past the door.

Its answers come from a thread of the handler's own, on a database connection of its
own: a test that uses it wants ``django_db(transaction=True)``.

It is a Django test Client's browser: the same cookies (a session made by one is the
other's) and address (``REMOTE_ADDR``), and like the Client it sends the CSRF token a
page would. Answers are read whole, redirects not followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.test import Client

from yatzy_site.asgi import application

CSRF_SECRET = "a" * 32  # a token of the form Django makes; any such one matches itself
TIMEOUT_S = 60


@dataclass
class Answer:
    status_code: int
    headers: dict[str, str]  # lowercased names
    content: bytes

    def __getitem__(self, name: str) -> str:
        return self.headers[name.lower()]


class AtTheDoor:
    """``client``'s browser, asking through the door."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def get(self, path: str, **extra: str) -> Answer:
        return self.request("GET", path, b"", extra)

    def post(self, path: str, data: dict[str, str] | None = None, **extra: str) -> Answer:
        body = urlencode(data or {}, doseq=True).encode()
        extra = {"CONTENT_TYPE": "application/x-www-form-urlencoded", **extra}
        return self.request("POST", path, body, extra)

    def request(self, method: str, path: str, body: bytes, extra: dict[str, str]) -> Answer:
        cookies = self.client.cookies
        if "csrftoken" not in cookies:
            cookies["csrftoken"] = CSRF_SECRET
        meta = {**self.client.defaults, **extra}
        headers = [(b"host", b"testserver"), (b"x-csrftoken", cookies["csrftoken"].value.encode())]
        cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
        headers.append((b"cookie", cookie.encode()))
        for key, value in meta.items():
            if key.startswith("HTTP_"):
                headers.append((key[5:].lower().replace("_", "-").encode(), value.encode()))
            elif key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                headers.append((key.lower().replace("_", "-").encode(), value.encode()))
        parts = urlsplit(path)
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": parts.path,
            "raw_path": parts.path.encode(),
            "query_string": parts.query.encode(),
            "root_path": "",
            "headers": headers,
            "client": (meta.get("REMOTE_ADDR", "127.0.0.1"), 50000),
            "server": ("testserver", 80),
        }
        answer = async_to_sync(ask)(scope, body)
        for value in answer.pop("set-cookie"):
            cookies.load(value)
        return Answer(**answer)


async def ask(scope: dict, body: bytes) -> dict:
    talk = ApplicationCommunicator(application, scope)
    await talk.send_input({"type": "http.request", "body": body})
    start = await talk.receive_output(TIMEOUT_S)
    content = b""
    while True:
        part = await talk.receive_output(TIMEOUT_S)
        content += part.get("body", b"")
        if not part.get("more_body"):
            break
    await talk.wait(TIMEOUT_S)
    headers: dict[str, str] = {}
    set_cookie: list[str] = []
    for name, value in start.get("headers", []):
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        if key == "set-cookie":
            set_cookie.append(text)
        else:
            headers[key] = text
    return {
        "status_code": start["status"],
        "headers": headers,
        "content": content,
        "set-cookie": set_cookie,
    }
