"""Where several server processes share the database, each books the sockets it counts
under its name (``YATZY_PROCESS``), so that when one dies its successor takes off what
it left counted and nothing else: the other processes' players stay present.
(Real processes, PostgreSQL and Redis: tests/postgres_redis/test_processes.py.)"""

from __future__ import annotations

import asyncio
from io import StringIO

import pytest
from channels.layers import BaseChannelLayer, get_channel_layer
from django.core.management import call_command
from django.db import DatabaseError
from django.test import Client
from django.utils import timezone

from games import presence, services
from games.models import CountedSockets, Game, Seat
from games.viewer import Viewer
from tests.conftest import create_game, fresh
from tests.web.test_room import bobs_turn, join


class RecordingLayer(BaseChannelLayer):
    """A layer other than the in-memory one (several processes may share the database)
    that keeps what it is asked to send to groups."""

    extensions = ["groups"]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.notices: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.notices.append((group, message))


SHARED = {"default": {"BACKEND": "tests.web.test_counted_sockets.RecordingLayer"}}


@pytest.fixture
def game(alice: Client, bob: Client, dice: object) -> Game:
    """Bob's turn at Alice's table, which pages in English have open (their sockets say
    the language the table is rendered in)."""
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Game.objects.filter(id=game.id).update(languages="en")
    return game


@pytest.fixture
def shared(settings) -> list[tuple[str, dict]]:
    settings.CHANNEL_LAYERS = SHARED
    return get_channel_layer().notices


def seat_of(game: Game, name: str) -> Seat:
    return Seat.objects.get(game=game, name=name)


def viewer_of(seat: Seat) -> Viewer:
    return Viewer(seat.browser_id, frozenset({seat.token}))


def open_sockets(settings, process: str, game: Game, name: str, sockets: int) -> list[int]:
    settings.YATZY_PROCESS = process
    for _ in range(sockets):
        seats = presence.arrive(fresh(game), viewer_of(seat_of(game, name)))
    return seats


def booked(process: str) -> dict[str, int]:
    return {
        (f"seat {row.seat.name}" if row.seat_id else f"game {row.game.code}"): row.sockets
        for row in CountedSockets.objects.filter(process=process)
    }


def test_a_named_process_books_the_sockets_it_counts_as_they_open_and_close(
    game: Game, settings
) -> None:
    seats = open_sockets(settings, "web1", game, "Bob", 2)
    assert seat_of(game, "Bob").connections == 2
    assert booked("web1") == {"seat Bob": 2}

    presence.leave(seats)
    assert booked("web1") == {"seat Bob": 1}
    presence.leave(seats)
    assert booked("web1") == {"seat Bob": 0}  # deleted as the next web1 starts
    assert seat_of(game, "Bob").connections == 0


@pytest.mark.parametrize("process", ["", "web1"], ids=["unnamed", "named"])
def test_a_players_time_away_starts_when_their_last_socket_closes(
    game: Game, settings, process: str
) -> None:
    seats = open_sockets(settings, process, game, "Bob", 2)
    presence.leave(seats)
    assert seat_of(game, "Bob").away_since is None  # a second tab is still open
    before = timezone.now()

    presence.leave(seats)
    bob = seat_of(game, "Bob")
    assert bob.connections == 0 and bob.away_since >= before

    presence.leave(seats)  # a goodbye too many (a count forgotten meanwhile) stays at 0
    assert seat_of(game, "Bob").connections == 0


def test_a_socket_of_a_seat_the_host_removed_closes_and_opens_without_a_booking(
    alice: Client, bob: Client, settings
) -> None:
    # Bob waits in the lobby; the host takes his seat away, and with it what web1 had
    # booked at it. His socket's goodbye, and a socket of his opening as the seat goes,
    # must not book a seat that is no more.
    lobby = create_game(alice, invites="1")
    join(bob, lobby, "Bob")
    bobs = viewer_of(seat_of(lobby, "Bob"))
    as_it_was = fresh(lobby)
    list(as_it_was.seats.all())
    seats = open_sockets(settings, "web1", lobby, "Bob", 1)
    open_sockets(settings, "web1", lobby, "Alice", 1)
    alices = viewer_of(seat_of(lobby, "Alice"))
    services.remove_seat(lobby.code, alices, fresh(lobby).version, seat_of(lobby, "Bob").position)

    presence.leave(seats)
    presence.arrive(as_it_was, bobs)

    assert booked("web1") == {"seat Alice": 1}
    assert seat_of(lobby, "Alice").connections == 1


def test_spectators_are_booked_with_their_batch(game: Game, settings) -> None:
    settings.YATZY_PROCESS = "web1"
    presence.write_spectators({(game.id, game.code): 3})
    presence.write_spectators({(game.id, game.code): -1, (game.id + 999, "gone"): 2})

    assert fresh(game).spectators == 2
    assert booked("web1") == {f"game {game.code}": 2}


@pytest.mark.django_db(transaction=True)  # the batch closes stale connections, as served
def test_spectators_the_database_refused_are_written_with_the_next_batch(
    game: Game, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lost, the count would stay wrong until the process restarts.
    settings.YATZY_PROCESS = "web1"
    book = presence._book
    refusals = [DatabaseError("the database went away")]

    def book_once_refused(to: str, ids: list[int], delta: int) -> None:
        if refusals:
            raise refusals.pop()
        book(to, ids, delta)

    monkeypatch.setattr(presence, "_book", book_once_refused)
    spectators = presence.Spectators()
    spectators.retry = 0.01

    async def watch() -> None:
        spectators.change(game.id, game.code, +3)
        await asyncio.sleep(0)  # the batch is under way, then one more arrives
        spectators.change(game.id, game.code, +1)
        await spectators._writer

    asyncio.run(watch())

    assert fresh(game).spectators == 4
    assert booked("web1") == {f"game {game.code}": 4}


def test_an_unnamed_process_books_nothing(game: Game, settings) -> None:
    """The embedded default: one process, whose start forgets every count."""
    seats = open_sockets(settings, "", game, "Bob", 1)
    presence.write_spectators({(game.id, game.code): 1})
    presence.leave(seats)
    assert not CountedSockets.objects.exists()


def test_the_successor_of_a_dead_process_takes_off_only_its_sockets(
    game: Game,
    settings,
    shared: list[tuple[str, dict]],
    claims: list[int],
    daphne: list[list[str]],
) -> None:
    """web1 dies with one of Bob's two sockets and two of three spectators; Alice's
    socket and the others are web2's, which serves on."""
    open_sockets(settings, "web1", game, "Bob", 1)
    open_sockets(settings, "web2", game, "Bob", 1)
    open_sockets(settings, "web2", game, "Alice", 1)
    settings.YATZY_PROCESS = "web1"
    presence.write_spectators({(game.id, game.code): 2})
    settings.YATZY_PROCESS = "web2"
    presence.write_spectators({(game.id, game.code): 1})

    settings.YATZY_PROCESS = "web1"  # its successor starts
    out = StringIO()
    call_command("serve", "--host", "0.0.0.0", "--proxy-headers", stdout=out)

    assert out.getvalue() == (
        "Took off the 3 socket(s) at 1 table(s) that the last process named web1 left counted.\n"
    )
    assert seat_of(game, "Bob").connections == 1 and seat_of(game, "Bob").away_since is None
    assert seat_of(game, "Alice").connections == 1
    assert fresh(game).spectators == 1
    assert booked("web1") == {}
    assert booked("web2") == {"seat Bob": 1, "seat Alice": 1, f"game {game.code}": 1}
    assert [group for group, _ in shared] == [f"game.{game.code}"]  # its browsers are told
    assert daphne[0][-2:] == ["--proxy-headers", "yatzy_site.asgi:application"]  # Compose's


def test_a_player_only_the_dead_process_counted_is_away_from_then(
    game: Game, settings, shared: list[tuple[str, dict]]
) -> None:
    open_sockets(settings, "web1", game, "Bob", 2)
    before = timezone.now()

    presence.forget_process("web1")

    bob = seat_of(game, "Bob")
    assert bob.connections == 0 and bob.away_since >= before  # his time to come back


def test_a_booking_committed_while_the_successor_takes_off_is_left_for_the_next_start(
    game: Game, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dead web1's last commit lands late, after its successor read what it booked:
    deleted with the rest, Alice's socket would stay counted for good."""
    open_sockets(settings, "web1", game, "Bob", 1)
    count_down = presence._count_down

    def late(seats: list[int], sockets: int) -> None:
        count_down(seats, sockets)
        if not CountedSockets.objects.filter(seat__name="Alice").exists():
            open_sockets(settings, "web1", game, "Alice", 1)

    monkeypatch.setattr(presence, "_count_down", late)
    assert presence.forget_process("web1") == ([game.code], 1)

    assert seat_of(game, "Bob").connections == 0
    assert seat_of(game, "Alice").connections == 1
    assert booked("web1") == {"seat Alice": 1}
    monkeypatch.undo()
    assert presence.forget_process("web1") == ([game.code], 1)  # the next start
    assert seat_of(game, "Alice").connections == 0


def test_a_process_that_will_not_come_back_is_settled_by_hand_while_the_others_serve(
    game: Game, settings, shared: list[tuple[str, dict]]
) -> None:
    open_sockets(settings, "web3", game, "Bob", 1)
    open_sockets(settings, "web2", game, "Alice", 1)
    settings.YATZY_PROCESS = "web2"  # run from a process of the site that serves on
    out = StringIO()

    call_command("reset_presence", "--process", "web3", stdout=out)

    assert out.getvalue() == (
        "Took off the 1 socket(s) at 1 table(s) that the process named web3 left counted.\n"
    )
    assert seat_of(game, "Bob").connections == 0
    assert seat_of(game, "Alice").connections == 1
    assert len(shared) == 1


def test_a_name_nothing_was_booked_under_changes_nothing(
    game: Game, settings, shared: list[tuple[str, dict]]
) -> None:
    open_sockets(settings, "web1", game, "Bob", 1)

    assert presence.forget_process("web9") == ([], 0)

    assert seat_of(game, "Bob").connections == 1
    assert shared == []


def test_forgetting_every_count_forgets_what_the_named_processes_booked(
    game: Game, settings, shared: list[tuple[str, dict]]
) -> None:
    """The whole site stopped and reset (``reset_presence --force``); web2 starts first
    and counts Bob again; web1's start then must not count him down."""
    open_sockets(settings, "web1", game, "Bob", 1)
    call_command("reset_presence", "--force", stdout=StringIO())
    open_sockets(settings, "web2", game, "Bob", 1)

    assert presence.forget_process("web1") == ([], 0)

    assert seat_of(game, "Bob").connections == 1
