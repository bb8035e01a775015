"""The room: joining by invite link, rejoining, the host's start, remove and skip."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Seat
from tests.conftest import create_game, fresh, play_to_the_end, unisolated, version
from tests.seen import seen

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def lobby(alice: Client, dice: object) -> Game:
    return create_game(alice, invites="1")


def join(client: Client, game: Game, name: str):
    return client.post(f"/g/{game.code}/join/", {"name": name})


def bobs_turn(alice: Client, bob: Client, game: Game) -> Game:
    """``game``, a lobby of Alice's with a seat to invite, with Bob in that seat, started
    and at Bob's turn (Alice scored her first roll in Chance)."""
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )
    return game


def test_the_lobby_shows_the_invite_link_and_qr_code(alice: Client, lobby: Game) -> None:
    page = alice.get(f"/g/{lobby.code}/lobby/").content.decode()
    qr = alice.get(f"/g/{lobby.code}/qr.svg")

    assert '<label id="invite-label" for="invite-link">Invite link</label>' in page
    assert f"http://testserver/g/{lobby.code}/join/" in page
    assert "Start game</button>" in page
    assert qr["Content-Type"] == "image/svg+xml"
    assert qr.content.startswith(b"<svg")


def test_each_personal_link_says_whose_seat_it_is(alice: Client, dice: object) -> None:
    shared = create_game(alice, invites="1", players="Carol")
    page = unisolated(alice.get(f"/g/{shared.code}/lobby/").content.decode())
    alone = alice.get(f"/g/{create_game(alice, invites='1').code}/lobby/").content.decode()

    carol = shared.seats.get(name="Carol")
    assert "Alice's personal link, not to share, to continue on another device:" in page
    assert "Carol's personal link, not to share, to continue on another device:" in page
    # whole, to copy to another device, in a field of its own with a Copy button
    assert f'value="http://testserver/g/{shared.code}/seat/{carol.token}/"' in page
    assert 'aria-describedby="rejoin-label-2"' in page
    assert "Your personal link, not to share, to continue on another device:" in alone


def test_the_table_page_gives_each_player_their_personal_link_while_the_game_is_on(
    alice: Client, bob: Client, spectator: Client, dice: object
) -> None:
    """The personal link was shown only in the lobby: a game started without one (Play
    again, Pass and play, against the computer) never showed it, and a player could not
    take their seat to another device mid-game."""
    game = create_game(alice, invites="1", players="Carol")
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    bobs = Seat.objects.get(game=game, name="Bob")

    table = unisolated(bob.get(f"/g/{game.code}/").content.decode())
    hosts = unisolated(alice.get(f"/g/{game.code}/").content.decode())
    watched = spectator.get(f"/g/{game.code}/").content.decode()

    assert "<summary>Continue on another device</summary>" in table
    assert "Your personal link, not to share, to continue on another device:" in table
    assert f'value="http://testserver/g/{game.code}/seat/{bobs.token}/"' in table
    assert "Alice's personal link" in hosts and "Carol's personal link" in hosts
    assert bobs.token not in hosts
    assert "Continue on another device" not in watched
    browsers = {seat.position: bob if seat == bobs else alice for seat in game.seats.all()}
    finished = play_to_the_end(browsers, game)
    assert finished.status == Game.Status.FINISHED
    assert "Continue on another device" not in bob.get(f"/g/{game.code}/").content.decode()


def test_the_lobby_keeps_the_invite_to_send_apart_from_the_hosts_own_link(
    alice: Client, lobby: Game
) -> None:
    """Issue 46: the host's personal link sat beside the invite with the same Copy
    button, and a friend sent the wrong one took the host's seat."""
    page = unisolated(alice.get(f"/g/{lobby.code}/lobby/").content.decode())

    assert "Send this link, or show the QR code, to the friends you invite" in page
    assert page.count(">Copy</button>") == 1  # the invite's; the personal one says whose
    assert ">Copy my personal link</button>" in page
    assert "<summary>Continue on another device</summary>" in page  # folded away
    assert "Whoever opens a personal link plays that seat." in page
    invite = page.index('id="invite-link"')
    assert invite < page.index("Continue on another device")


def test_someone_elses_personal_link_asks_before_this_browser_takes_the_seat(
    alice: Client, bob: Client, lobby: Game
) -> None:
    join(bob, lobby, "Bob")
    alices = lobby.seats.get(name="Alice")
    link = f"/g/{lobby.code}/seat/{alices.token}/"

    asked = bob.get(link)

    page = unisolated(asked.content.decode())
    assert asked.status_code == 200
    assert "<h1>Take this seat?</h1>" in page
    assert "This is the personal link of Alice's seat at a game of Scandinavian Yatzy" in page
    assert '<form method="post" class="take-seat">' in page
    assert ">Take this seat</button>" in page
    assert bob.post(f"/g/{lobby.code}/start/", {"version": version(lobby)}).status_code == 403
    assert fresh(lobby).status == Game.Status.LOBBY  # Bob does not hold Alice's seat yet

    taken = bob.post(link)

    assert taken.status_code == 302 and taken["Location"] == f"/g/{lobby.code}/lobby/"
    assert "Bob's personal link" in unisolated(bob.get(f"/g/{lobby.code}/lobby/").content.decode())


def test_a_browser_that_holds_the_seat_goes_straight_to_the_table_by_its_link(
    alice: Client, lobby: Game
) -> None:
    alices = lobby.seats.get(name="Alice")

    response = alice.get(f"/g/{lobby.code}/seat/{alices.token}/")

    assert response.status_code == 302 and response["Location"] == f"/g/{lobby.code}/lobby/"


def test_a_friend_joins_by_the_invite_link(alice: Client, bob: Client, lobby: Game) -> None:
    form = bob.get(f"/g/{lobby.code}/join/").content.decode()
    response = join(bob, lobby, "Bob")

    assert '<label for="join-name">Your name</label>' in form and "Join</button>" in form
    assert response["Location"] == f"/g/{lobby.code}/lobby/"
    seat = Seat.objects.get(game=lobby, name="Bob")
    assert seat.claimed_at is not None
    page = bob.get(f"/g/{lobby.code}/lobby/").content.decode()
    assert f"/g/{lobby.code}/seat/{seat.token}/" in page  # the personal rejoin link
    assert "Start game</button>" not in page  # only the host starts


def test_a_name_is_joined_without_control_characters(
    alice: Client, bob: Client, lobby: Game
) -> None:
    # PostgreSQL stores no NUL: it was a 500 there.
    response = join(bob, lobby, "  Bo\x00b\t\x1b ")

    assert response.status_code == 302
    assert Seat.objects.filter(game=lobby, name="Bob").exists()


def test_a_name_is_joined_without_invisible_characters(bob: Client, lobby: Game) -> None:
    # 40 zero-width spaces counted as 40 characters, and the name was refused as too long
    response = join(bob, lobby, "Bob" + "\u200b" * 40)

    assert response.status_code == 302
    assert lobby.seats.get(position=1).name == "Bob"


def test_a_name_already_at_the_table_is_refused(alice: Client, bob: Client, lobby: Game) -> None:
    before = version(lobby)

    response = join(bob, lobby, " alice ")  # the host's, in other letters

    assert response.status_code == 400
    assert "Someone at this table is already called alice: please choose another name." in (
        unisolated(response.content.decode())
    )
    assert version(lobby) == before and not Seat.objects.filter(game=lobby, name="alice").exists()
    assert join(bob, lobby, "Bob").status_code == 302  # another name is welcome


def test_a_name_that_reads_as_one_at_the_table_is_refused(
    alice: Client, bob: Client, lobby: Game
) -> None:
    for name in ("Alice\u200b", "\uff21lice"):  # a zero-width space, a full-width A
        response = join(bob, lobby, name)

        assert response.status_code == 400
        assert "Someone at this table is already called" in response.content.decode()
    assert lobby.seats.filter(claimed_at__isnull=True).count() == 1


def test_a_name_that_looks_as_one_at_the_table_is_refused(
    alice: Client, bob: Client, lobby: Game
) -> None:
    response = join(bob, lobby, "\u0410lice")  # with a Cyrillic A, as a Russian keyboard types

    assert response.status_code == 400
    assert "Someone at this table is already called \u0410lice: please choose another name." in (
        unisolated(response.content.decode())
    )
    assert lobby.seats.filter(claimed_at__isnull=True).count() == 1


def test_a_name_too_long_is_refused_not_cut(alice: Client, bob: Client, lobby: Game) -> None:
    form = unisolated(bob.get(f"/g/{lobby.code}/join/").content.decode())

    response = join(bob, lobby, "B" * 41)

    # the browser keeps the field to 40 characters as they show (names.js), and without a
    # script to the code points a seat keeps
    assert 'maxlength="800" data-max-characters="40"' in form
    assert response.status_code == 400
    assert f"A name has at most 40 characters: {'B' * 41} has 41." in unisolated(
        response.content.decode()
    )
    assert lobby.seats.filter(claimed_at__isnull=True).count() == 1
    assert join(bob, lobby, "Rene\u0301" * 10).status_code == 302  # 40 letters as shown


def test_an_emoji_counts_as_one_character_of_a_name(bob: Client, lobby: Game) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points

    refused = join(bob, lobby, family * 41)
    joined = join(bob, lobby, family * 40)

    assert refused.status_code == 400
    assert f"A name has at most 40 characters: {family * 41} has 41." in unisolated(
        refused.content.decode()
    )
    assert joined.status_code == 302
    assert lobby.seats.get(position=1).name == family * 40


def test_a_paste_of_thousands_of_characters_is_named_by_its_start(bob: Client, lobby: Game) -> None:
    response = join(bob, lobby, "Bob" + "b" * 9_997)

    message = f"A name has at most 40 characters: Bob{'b' * 37}\u2026 has 10000."
    assert message in unisolated(response.content.decode())
    assert "b" * 41 + " has" not in unisolated(
        response.content.decode()
    )  # the rest is not said again


def test_a_refusal_to_join_isolates_the_name_it_repeats(bob: Client, lobby: Game) -> None:
    lobby.seats.filter(position=0).update(name="محمد")

    response = join(bob, lobby, "محمد")

    assert "called ⁨محمد⁩: please" in response.content.decode()


def test_a_name_of_nothing_visible_is_asked_for_again(bob: Client, lobby: Game) -> None:
    response = join(bob, lobby, "\u200b\x01")

    assert "Please tell the table your name." in response.content.decode()
    assert not Seat.objects.filter(game=lobby, claimed_at__isnull=False).exclude(name="Alice")


def test_start_clicked_twice_shows_the_table_not_a_lobby(
    alice: Client, bob: Client, lobby: Game
) -> None:
    join(bob, lobby, "Bob")
    page_version = version(lobby)
    alice.post(f"/g/{lobby.code}/start/", {"version": page_version})
    started = fresh(lobby)

    again = alice.post(f"/g/{lobby.code}/start/", {"version": page_version})
    by_htmx = alice.post(f"/g/{lobby.code}/start/", {"version": page_version}, **HTMX)
    remove = alice.post(f"/g/{lobby.code}/seats/1/remove/", {"version": version(lobby)})

    page = again.content.decode()
    assert again.status_code == 409 and 'id="table"' in page and "Waiting for players" not in page
    assert "The table has changed since your page was drawn" in page
    assert (by_htmx.status_code, by_htmx["HX-Redirect"]) == (204, f"/g/{lobby.code}/")
    assert remove.status_code == 409
    assert "Seats can only be removed before the game starts." in remove.content.decode()
    assert 'id="table"' in remove.content.decode()
    after = fresh(lobby)
    assert (after.version, after.state, after.seats.count()) == (
        started.version,
        started.state,
        2,
    )


def test_a_friend_the_host_removed_is_told_so(alice: Client, bob: Client, lobby: Game) -> None:
    join(bob, lobby, "Bob")
    alice.post(f"/g/{lobby.code}/seats/1/remove/", {"version": version(lobby)})

    page = bob.get(f"/g/{lobby.code}/lobby/").content.decode()

    assert "The host took your seat away." in page
    assert (
        "The host took your seat away."
        not in Client().get(f"/g/{lobby.code}/lobby/").content.decode()
    )
    assert "The host took" not in alice.get(f"/g/{lobby.code}/lobby/").content.decode()


def test_the_invite_says_whose_game_and_what_it_is(alice: Client, bob: Client) -> None:
    game = create_game(alice, invites="1", ruleset="yahtzee", forced_order="on")

    page = unisolated(bob.get(f"/g/{game.code}/join/").content.decode())

    assert "Alice invites you to a game of American Yahtzee." in page
    assert "<small>Forced order</small>" in page


def test_a_full_table_offers_to_watch(alice: Client, bob: Client, lobby: Game) -> None:
    join(bob, lobby, "Bob")
    carol = Client()

    response = join(carol, lobby, "Carol")

    assert response.status_code == 409
    assert "Every seat at this table is taken: you can watch instead." in response.content.decode()
    assert "Watch the game" in carol.get(f"/g/{lobby.code}/join/").content.decode()


def test_a_started_table_offers_to_watch(alice: Client, bob: Client, lobby: Game) -> None:
    alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})

    response = join(bob, lobby, "Bob")
    invited = bob.get(f"/g/{lobby.code}/join/").content.decode()  # a late visitor

    assert response.status_code == 409
    assert response.content.decode().count("already started: you can watch it instead") == 1
    assert "This game has already started: you can watch it instead." in invited
    assert "no free seat" not in invited  # there was one: the game began without it
    assert "Watch the game" in invited


def test_only_the_host_starts(alice: Client, bob: Client, lobby: Game) -> None:
    join(bob, lobby, "Bob")

    response = bob.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})

    assert response.status_code == 403
    assert "Only the host of this table can do that." in response.content.decode()
    assert fresh(lobby).status == Game.Status.LOBBY


def test_the_host_starts_with_whoever_has_joined(alice: Client, lobby: Game) -> None:
    response = alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})

    assert response["Location"] == f"/g/{lobby.code}/"
    game = fresh(lobby)
    assert game.status == Game.Status.PLAYING
    assert [s.name for s in game.seats.all()] == ["Alice"]


def test_a_team_game_of_one_player_is_not_started(alice: Client, dice: object) -> None:
    """Alice's friend, dealt the second team, never came: a team game of one team."""
    game = create_game(alice, invites="1", teams="2")

    response = alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    assert response.status_code == 400
    assert "2 teams need at least 2 players." in response.content.decode()
    assert fresh(game).status == Game.Status.LOBBY
    assert game.seats.count() == 2  # the invitation is still open


def test_players_are_dealt_to_the_teams_again_when_a_team_has_nobody(
    alice: Client, bob: Client, dice: object
) -> None:
    """Bob (team 2) was removed; Carol joined the seat of team 1. Dealt again, Alice and
    Carol play each other, not on one team against nobody."""
    game = create_game(alice, players="Bob", invites="1", teams="2")
    bobs = Seat.objects.get(game=game, name="Bob")
    alice.post(f"/g/{game.code}/seats/{bobs.position}/remove/", {"version": version(game)})
    join(bob, game, "Carol")

    alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    game = fresh(game)
    assert game.status == Game.Status.PLAYING
    assert [(s.name, s.team) for s in game.seats.all()] == [("Alice", 1), ("Carol", 2)]
    assert [card.players for card in game.engine_state().scorecards] == [(0,), (1,)]


def test_the_lobby_says_the_house_rules_and_each_seats_team(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob", invites="1", teams="2", forced_order="on")

    page = alice.get(f"/g/{game.code}/lobby/").content.decode()

    assert "Forced order, Teams" in page
    team = r"<span><bdi>([^<]+)</bdi></span>\s*<small class=\"team\">Team (\d)"
    assert re.findall(team, page) == [
        ("Alice", "1"),
        ("Bob", "2"),
        ("Open seat 3", "1"),
    ]


def test_a_friend_leaves_and_the_seat_is_open_again(
    alice: Client, bob: Client, lobby: Game
) -> None:
    join(bob, lobby, "Bob")
    Seat.objects.filter(name="Bob").update(connections=1)
    page = bob.get(f"/g/{lobby.code}/lobby/").content.decode()
    assert "Leave this table</button>" in page
    assert "Leave this table" not in alice.get(f"/g/{lobby.code}/lobby/").content.decode()
    assert re.search(r"<span><bdi>Bob</bdi></span>\s*<small class=\"online\">here</small>", page)
    assert re.search(r"<span><bdi>Alice</bdi></span>\s*<small class=\"offline\">away</small>", page)

    response = bob.post(f"/g/{lobby.code}/leave/", **HTMX)

    assert response["HX-Redirect"] == f"/g/{lobby.code}/join/"
    seats = list(fresh(lobby).seats.all())
    assert [(s.name, s.is_open) for s in seats] == [("Alice", False), ("", True)]
    assert "Bob" not in unisolated(alice.get(f"/g/{lobby.code}/lobby/").content.decode())
    # his page in another tab, pushed the lobby, offers the seat again
    assert f'<a class="button" href="/g/{lobby.code}/join/">Take a seat</a>' in (
        bob.get(f"/g/{lobby.code}/lobby/").content.decode()
    )
    again = bob.post(f"/g/{lobby.code}/leave/", **HTMX)  # a second click, or another tab
    assert again.status_code == 403
    assert "This browser has no seat of an invited friend at this table." in (
        again.content.decode()
    )
    assert join(bob, lobby, "Bobby").status_code == 302  # and may come back


def test_nobody_leaves_a_started_game_from_the_lobby(
    alice: Client, bob: Client, lobby: Game
) -> None:
    join(bob, lobby, "Bob")
    alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})
    before = version(lobby)

    response = bob.post(f"/g/{lobby.code}/leave/")

    assert response.status_code == 409
    assert "The game has started: your seat is at the table now." in response.content.decode()
    assert version(lobby) == before


def test_the_host_removes_a_seat(alice: Client, bob: Client, lobby: Game) -> None:
    join(bob, lobby, "Bob")
    bobs = Seat.objects.get(game=lobby, name="Bob")

    alice.post(f"/g/{lobby.code}/seats/{bobs.position}/remove/", {"version": version(lobby)})

    assert not Seat.objects.filter(pk=bobs.pk).exists()
    assert (
        bob.post(f"/g/{lobby.code}/seats/0/remove/", {"version": version(lobby)}).status_code == 403
    )


def test_the_host_keeps_a_seat_of_their_own(alice: Client, bob: Client, dice: object) -> None:
    """Removing the host's own last seat left a host who could start a table they were
    not at, and not join it again: its invite link had no seat left for them."""
    lobby = create_game(alice, invites="1", players="Carol")
    join(bob, lobby, "Bob")
    alices, carols = (Seat.objects.get(game=lobby, name=n) for n in ("Alice", "Carol"))

    alice.post(f"/g/{lobby.code}/seats/{carols.position}/remove/", {"version": version(lobby)})
    page = unisolated(alice.get(f"/g/{lobby.code}/lobby/").content.decode())
    before = fresh(lobby)
    refused = alice.post(
        f"/g/{lobby.code}/seats/{alices.position}/remove/", {"version": version(lobby)}, **HTMX
    )

    assert not Seat.objects.filter(pk=carols.pk).exists()  # another of hers: removed
    assert 'aria-label="Remove Alice"' not in page  # her last: not offered
    assert 'aria-label="Remove Bob"' in page
    assert refused.status_code == 400
    assert "You host this table: your last seat at it stays." in refused.content.decode()
    after = fresh(lobby)
    assert (after.version, after.seats.count()) == (before.version, before.seats.count())


def test_the_rejoin_link_brings_the_seat_to_another_device(
    alice: Client, bob: Client, lobby: Game
) -> None:
    join(bob, lobby, "Bob")
    alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})
    seat = Seat.objects.get(game=lobby, name="Bob")
    alice.post(f"/g/{lobby.code}/roll/", {"version": version(lobby)})
    alice.post(
        f"/g/{lobby.code}/score/",
        {"version": version(lobby), "category": "chance", "confirm": "1"},
    )
    phone = Client()

    phone.post(f"/g/{lobby.code}/seat/{seat.token}/")
    response = phone.post(f"/g/{lobby.code}/roll/", {"version": version(lobby)})

    assert response.status_code == 302
    assert fresh(lobby).engine_state().roll_number == 1
    forged = phone.get(f"/g/{lobby.code}/seat/not-a-token/")
    assert forged.status_code == 404
    assert "This personal link is for no seat at this table" in forged.content.decode()
    assert "There is no game" in phone.get("/g/no-such-game/seat/not-a-token/").content.decode()


def test_the_host_skips_a_player_who_went_away(alice: Client, bob: Client, lobby: Game) -> None:
    bobs_turn(alice, bob, lobby)

    too_soon = alice.post(f"/g/{lobby.code}/skip/", {"version": version(lobby)}, **HTMX)
    assert too_soon.status_code == 409
    assert "Bob is at the table: wait for their move." in unisolated(too_soon.content.decode())

    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    # the button says where the zero goes
    assert "Skip Bob's turn (0 in Ones)" in unisolated(
        seen(alice.get(f"/g/{lobby.code}/").content.decode())
    )
    alice.post(f"/g/{lobby.code}/skip/", {"version": version(lobby)})

    state = fresh(lobby).engine_state()
    assert state.current_player == 0
    assert state.scorecards[1].entries == (("ones", 0),)  # the lowest-value open category
    # Bob, back, is told where his zero came from, and so is everyone at the table
    for page in (bob.get(f"/g/{lobby.code}/"), alice.get(f"/g/{lobby.code}/")):
        assert '<p class="last-move"><bdi>Bob</bdi>\'s turn was skipped: 0 in Ones.</p>' in (
            page.content.decode()
        )


def test_a_player_whose_page_has_no_socket_is_not_gone_while_they_play(
    alice: Client, bob: Client, lobby: Game
) -> None:
    # Bob's browser runs no JavaScript: no socket says he is there, his moves do.
    bobs_turn(alice, bob, lobby)
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))

    bob.post(f"/g/{lobby.code}/roll/", {"version": version(lobby)})
    skip = alice.post(f"/g/{lobby.code}/skip/", {"version": version(lobby)}, **HTMX)

    assert skip.status_code == 409
    assert "Bob is at the table: wait for their move." in unisolated(skip.content.decode())
    assert fresh(lobby).engine_state().roll_number == 1  # his turn goes on


def test_a_player_whose_page_has_no_socket_is_not_gone_while_they_look_at_the_table(
    alice: Client, bob: Client, lobby: Game
) -> None:
    """Without JavaScript, Bob learns his turn has come by loading the table: that is
    his browser at the table, as a move is, not gone since his last move."""
    bobs_turn(alice, bob, lobby)
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))

    bob.get(f"/g/{lobby.code}/")
    skip = alice.post(f"/g/{lobby.code}/skip/", {"version": version(lobby)}, **HTMX)

    assert skip.status_code == 409
    assert "Bob is at the table: wait for their move." in unisolated(skip.content.decode())
    assert fresh(lobby).engine_state().current_player == 1  # his turn goes on


def test_a_host_whose_page_has_no_socket_is_not_gone_while_she_looks_at_the_table(
    alice: Client, bob: Client, dice: object
) -> None:
    """Alice's browser runs no JavaScript, and her last move was a while ago; she is
    reloading the table to see how it goes: the skip of Bob, gone, is hers alone."""
    carol = Client()
    game = create_game(alice, invites="2")
    join(bob, game, "Bob")
    join(carol, game, "Carol")
    bobs_turn(alice, bob, game)
    Seat.objects.filter(name__in=["Alice", "Bob"]).update(
        away_since=timezone.now() - timedelta(minutes=1)
    )
    before = fresh(game)

    hosts_table = unisolated(seen(alice.get(f"/g/{game.code}/").content.decode()))
    by_carol = carol.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)

    assert "Skip Bob's turn" in hosts_table
    assert by_carol.status_code == 403
    assert "The host is at the table: only the host can do that." in by_carol.content.decode()
    assert "Skip Bob" not in unisolated(seen(carol.get(f"/g/{game.code}/").content.decode()))
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)


def test_with_the_host_gone_too_a_friend_may_skip_the_player_to_move(
    alice: Client, bob: Client, lobby: Game
) -> None:
    # Alice is the host and to move, and has closed her page: only Bob can go on.
    join(bob, lobby, "Bob")
    alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})
    assert "Skip Alice" not in unisolated(
        seen(bob.get(f"/g/{lobby.code}/").content.decode())
    )  # not gone yet

    Seat.objects.filter(name="Alice").update(away_since=timezone.now() - timedelta(minutes=1))
    page = unisolated(seen(bob.get(f"/g/{lobby.code}/").content.decode()))
    assert '<li class="offline">Alice: away</li>' in page and "Skip Alice's turn" in page
    bob.post(f"/g/{lobby.code}/skip/", {"version": version(lobby)})

    state = fresh(lobby).engine_state()
    assert state.current_player == 1
    assert state.scorecards[0].entries == (("ones", 0),)


def test_while_the_host_is_there_only_she_may_skip(
    alice: Client, bob: Client, dice: object
) -> None:
    carol, watcher = Client(), Client()
    game = create_game(alice, invites="2")
    join(bob, game, "Bob")
    join(carol, game, "Carol")
    bobs_turn(alice, bob, game)  # Bob's turn; he has gone, Alice is at her page
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    Seat.objects.filter(name="Alice").update(connections=1)
    before = fresh(game)

    by_carol = carol.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)
    by_watcher = watcher.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)

    assert "The host is at the table: only the host can do that." in by_carol.content.decode()
    assert "Only the host of this table can do that." in by_watcher.content.decode()
    assert by_carol.status_code == by_watcher.status_code == 403
    assert "Skip <bdi>Bob" not in seen(carol.get(f"/g/{game.code}/").content.decode())
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)


@pytest.mark.parametrize("action", ["skip", "handover"])
def test_a_refused_skip_of_a_player_at_the_table_says_the_real_reason(
    alice: Client, bob: Client, dice: object, action: str
) -> None:
    """Carol, not the host, was told "Bob is at the table: wait for their move." as if
    she could then skip him: only the host can while the host is there."""
    carol = Client()
    game = create_game(alice, invites="2")
    join(bob, game, "Bob")
    join(carol, game, "Carol")
    bobs_turn(alice, bob, game)  # Bob's turn, and he is there
    Seat.objects.filter(name="Alice").update(connections=1)  # so is Alice, the host
    before = fresh(game)

    def refused(client: Client) -> tuple[int, str]:
        answer = client.post(f"/g/{game.code}/{action}/", {"version": version(game)}, **HTMX)
        notice = re.search(r'<p id="notice"[^>]*>(.*?)</p>', answer.content.decode())
        return answer.status_code, unisolated(notice.group(1)).replace("&#x27;", "'")

    assert refused(carol) == (403, "Only the host can do that, and only once Bob has gone away.")
    assert refused(alice) == (409, "Bob is at the table: wait for their move.")
    assert refused(bob) == (409, "It is Bob's turn at this screen: play it here.")
    # with the host gone too, a friend may skip Bob once he has gone: he is the reason
    Seat.objects.filter(name="Alice").update(
        connections=0, away_since=timezone.now() - timedelta(minutes=1)
    )
    assert refused(carol) == (409, "Bob is at the table: wait for their move.")
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)


def test_a_friend_refused_a_skip_of_the_host_is_told_to_wait_for_her_move(
    alice: Client, bob: Client, dice: object
) -> None:
    """Once the host, to move, has gone away, her friends may skip her: that is what
    they wait for."""
    game = create_game(alice, invites="1")
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    Seat.objects.filter(name="Alice").update(connections=1)

    refused = bob.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)

    assert refused.status_code == 409
    assert "Alice is at the table: wait for their move." in unisolated(refused.content.decode())


@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("post", "roll", {"version": "2"}),
        ("post", "roll", {"version": "abc"}),
        ("post", "hold", {"version": "2", "die": "0"}),
        ("post", "declare", {"version": "2", "category": "chance"}),
        ("post", "score", {"version": "2", "category": "chance"}),
        ("post", "score", {"version": "2", "category": "chance", "confirm": "1"}),
        ("post", "skip", {"version": "2"}),
        ("post", "handover", {"version": "2"}),
        ("get", "hint", {}),
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_move_before_the_start_is_refused_on_a_page_of_its_own(
    alice: Client, bob: Client, lobby: Game, method: str, path: str, data: dict, htmx: bool
) -> None:
    # An old or forged page: there is no table to show the refusal on yet.
    before = fresh(lobby)
    for client in (alice, bob):
        response = getattr(client, method)(
            f"/g/{lobby.code}/{path}/", data, **(HTMX if htmx else {})
        )

        assert 400 <= response.status_code < 500
        page = response.content.decode()
        assert "Sorry" in page and 'role="alert"' in page
        if htmx:  # in place of the whole page, not of the lobby's part that asked
            assert (response["HX-Retarget"], response["HX-Reswap"]) == ("body", "innerHTML")
    after = fresh(lobby)
    assert (after.version, after.status, after.state) == (before.version, "lobby", before.state)


def test_a_name_in_the_lobby_is_isolated_and_so_is_the_label_that_names_it(
    alice: Client, bob: Client, lobby: Game
) -> None:
    """An attribute holds no <bdi>: there the name is between FSI and PDI (U+2068,
    U+2069), which isolate in plain text."""
    join(bob, lobby, "محمد")

    page = alice.get(f"/g/{lobby.code}/lobby/").content.decode()

    assert "<span><bdi>محمد</bdi></span>" in page
    assert 'aria-label="Remove \u2068محمد\u2069"' in page


@pytest.mark.parametrize("seat", ["²", "1" * 40, "-1", "1_0"])
def test_a_take_back_naming_no_seat_the_page_could_name_is_refused_as_malformed(
    alice: Client, bob: Client, dice: object, seat: str
) -> None:
    """A seat field that is no small whole number in ASCII digits (a superscript two,
    which Python reads as a digit and not as a number; forty digits) is refused as any
    malformed form is, and Bob's seat stays the computer's."""
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})
    before = fresh(game)

    english = bob.post(f"/g/{game.code}/takeback/", {"seat": seat}, **HTMX)
    finnish = bob.post(
        f"/g/{game.code}/takeback/", {"seat": seat}, HTTP_ACCEPT_LANGUAGE="fi", **HTMX
    )

    assert english.status_code == finnish.status_code == 400
    assert "That request was malformed: reload the table and try again." in english.content.decode()
    assert "Pyyntö oli virheellinen" in finnish.content.decode()
    assert Seat.objects.get(name="Bob").kind == Seat.Kind.BOT
    assert fresh(game).version == before.version


@pytest.mark.parametrize("path", ["", "lobby/", "review/", "qr.svg", "seat/any-token/"])
def test_a_game_code_holding_a_nul_is_no_game(alice: Client, path: str) -> None:
    """PostgreSQL holds no NUL in a string: such a code is simply no game's."""
    response = alice.get(f"/g/a%00b/{path}")

    assert response.status_code == 404
    assert "There is no game at this address." in response.content.decode()


@pytest.mark.parametrize("path", ["roll/", "start/", "takeback/", "again/"])
def test_a_move_at_a_game_code_holding_a_nul_is_refused_as_no_game(
    alice: Client, path: str
) -> None:
    response = alice.post(f"/g/a%00b/{path}", {"version": "1"}, **HTMX)

    assert response.status_code == 404
    assert "There is no game at this address." in response.content.decode()


def test_a_personal_link_holding_a_nul_is_for_no_seat(alice: Client, lobby: Game) -> None:
    response = Client().get(f"/g/{lobby.code}/seat/a%00b/")

    assert response.status_code == 404
    assert "This personal link is for no seat at this table" in response.content.decode()
