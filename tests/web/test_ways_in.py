"""The home page's three ways in: one press each, with the defaults of its way, and the
options of More options as they are."""

from __future__ import annotations

from django.test import Client

from games import bots
from games.models import Game, Seat
from tests.conftest import NEW_GAME, create_game, fresh, play_to_the_end


def kinds(game: Game) -> list[tuple[str, str]]:
    return [(seat.kind, seat.bot_level) for seat in game.seats.order_by("position")]


def test_the_home_page_offers_three_ways_in_and_more_options(alice: Client) -> None:
    page = alice.get("/").content.decode()

    for way, words in (
        ("friends", "Play with friends"),
        ("computer", "Play the computer"),
        ("together", "Pass and play"),
    ):
        assert f'name="way" value="{way}" class="primary">{words}<span' in page
    assert "<summary>More options</summary>" in page
    assert page.count('id="id_name"') == 1  # the name asked once, for every button
    assert 'data-rulesets="yatzy"' in page and 'data-rulesets="yahtzee"' in page


def test_play_with_friends_makes_a_room_with_one_invitation(alice: Client) -> None:
    game = create_game(alice, way="friends")

    assert game.status == Game.Status.LOBBY
    assert kinds(game) == [(Seat.Kind.LOCAL, ""), (Seat.Kind.REMOTE, "")]


def test_more_options_friends_count_stands(alice: Client) -> None:
    game = create_game(alice, way="friends", invites="3")

    assert [kind for kind, _ in kinds(game)].count(Seat.Kind.REMOTE) == 3


def test_play_the_computer_starts_at_the_level_chosen(alice: Client) -> None:
    game = create_game(alice, way="computer", bot_level="perfect")

    assert game.status == Game.Status.PLAYING
    assert kinds(game) == [(Seat.Kind.LOCAL, ""), (Seat.Kind.BOT, "perfect")]


def test_pass_and_play_seats_the_names_at_this_screen(alice: Client) -> None:
    game = create_game(alice, way="together", players="Bob\nCarol")

    assert game.status == Game.Status.PLAYING
    assert [s.name for s in game.seats.order_by("position")] == ["Alice", "Bob", "Carol"]
    assert {kind for kind, _ in kinds(game)} == {Seat.Kind.LOCAL}


def test_pass_and_play_without_names_asks_for_them(alice: Client) -> None:
    response = alice.post("/games/new/", {**NEW_GAME, "way": "together"})

    assert response.status_code == 400
    assert "Write the names of the players at this screen, one per line." in response.text
    assert not Game.objects.exists()


def test_an_unknown_way_is_refused_in_words(alice: Client) -> None:
    response = alice.post("/games/new/", {**NEW_GAME, "way": "spaceship"})

    assert response.status_code == 400
    assert "Select a valid choice." in response.text
    assert not Game.objects.exists()


def test_a_table_of_fast_computer_players_steps_them_faster(alice: Client, settings) -> None:
    settings.YATZY_BOT_DELAY, settings.YATZY_BOT_FAST_DELAY = 0.9, 0.15
    relaxed = create_game(alice, way="computer")
    fast = create_game(alice, way="computer", computer_pace="fast")

    assert (relaxed.computer_pace, fast.computer_pace) == ("relaxed", "fast")
    assert (bots.step_delay(relaxed), bots.step_delay(fast)) == (0.9, 0.15)


def test_the_next_game_keeps_the_pace(alice: Client) -> None:
    game = play_to_the_end(
        alice, create_game(alice, way="computer", computer_pace="fast", upper_only="on")
    )

    alice.post(f"/g/{game.code}/again/")

    assert fresh(game).next_game.computer_pace == "fast"


def test_the_computers_strength_is_offered_again_on_a_return_visit(alice: Client) -> None:
    """Issue 46: the strength went back to Good on every visit."""
    first = alice.get("/").content.decode()
    create_game(alice, way="computer", bot_level="beginner")

    again = alice.get("/").content.decode()

    assert '<option value="good" selected>' in first
    assert '<option value="beginner" selected>' in again
    assert '<option value="good" selected>' not in again
    create_game(alice, way="friends", bot_level="perfect")  # no computer at that table
    assert '<option value="beginner" selected>' in alice.get("/").content.decode()
