"""A test's WebSocket to the site in this process: it waits as long as a busy machine
needs for what must come (a handshake, a table, a close), bounded by
YATZY_E2E_TIMEOUT_S like the browser tests. Channels' own communicator gives up
after one second, which a loaded CI machine overruns. A wait for what must *not*
come (``receive_nothing``) still names its own short time."""

from __future__ import annotations

from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

from tests.waits import WAIT_S


class Socket(WebsocketCommunicator):
    """A browser's socket: with the Host header every browser sends (127.0.0.1, the
    host of the tests' Origin, unless ``headers`` name another)."""

    def __init__(self, application, path, headers=None, subprotocols=None, spec_version=None):
        headers = list(headers or [])
        if not any(name == b"host" for name, _value in headers):
            headers.append((b"host", b"127.0.0.1"))
        super().__init__(application, path, headers, subprotocols, spec_version)

    async def connect(self, timeout: float = WAIT_S):
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = WAIT_S):
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = WAIT_S):
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = WAIT_S):
        return await super().disconnect(code, timeout)

    async def close_code(self, timeout: float = WAIT_S) -> int:
        """The code the server closes this socket with: what it must send next."""
        closed = await self.receive_output(timeout)
        assert closed["type"] == "websocket.close", closed
        return closed["code"]


class Http(ApplicationCommunicator):
    """One HTTP request to an ASGI application, as a server makes it. Channels'
    ``HttpCommunicator`` wants a body in the response's last message, which the ASGI
    spec makes optional (asgiref's ``WsgiToAsgi``, the site's, leaves it out)."""

    def __init__(self, application, method: str, path: str, body: bytes = b"", headers=None):
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method.upper(),
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "scheme": "http",
            "headers": list(headers or []),
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        super().__init__(application, scope)
        self.body = body

    async def get_response(self, timeout: float = WAIT_S) -> dict:
        """The response: its status, headers and whole body."""
        await self.send_input({"type": "http.request", "body": self.body})
        start = await self.receive_output(timeout)
        assert start["type"] == "http.response.start", start
        body = b""
        while True:
            chunk = await self.receive_output(timeout)
            body += chunk.get("body", b"")
            if not chunk.get("more_body", False):
                break
        return {**start, "body": body}


ORIGIN = (b"origin", b"http://127.0.0.1")


def list_page(path: str, language: str = "en") -> Socket:
    """The socket of a page that shows a live list (``/ws/watch/``, ``/ws/tables/``),
    its page in ``language``."""
    from yatzy_site.asgi import application  # the site, once the tests have set it up

    return Socket(application, path, headers=[ORIGIN, (b"accept-language", language.encode())])
