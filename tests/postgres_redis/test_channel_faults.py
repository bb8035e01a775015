"""A broken or full channel layer never costs a player their move."""

from __future__ import annotations

import pytest
from channels.exceptions import ChannelFull
from django.db import transaction

from games import broadcast, services
from games.models import Game, Seat
from games.rules import TableOptions
from games.services import SeatSpec
from games.viewer import Viewer

pytestmark = pytest.mark.django_db(transaction=True)


class FullLayer:
    def __init__(self) -> None:
        self.attempts = 0

    async def group_send(self, group: str, message: dict) -> None:
        self.attempts += 1
        raise ChannelFull()


def test_a_full_channel_does_not_block_the_action_that_filled_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = FullLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    host = Viewer("alice-browser")
    game = services.create_game(
        host, ruleset="yatzy", options=TableOptions(), seats=[SeatSpec(Seat.Kind.LOCAL, "Alice")]
    )
    alice = Viewer(host.browser_id, frozenset(services.local_tokens(game, host)))
    Game.objects.filter(pk=game.pk).update(languages="en")  # a page in English watches

    game = services.roll(game.code, alice, Game.objects.get(pk=game.pk).version)

    assert layer.attempts >= 1
    assert Game.objects.get(pk=game.pk).engine_state().roll_number == 1


def test_no_update_is_sent_for_an_action_that_rolled_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(
        broadcast, "game_changed", lambda code, version, *_args: sent.append(version)
    )
    host = Viewer("alice-browser")
    game = services.create_game(
        host, ruleset="yatzy", options=TableOptions(), seats=[SeatSpec(Seat.Kind.LOCAL, "Alice")]
    )
    alice = Viewer(host.browser_id, frozenset(services.local_tokens(game, host)))
    sent.clear()

    version = Game.objects.get(pk=game.pk).version

    with pytest.raises(RuntimeError), transaction.atomic():
        services.roll(game.code, alice, version)
        raise RuntimeError("the surrounding transaction fails after the roll")

    assert sent == []
    assert Game.objects.get(pk=game.pk).version == version
