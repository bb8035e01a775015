"""The embedded default's channel layer: Channels' in-memory layer, cleaned once a second."""

from __future__ import annotations

import os

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer

from yatzy_site.layers import ThrottledInMemoryChannelLayer

pytestmark = pytest.mark.asyncio


@pytest.mark.skipif("REDIS_URL" in os.environ, reason="with Redis the site uses its layer")
async def test_the_embedded_site_uses_the_throttled_layer() -> None:
    assert isinstance(get_channel_layer(), ThrottledInMemoryChannelLayer)


async def test_a_burst_of_messages_walks_the_layer_once(monkeypatch: pytest.MonkeyPatch) -> None:
    walks: list[int] = []
    real_clean = InMemoryChannelLayer._clean_expired
    monkeypatch.setattr(
        InMemoryChannelLayer, "_clean_expired", lambda layer: walks.append(1) or real_clean(layer)
    )
    layer = ThrottledInMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(50)]
    for channel in channels:
        await layer.group_add("game.abc", channel)

    for version in range(20):
        await layer.group_send("game.abc", {"type": "game.changed", "version": version})
    received = [await layer.receive(channel) for channel in channels]

    assert len(received) == 50
    assert len(walks) == 1


async def test_messages_still_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = ThrottledInMemoryChannelLayer(expiry=0)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "game.changed", "version": 1})
    layer._cleaned_at -= layer.clean_every  # a second later

    layer._clean_expired()

    assert channel not in layer.channels


async def test_a_group_send_has_reached_every_member_when_it_returns() -> None:
    layer = ThrottledInMemoryChannelLayer(capacity=1)
    members = [await layer.new_channel() for _ in range(4)]
    for channel in members:
        await layer.group_add("game.abc", channel)
    await layer.send(members[0], {"type": "game.changed", "version": 0})  # now full

    sending = layer.group_send("game.abc", {"type": "game.changed", "version": 1})
    with pytest.raises(StopIteration):
        sending.send(None)  # done in one step: it never waited for the loop

    queued = [layer.channels[channel].qsize() for channel in members]
    assert queued == [1, 1, 1, 1]  # the full one skipped
    assert [await layer.receive(channel) for channel in members] == [
        {"type": "game.changed", "version": 0},
        *[{"type": "game.changed", "version": 1}] * 3,
    ]


async def test_every_member_gets_its_own_copy_of_a_message() -> None:
    layer = ThrottledInMemoryChannelLayer()
    members = [await layer.new_channel() for _ in range(2)]
    for channel in members:
        await layer.group_add("game.abc", channel)
    flat = {"type": "game.changed", "version": 3, "answered": "page"}
    nested = {"type": "game.changed", "seats": [1, 2]}

    await layer.group_send("game.abc", flat)
    await layer.group_send("game.abc", nested)
    first, second = [[await layer.receive(c), await layer.receive(c)] for c in members]
    first[0]["version"] = 4
    first[1]["seats"].append(3)

    assert second == [flat, nested]  # neither the sender's dicts nor each other's
    assert flat["version"] == 3 and nested["seats"] == [1, 2]
    assert first[0] is not flat and first[1]["seats"] is not nested["seats"]
