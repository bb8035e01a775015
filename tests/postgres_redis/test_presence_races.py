"""Counting sockets on PostgreSQL while other processes count at the same tables: each
process's writes must land whatever order theirs take the tables' rows in."""

from __future__ import annotations

import threading
from io import StringIO

import pytest
from django.core.management import call_command

from games import presence
from games.models import CountedSockets, Game, Seat
from games.rules import TableOptions
from games.services import SeatSpec, create_game
from games.viewer import Viewer
from tests.postgres_redis.race import race
from tests.waits import eventually
from yatzy_site import serving

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def table() -> Game:
    return create_game(
        Viewer("host-browser"),
        ruleset="yatzy",
        options=TableOptions(),
        seats=[SeatSpec(Seat.Kind.LOCAL, "Ann")],
    )


def test_two_processes_spectator_batches_over_the_same_tables_both_land(
    postgres: None, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # web1's batch has table one then two, web2's two then one; each has written its
    # first table when the other writes its first. Held in one transaction, the two
    # batches would wait for each other and PostgreSQL would end one of them.
    settings.YATZY_PROCESS = "web1"  # the name the bookings go under, shared here
    one, two = table(), table()
    first_written = threading.Barrier(2, timeout=10)
    waited: set[int] = set()
    book = presence._book

    def book_then_meet(to: str, ids: list[int], delta: int) -> None:
        book(to, ids, delta)
        if threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            first_written.wait()

    monkeypatch.setattr(presence, "_book", book_then_meet)
    web1 = {(one.id, one.code): 2, (two.id, two.code): 2}
    web2 = {(two.id, two.code): 3, (one.id, one.code): 3}

    outcomes = race(
        [lambda: presence.write_spectators(web1), lambda: presence.write_spectators(web2)]
    )

    assert outcomes == [{}, {}]  # nothing left unwritten
    assert [Game.objects.get(pk=g.pk).spectators for g in (one, two)] == [5, 5]
    assert sorted(CountedSockets.objects.values_list("sockets", flat=True)) == [5, 5]


def test_a_process_starting_under_a_name_being_settled_by_hand_stops(
    postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Let go of between the check and the taking off, the name would let web3 start
    # and then have its new sockets taken off.
    forget = presence.forget_process
    refused: list[serving.NameTaken] = []

    def web3_starts_meanwhile(process: str) -> tuple[list[str], int]:
        try:
            serving.claim_name(process, wait=0)
        except serving.NameTaken as taken:
            refused.append(taken)
        return forget(process)

    monkeypatch.setattr(presence, "forget_process", web3_starts_meanwhile)
    call_command("reset_presence", "--process", "web3", stdout=StringIO())

    assert [taken.process for taken in refused] == ["web3"]
    # and let go of once done (PostgreSQL ends the closed session in its own time)
    eventually(lambda: serving.names_held() == [], "the name web3 let go of")
