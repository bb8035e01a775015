"""The embedded default's channel layer (games/channel_layer.py) keeps the contract of
Channels' in-memory layer: messages in order, groups, expiry, capacity, flush. Its
speed with thousands of sockets is what ``make bench``'s reconnect storm measures."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.exceptions import ChannelFull

from games.channel_layer import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_channel_receives_what_was_sent_to_it_in_order() -> None:
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "a"})
    await layer.send(channel, {"type": "b"})
    assert await layer.receive(channel) == {"type": "a"}
    assert await layer.receive(channel) == {"type": "b"}


async def test_a_waiting_receiver_is_handed_the_next_message() -> None:
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    waiting = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)
    await layer.send(channel, {"type": "now"})
    assert await asyncio.wait_for(waiting, 5) == {"type": "now"}


async def test_new_channels_have_distinct_names() -> None:
    layer = LocalChannelLayer()
    names = {await layer.new_channel() for _ in range(1000)}
    assert len(names) == 1000
    assert all(name.startswith("specific..inmemory!") for name in names)


async def test_a_group_send_reaches_its_members_only_and_not_those_who_left() -> None:
    layer = LocalChannelLayer()
    stay, leave, other = [await layer.new_channel() for _ in range(3)]
    for channel in (stay, leave):
        await layer.group_add("game.a", channel)
    await layer.group_add("game.b", other)
    await layer.group_discard("game.a", leave)
    await layer.group_send("game.a", {"type": "table.update", "version": 3})
    assert await layer.receive(stay) == {"type": "table.update", "version": 3}
    for channel in (leave, other):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(channel), 0.05)


async def test_each_member_gets_a_message_of_its_own_and_the_sender_keeps_theirs() -> None:
    layer = LocalChannelLayer()
    one, two = [await layer.new_channel() for _ in range(2)]
    for channel in (one, two):
        await layer.group_add("game.a", channel)
    sent = {"type": "table.update", "version": 1}
    await layer.group_send("game.a", sent)
    sent["version"] = 99
    first = await layer.receive(one)
    first["version"] = 2
    assert await layer.receive(two) == {"type": "table.update", "version": 1}


async def test_a_full_channel_refuses_a_send_and_is_passed_over_by_a_group_send() -> None:
    layer = LocalChannelLayer(capacity=2)
    full, free = [await layer.new_channel() for _ in range(2)]
    await layer.send(full, {"type": "1"})
    await layer.send(full, {"type": "2"})
    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "3"})
    for channel in (full, free):
        await layer.group_add("game.a", channel)
    await layer.group_send("game.a", {"type": "4"})
    assert await layer.receive(free) == {"type": "4"}
    assert [await layer.receive(full) for _ in range(2)] == [{"type": "1"}, {"type": "2"}]


async def test_an_expired_message_is_dropped_and_its_channel_leaves_its_groups() -> None:
    layer = LocalChannelLayer(expiry=0)  # every message expires as soon as time moves
    gone, here = [await layer.new_channel() for _ in range(2)]
    await layer.group_add("game.a", gone)
    await layer.send(gone, {"type": "unread"})
    await asyncio.sleep(0.01)
    with pytest.raises(TimeoutError):  # expired: never received
        await asyncio.wait_for(layer.receive(gone), 0.05)
    await layer.group_add("game.a", here)
    layer.expiry = 60
    await layer.group_send("game.a", {"type": "later"})
    assert await layer.receive(here) == {"type": "later"}
    with pytest.raises(TimeoutError):  # no longer in the group
        await asyncio.wait_for(layer.receive(gone), 0.05)


async def test_a_channel_whose_receiver_ended_leaves_its_groups_once_its_message_expires() -> None:
    """The messages of a socket that ended without leaving its group are dropped by the
    layer's periodic pass, and the channel leaves the group: a group send later does
    not queue for it again."""
    layer = LocalChannelLayer(expiry=1, capacity=1)
    ended, other = [await layer.new_channel() for _ in range(2)]
    await layer.group_add("game.a", ended)
    await layer.send(ended, {"type": "never read"})
    while time.time() < layer.next_sweep + 0.01:  # the next pass is due
        await asyncio.sleep(0.05)
    await layer.send(other, {"type": "anything"})  # the pass runs on any call
    await layer.group_send("game.a", {"type": "next"})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(ended), 0.05)


async def test_a_membership_older_than_the_group_expiry_ends() -> None:
    layer = LocalChannelLayer(group_expiry=0)
    channel = await layer.new_channel()
    await layer.group_add("game.a", channel)
    await asyncio.sleep(0.01)
    await layer.group_send("game.a", {"type": "late"})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.05)


async def test_a_receiver_cancelled_as_it_was_handed_a_message_leaves_it_for_the_next() -> None:
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    first = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)
    await layer.send(channel, {"type": "kept"})  # handed to the first receiver...
    first.cancel()  # ...which ends before it runs again
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "kept"}


async def test_flush_forgets_every_channel_and_group() -> None:
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("game.a", channel)
    await layer.send(channel, {"type": "old"})
    await layer.flush()
    await layer.group_send("game.a", {"type": "after"})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.05)


async def test_names_are_checked_as_by_every_channel_layer() -> None:
    layer = LocalChannelLayer()
    with pytest.raises(TypeError):
        await layer.send("no spaces allowed", {"type": "x"})
    with pytest.raises(TypeError):
        await layer.group_add("no spaces", await layer.new_channel())
