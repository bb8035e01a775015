"""Open tables: a host opens a room to anyone (in the New game form, or from the lobby),
it is listed on /tables/ while it waits with a seat free and its host here, and a
stranger takes a seat there in one click. Every refusal is said on the page, and the
room stays as it was."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import rules, services
from games.errors import ActionError
from games.models import Game, GameEvent, Seat
from games.services import SeatSpec
from games.viewer import Viewer
from tests.conftest import NEW_GAME, create_game, fresh, unisolated, version

pytestmark = pytest.mark.django_db


def open_room(host: Client, **fields: str) -> Game:
    return create_game(host, invites="2", open_to_anyone="on", **fields)


def tables_page(client: Client) -> str:
    return unisolated(client.get("/tables/").content.decode())


def take_a_seat(client: Client, game: Game, name: str):
    return client.post("/tables/join/", {"name": name, "code": game.code})


def test_an_open_room_is_listed_with_its_rules_options_host_and_free_seats(
    alice: Client, spectator: Client
) -> None:
    game = open_room(alice, ruleset="yahtzee", forced_order="on")
    private = create_game(alice, invites="1")

    page = tables_page(spectator)

    assert "Open tables" in page
    assert f'name="code" value="{game.code}"' in page
    assert private.code not in page
    assert "American Yahtzee" in page and "Forced order" in page
    assert "Host: Alice" in page
    assert "2 of 3 seats free" in page
    assert 'aria-label="Join Alice\'s game of American Yahtzee"' in page
    assert 'data-list-socket="/ws/tables/"' in page


def test_nothing_listed_says_so_and_offers_a_room_of_ones_own(spectator: Client) -> None:
    page = tables_page(spectator)

    assert "No open table just now" in page
    assert "open a room yourself" in page


def test_a_stranger_takes_a_seat_in_one_click_and_the_room_fills_and_leaves_the_list(
    alice: Client, bob: Client, spectator: Client
) -> None:
    game = open_room(alice)

    answer = take_a_seat(bob, game, "Bob")

    assert answer.status_code == 302 and answer["Location"] == f"/g/{game.code}/lobby/"
    lobby = unisolated(bob.get(answer["Location"]).content.decode())
    assert "Bob" in lobby and "Leave this table" in lobby
    assert "1 of 3 seats free" in tables_page(spectator)

    # strangers see no personal link but their own
    bobs = fresh(game).seats.get(name="Bob").token
    assert bobs not in alice.get(f"/g/{game.code}/lobby/").content.decode()
    assert fresh(game).seats.get(name="Alice").token not in lobby

    take_a_seat(spectator, game, "Carl")

    assert game.code not in tables_page(Client())
    assert [seat.name for seat in fresh(game).all_seats()] == ["Alice", "Bob", "Carl"]


def test_the_page_remembers_the_name_last_played_under(alice: Client, bob: Client) -> None:
    create_game(bob, name="Bobby")

    assert 'value="Bobby"' in bob.get("/tables/").content.decode()


def test_a_room_whose_host_has_gone_is_not_listed(alice: Client, spectator: Client) -> None:
    game = open_room(alice)
    gone = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(game=game, name="Alice").update(away_since=gone, claimed_at=gone)

    assert game.code not in tables_page(spectator)

    Seat.objects.filter(game=game, name="Alice").update(connections=1)  # her lobby page

    assert game.code in tables_page(spectator)


def test_a_started_room_leaves_the_list_and_is_listed_to_watch(
    alice: Client, bob: Client, spectator: Client
) -> None:
    game = open_room(alice)
    take_a_seat(bob, game, "Bob")

    alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    assert game.code not in tables_page(spectator)
    assert f"/g/{game.code}/" in spectator.get("/watch/").content.decode()


@pytest.mark.parametrize(
    ("name", "code", "status", "said"),
    [
        ("", None, 400, "Please tell the table your name."),
        ("Alice", None, 400, "Someone at this table is already called Alice"),
        ("Bob", "NOSUCHGAME", 404, ""),
        ("Bob", "", 404, ""),
    ],
)
def test_a_refused_seat_is_said_on_the_page_with_the_name_kept_and_nothing_taken(
    alice: Client, bob: Client, name: str, code: str | None, status: int, said: str
) -> None:
    game = open_room(alice)
    before = version(game)

    answer = bob.post("/tables/join/", {"name": name, "code": game.code if code is None else code})

    page = unisolated(answer.content.decode())
    assert answer.status_code == status
    assert 'role="alert"' in page and said in page
    assert f'value="{name}"' in page
    assert version(game) == before


def test_a_room_not_open_to_anyone_takes_no_stranger_by_its_code(
    alice: Client, bob: Client
) -> None:
    game = create_game(alice, invites="1")

    answer = take_a_seat(bob, game, "Bob")

    assert answer.status_code == 409
    assert "This table is no longer open to anyone: its host invites by link." in (
        answer.content.decode()
    )
    assert fresh(game).all_seats()[1].is_open


def test_a_started_or_full_room_refuses_a_late_stranger(
    alice: Client, bob: Client, spectator: Client
) -> None:
    full = create_game(alice, invites="1", open_to_anyone="on")
    take_a_seat(bob, full, "Bob")
    started = open_room(alice)
    alice.post(f"/g/{started.code}/start/", {"version": version(started)})

    late = take_a_seat(spectator, full, "Carl")
    too_late = take_a_seat(spectator, started, "Carl")

    assert late.status_code == 409 and "Every seat at this table is taken" in late.content.decode()
    assert too_late.status_code == 409 and "already started" in too_late.content.decode()


def test_the_host_closes_the_room_to_strangers_and_opens_it_again(
    alice: Client, bob: Client, spectator: Client
) -> None:
    game = open_room(alice)
    lobby = alice.get(f"/g/{game.code}/lobby/").content.decode()
    assert "Close to strangers" in lobby and "Listed on the Open tables page" in lobby

    alice.post(f"/g/{game.code}/open/", {"version": version(game), "open": "0"})

    assert game.code not in tables_page(spectator)
    assert take_a_seat(bob, game, "Bob").status_code == 409
    lobby = alice.get(f"/g/{game.code}/lobby/").content.decode()
    assert "Only friends with the invite link can take a seat." in lobby

    alice.post(f"/g/{game.code}/open/", {"version": version(game), "open": "1"})

    assert game.code in tables_page(spectator)
    assert fresh(game).events.filter(kind=GameEvent.Kind.OPEN).count() == 2


def test_a_friend_in_an_open_room_is_told_strangers_may_come(alice: Client, bob: Client) -> None:
    game = open_room(alice)
    take_a_seat(bob, game, "Bob")

    lobby = bob.get(f"/g/{game.code}/lobby/").content.decode()

    assert "This room is open to anyone" in lobby
    assert "Close to strangers" not in lobby


@pytest.mark.parametrize(
    ("who", "fields", "status", "said"),
    [
        ("bob", {"open": "0"}, 403, "Only the host of this table can do that."),
        ("alice", {"open": "maybe"}, 400, "That request was malformed"),
        ("alice", {"open": "0", "version": "0"}, 409, ""),
        ("alice", {"open": "0", "version": ""}, 400, "missing what it needs to act"),
    ],
)
def test_a_refused_opening_or_closing_is_said_and_changes_nothing(
    alice: Client, bob: Client, who: str, fields: dict[str, str], status: int, said: str
) -> None:
    game = open_room(alice)
    take_a_seat(bob, game, "Bob")
    before = version(game)
    client = {"alice": alice, "bob": bob}[who]

    answer = client.post(f"/g/{game.code}/open/", {"version": before, **fields})

    assert answer.status_code == status
    assert 'role="alert"' in answer.content.decode() and said in answer.content.decode()
    assert version(game) == before and fresh(game).open_to_anyone


def test_a_room_without_an_invitation_cannot_be_opened(alice: Client) -> None:
    fields = {**NEW_GAME, "bots": "1", "open_to_anyone": "on"}

    answer = alice.post("/games/new/", fields)

    assert answer.status_code == 400
    assert "A room open to anyone needs a seat to invite to" in answer.content.decode()
    assert not Game.objects.exists()


def test_a_room_without_an_invitation_is_not_made_open_by_any_caller(alice: Client) -> None:
    """The form says so (above); the service that makes the room refuses it too, for a
    caller without the form (a command, a later page)."""
    seats = [SeatSpec(Seat.Kind.LOCAL, "Alice"), SeatSpec(Seat.Kind.BOT, "Bot", bot_level="good")]

    with pytest.raises(ActionError, match="This table has no seat to invite anyone to"):
        services.create_game(
            Viewer("a-browser"),
            ruleset="yatzy",
            options=rules.TableOptions(),
            seats=seats,
            open_to_anyone=True,
        )
    assert not Game.objects.exists()


def test_a_started_game_cannot_be_opened(alice: Client, bob: Client) -> None:
    game = create_game(alice, invites="1")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    before = version(game)

    answer = alice.post(f"/g/{game.code}/open/", {"version": before, "open": "1"})

    assert answer.status_code == 409
    assert "The game has started" in answer.content.decode()
    assert version(game) == before and not fresh(game).open_to_anyone


def test_players_at_an_open_table_may_mute_the_strangers_reactions(
    alice: Client, bob: Client
) -> None:
    game = open_room(alice)
    take_a_seat(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    table = unisolated(alice.get(f"/g/{game.code}/").content.decode())

    assert 'data-mute="Bob"' in table and 'data-mute="Alice"' not in table
