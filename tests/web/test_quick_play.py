"""Quick play: two strangers who press "Play someone now" for the same rules sit at one
table; one who presses alone waits, and can stop, or play the computer instead."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Seat, Seek
from games.services import quick
from tests.conftest import create_game, unisolated, version

pytestmark = pytest.mark.django_db


def press(client: Client, name: str = "Ann", ruleset: str = "yatzy", **more: str):
    client.get("/")  # the home page, as a player comes to it
    return client.post("/quick/play/", {"name": name, "ruleset": ruleset, **more})


def table_of(response) -> str:
    location = response["Location"]
    assert location.startswith("/g/"), location
    return location.split("/")[2]


def test_the_home_page_offers_to_play_someone_now(alice: Client) -> None:
    page = alice.get("/").content.decode()
    assert "Play someone now" in page
    assert 'formaction="/quick/play/"' in page


def test_two_strangers_who_press_for_the_same_rules_sit_at_one_table(
    alice: Client, bob: Client
) -> None:
    first = press(alice, "Ann")
    assert first.status_code == 302 and first["Location"] == "/quick/"
    waiting = alice.get("/quick/").content.decode()
    assert "Looking for a player" in waiting
    assert "Waiting for someone to play Scandinavian Yatzy with you" in waiting

    code = table_of(press(bob, "Ben"))
    game = Game.objects.get(code=code)
    assert game.status == Game.Status.PLAYING and game.quick_play
    assert game.ruleset == "yatzy" and game.turn_seconds == quick.TURN_SECONDS
    assert [seat.name for seat in game.seats.all()] == ["Ann", "Ben"]

    # Ann's waiting page (told over its socket, or reloading) takes her to the table
    assert alice.get("/quick/")["Location"] == f"/g/{code}/"
    # each holds their own seat; Ann, who waited longer, plays first and hosts
    assert 'class="table-page my-turn host player"' in alice.get(f"/g/{code}/").content.decode()
    assert 'class="table-page player"' in bob.get(f"/g/{code}/").content.decode()
    roll = alice.post(f"/g/{code}/roll/", {"version": Game.objects.get(code=code).version})
    assert roll.status_code == 302
    assert Game.objects.get(code=code).version > game.version


def test_a_second_press_of_a_browser_just_seated_goes_to_its_table(
    alice: Client, bob: Client
) -> None:
    """A double click, or the button pressed in another tab meanwhile: one table."""
    press(alice, "Ann")
    code = table_of(press(bob, "Ben"))
    assert table_of(bob.post("/quick/play/", {"name": "Ben", "ruleset": "yatzy"})) == code
    assert table_of(alice.post("/quick/play/", {"name": "Ann", "ruleset": "yatzy"})) == code
    assert Game.objects.count() == 1


def test_a_press_a_while_after_a_table_was_found_asks_for_a_new_one(
    alice: Client, bob: Client
) -> None:
    press(alice, "Ann")
    press(bob, "Ben")
    Seek.objects.update(seated_at=timezone.now() - quick.SEATED_KEPT - timedelta(seconds=1))
    assert press(bob, "Ben")["Location"] == "/quick/"
    assert "not waiting" in alice.get("/quick/").content.decode()  # her table was long ago


def test_different_rules_do_not_pair(alice: Client, bob: Client) -> None:
    press(alice, "Ann", "yatzy")
    assert press(bob, "Ben", "yahtzee")["Location"] == "/quick/"
    page = bob.get("/quick/").content.decode()
    # Ben sees that someone waits for the other rules, and may play those with them
    assert "Play Scandinavian Yatzy with them" in page
    code = table_of(bob.post("/quick/play/", {"name": "Ben", "ruleset": "yatzy"}))
    assert Game.objects.get(code=code).ruleset == "yatzy"
    assert not Seek.objects.filter(game=None).exists()  # Ben waits for Yahtzee no more


def test_two_tabs_of_one_browser_wait_once_and_never_pair_with_each_other(alice: Client) -> None:
    press(alice, "Ann")
    assert press(alice, "Ann")["Location"] == "/quick/"
    assert Seek.objects.count() == 1
    assert not Game.objects.exists()


def test_a_press_for_other_rules_moves_the_browser_there(alice: Client) -> None:
    press(alice, "Ann", "yatzy")
    press(alice, "Ann", "maxi_yatzy")
    assert list(Seek.objects.values_list("ruleset", flat=True)) == ["maxi_yatzy"]


def test_a_waiter_who_stops_is_no_longer_paired(alice: Client, bob: Client) -> None:
    press(alice, "Ann")
    assert alice.post("/quick/stop/")["Location"] == "/"
    assert "You are not waiting for a game" in alice.get("/quick/").content.decode()
    assert press(bob, "Ben")["Location"] == "/quick/"  # Ben waits: nobody is there


def test_a_waiter_whose_page_has_gone_is_not_paired(alice: Client, bob: Client) -> None:
    press(alice, "Ann")
    long_ago = timezone.now() - quick.HEARTBEAT_LOST - timedelta(seconds=1)
    Seek.objects.update(seen_at=long_ago, sockets=1)  # its server died with the socket
    assert press(bob, "Ben")["Location"] == "/quick/"
    assert list(Seek.objects.values_list("name", flat=True)) == ["Ben"]


def test_the_same_name_twice_is_told_apart(alice: Client, bob: Client) -> None:
    press(alice, "Ann")
    code = table_of(press(bob, "ann"))
    assert [s.name for s in Seat.objects.filter(game__code=code)] == ["Ann", "ann 2"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   "}, "Please tell the table your name."),
        ({"name": "Ann", "ruleset": "poker"}, "Choose one of the site&#x27;s rule sets."),
        ({"name": "A" * 200}, "A name has at most"),
    ],
)
def test_a_press_without_a_name_or_rules_is_told_why_on_the_home_page(
    alice: Client, fields: dict, message: str
) -> None:
    alice.get("/")
    answer = alice.post("/quick/play/", fields)
    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Seek.objects.exists()


def test_a_waiter_may_play_the_computer_instead(alice: Client) -> None:
    press(alice, "Ann", "yahtzee")
    code = table_of(alice.post("/quick/computer/", {"ruleset": "yahtzee"}))
    game = Game.objects.get(code=code)
    assert game.ruleset == "yahtzee" and not game.quick_play
    assert [seat.kind for seat in game.seats.all()] == [Seat.Kind.LOCAL, Seat.Kind.BOT]
    assert not Seek.objects.exists()
    assert "Roll" in alice.get(f"/g/{code}/").content.decode()


def test_the_computer_instead_without_waiting_is_refused(alice: Client) -> None:
    alice.get("/")
    answer = alice.post("/quick/computer/", {"ruleset": "yatzy"})
    assert answer.status_code == 409
    assert "not waiting for a game" in answer.content.decode()


def test_after_half_a_minute_with_nobody_the_computer_is_offered_again(alice: Client) -> None:
    press(alice, "Ann")
    page = alice.get("/quick/").content.decode()
    assert 'id="quick-nobody" class="notice" role="status" hidden' in page
    Seek.objects.update(waiting_since=timezone.now() - timedelta(seconds=31))
    page = alice.get("/quick/").content.decode()
    assert 'id="quick-nobody" class="notice" role="status">' in page
    assert "Nobody has come yet" in page


def test_the_quick_pages_take_only_their_methods(alice: Client) -> None:
    assert alice.get("/quick/play/").status_code == 405
    assert alice.get("/quick/stop/").status_code == 405
    assert alice.post("/quick/").status_code == 405


def test_strangers_see_no_link_of_the_others_and_may_mute_them(
    alice: Client, bob: Client, spectator: Client
) -> None:
    press(alice, "Ann")
    code = table_of(press(bob, "Ben"))
    ann, ben = Seat.objects.filter(game__code=code).order_by("position")
    page = alice.get(f"/g/{code}/").content.decode()
    assert ann.token in page and ben.token not in page  # her personal link, not his
    assert 'data-mute="Ben"' in page and 'data-mute="Ann"' not in page
    assert "Mute <bdi>Ben</bdi>'s reactions" in page
    watching = spectator.get(f"/g/{code}/").content.decode()
    assert ann.token not in watching and ben.token not in watching
    assert 'data-mute="Ann"' in watching and 'data-mute="Ben"' in watching
    # friends, who chose each other, are offered no muting
    friends = create_game(alice, invites="1")
    bob.post(f"/g/{friends.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{friends.code}/start/", {"version": version(friends)})
    assert "Roll" in bob.get(f"/g/{friends.code}/").content.decode()
    assert "data-mute" not in bob.get(f"/g/{friends.code}/").content.decode()
    # the one way to speak at the table is a quick reaction: there is no free text
    assert bob.post(f"/g/{code}/react/", {"reaction": "Hello there"}).status_code == 400


def test_an_idle_stranger_is_skipped_by_the_timer_and_handed_to_the_computer_by_the_host(
    alice: Client, bob: Client, spectator: Client, settings, dice: object
) -> None:
    """At a table of strangers an idle player is handled as at any table: their turn
    runs out (quick play's tables have a turn timer), and once away the host may let
    the computer play for them."""
    for client, name in ((alice, "Ann"), (bob, "Ben")):
        client.get("/")
        answer = client.post("/quick/play/", {"name": name, "ruleset": "yatzy"})
    game = Game.objects.get(code=answer["Location"].split("/")[2])
    assert game.turn_seconds == quick.TURN_SECONDS

    settings.YATZY_CLOCK_SHIFT = timedelta(seconds=quick.TURN_SECONDS + 1)  # Ann idles
    page = unisolated(spectator.get(f"/g/{game.code}/").content.decode())

    assert "Ann's turn was skipped: 0 in" in page and "Ben's turn." in page
    Seat.objects.filter(name="Ben").update(away_since=timezone.now() - timedelta(minutes=1))
    assert "Let the computer play for Ben" in unisolated(
        alice.get(f"/g/{game.code}/").content.decode()
    )
    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})
    assert Seat.objects.get(game=game, name="Ben").kind == Seat.Kind.BOT
