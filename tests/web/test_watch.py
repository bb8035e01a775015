"""The Watch page: the games being played that anyone may watch (quick play's, and those
whose host chose "Anyone may watch"), with their scores; one of them on the home page."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.conftest import create_game, fresh, play_to_the_end, version

pytestmark = pytest.mark.django_db


def quick_table(alice: Client, bob: Client) -> Game:
    for client, name in ((alice, "Ann"), (bob, "Ben")):
        client.get("/")
        answer = client.post("/quick/play/", {"name": name, "ruleset": "yahtzee"})
    return Game.objects.get(code=answer["Location"].split("/")[2])


def test_a_quick_play_game_is_listed_with_its_scores_and_the_way_in(
    alice: Client, bob: Client, spectator: Client
) -> None:
    game = quick_table(alice, bob)
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )
    points = fresh(game).started_state().totals(0).total

    page = spectator.get("/watch/").content.decode()

    assert "Games to watch" in page
    assert f'href="/g/{game.code}/"' in page
    assert "American Yahtzee" in page
    assert f'<span class="leads"><bdi>Ann</bdi> {points}</span>' in page
    assert "Round 1 of 13" in page
    assert 'data-list-socket="/ws/watch/"' in page


def test_friends_tables_are_listed_only_if_their_host_lets_anyone_watch(
    alice: Client, spectator: Client
) -> None:
    private = create_game(alice, players="Bob")  # "public" is about the history only
    assert private.public and not private.watchable
    open_one = create_game(alice, players="Bob", watchable="on")

    page = spectator.get("/watch/").content.decode()

    assert f"/g/{open_one.code}/" in page
    assert f"/g/{private.code}/" not in page


def test_a_game_over_leaves_the_list(alice: Client, spectator: Client) -> None:
    game = create_game(alice, players="Bob", watchable="on", upper_only="on")
    assert f"/g/{game.code}/" in spectator.get("/watch/").content.decode()
    play_to_the_end(alice, game)
    page = spectator.get("/watch/").content.decode()
    assert f"/g/{game.code}/" not in page
    assert "No game to watch just now" in page


def test_the_home_page_shows_one_game_to_watch(
    alice: Client, bob: Client, spectator: Client
) -> None:
    assert "Watch a game" in spectator.get("/").content.decode()
    game = quick_table(alice, bob)
    home = spectator.get("/").content.decode()
    assert f'href="/g/{game.code}/"' in home
    assert 'href="/watch/"' in home


def test_the_new_game_form_offers_anyone_may_watch_off_by_default(alice: Client) -> None:
    page = alice.get("/").content.decode()
    assert "Anyone may watch" in page
    assert 'name="watchable"' in page and 'name="watchable" checked' not in page


def test_the_next_game_keeps_who_may_watch(alice: Client) -> None:
    game = play_to_the_end(
        alice, create_game(alice, players="Bob", watchable="on", upper_only="on")
    )
    following = alice.post(f"/g/{game.code}/again/")
    code = following["Location"].split("/")[2]
    assert Game.objects.get(code=code).watchable
