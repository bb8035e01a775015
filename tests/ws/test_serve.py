"""The table consumer's own dispatch loop (``games.consumers._serve``): what Channels'
``await_many_dispatch`` guarantees, without its wait per message."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import StopConsumer

from games.consumers import _serve

pytestmark = pytest.mark.asyncio


async def test_messages_are_handled_one_at_a_time_each_source_in_its_order() -> None:
    browser, layer = asyncio.Queue(), asyncio.Queue()
    handled: list[int] = []
    busy: list[int] = []

    async def dispatch(message: dict) -> None:
        busy.append(message["n"])
        assert len(busy) == 1, f"{busy} handled at once"
        await asyncio.sleep(0.001)  # a handler that waits: the next message must wait too
        handled.append(busy.pop())
        if message["n"] == 5:
            raise StopConsumer

    serving = asyncio.create_task(_serve([browser.get, layer.get], dispatch))
    browser.put_nowait({"n": 1})
    await asyncio.sleep(0)
    layer.put_nowait({"n": 2})
    await asyncio.sleep(0)
    layer.put_nowait({"n": 3})  # both queued while 1 is being handled
    browser.put_nowait({"n": 4})
    await asyncio.sleep(0.05)
    layer.put_nowait({"n": 5})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(serving, 1)

    assert sorted(handled) == [1, 2, 3, 4, 5]
    assert [n for n in handled if n in (1, 4)] == [1, 4]  # the browser's, in order
    assert [n for n in handled if n in (2, 3, 5)] == [2, 3, 5]  # the layer's, in order
    # what it was still waiting for is cancelled: nothing is left taking messages
    browser.put_nowait({"n": 6})
    layer.put_nowait({"n": 7})
    await asyncio.sleep(0.01)
    assert browser.qsize() == 1 and layer.qsize() == 1


async def test_a_receive_that_fails_ends_the_loop_with_its_error() -> None:
    async def broken() -> dict:
        raise ConnectionError("gone")

    async def dispatch(message: dict) -> None:
        raise AssertionError("nothing to dispatch")

    with pytest.raises(ConnectionError):
        await asyncio.wait_for(_serve([broken, asyncio.Queue().get], dispatch), 1)
