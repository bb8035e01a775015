"""Quick play's presses at the same moment (SQLite here: one writer at a time; the
same races on PostgreSQL, and across two server processes, are in
tests/postgres_redis/test_quick_play_processes.py): everyone is seated once, in twos,
and a browser's tabs are never paired with each other."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from games.models import Game, Seat, Seek
from tests.postgres_redis.race import race

pytestmark = pytest.mark.django_db(transaction=True)


def strangers(count: int) -> list[Client]:
    """Browsers that have been here before: each has its session, and its id in it (a
    browser's first press makes them; two presses at once of a browser without one are
    two browsers to the site)."""
    clients = [Client() for _ in range(count)]
    for client in clients:
        client.post("/quick/stop/")
    return clients


def pressing(client: Client, name: str, ruleset: str = "yatzy"):
    return lambda: client.post("/quick/play/", {"name": name, "ruleset": ruleset})


def seated_once_in_twos() -> None:
    """Every table quick play made has two seats of two browsers, and no browser has
    two seats."""
    games = Game.objects.filter(quick_play=True)
    for game in games:
        assert len({seat.browser_id for seat in game.seats.all()}) == 2
    seats = Counter(Seat.objects.filter(game__quick_play=True).values_list("browser_id", flat=True))
    assert all(count == 1 for count in seats.values()), seats


def test_eight_strangers_pressing_at_once_make_four_tables() -> None:
    clients = strangers(8)
    answers = race([pressing(client, f"P{n}") for n, client in enumerate(clients)])
    assert [answer.status_code for answer in answers] == [302] * 8, [
        getattr(answer, "content", answer)[:300] for answer in answers
    ]
    to_tables = [a["Location"] for a in answers if a["Location"].startswith("/g/")]
    waiting = [a for a in answers if a["Location"] == "/quick/"]
    assert len(to_tables) == 4 and len(waiting) == 4
    assert Game.objects.filter(quick_play=True).count() == 4
    seated_once_in_twos()
    # the four who waited are each told where to go: their waiting page is their table
    tables = set()
    for client, answer in zip(clients, answers, strict=True):
        if answer["Location"] == "/quick/":
            tables.add(client.get("/quick/")["Location"])
    assert tables == set(to_tables)
    assert not Seek.objects.filter(game=None).exists()  # nobody is left waiting


def test_two_tabs_and_a_stranger_at_once_seat_the_browser_once() -> None:
    alice, bob = strangers(2)
    tab = Client()
    tab.cookies = alice.cookies
    answers = race([pressing(alice, "Ann"), pressing(tab, "Ann"), pressing(bob, "Ben")])
    assert Game.objects.filter(quick_play=True).count() == 1
    seated_once_in_twos()
    game = Game.objects.get(quick_play=True)
    assert sorted(seat.name for seat in game.seats.all()) == ["Ann", "Ben"]
    # each tab goes to the one table, at once or from its waiting page, however the
    # race ran
    table = f"/g/{game.code}/"
    for client, answer in zip((alice, tab, bob), answers, strict=True):
        assert answer["Location"] in (table, "/quick/")
        assert client.get("/quick/")["Location"] == table
