"""A test's WebSocket to the site in this process: it waits as long as a busy machine
needs for what must come (a handshake, a table, a close), bounded by
YATZY_E2E_TIMEOUT_S like the browser tests. Channels' own communicator gives up
after one second, which a loaded CI machine overruns. A wait for what must *not*
come (``receive_nothing``) still names its own short time."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from tests.waits import WAIT_S


class Socket(WebsocketCommunicator):
    async def connect(self, timeout: float = WAIT_S):
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = WAIT_S):
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = WAIT_S):
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = WAIT_S):
        return await super().disconnect(code, timeout)
