"""The end of a game and the next one at the table: the result panel, the first turn
one seat along, and who asked for the next game."""

from __future__ import annotations

from django.test import Client

from games.models import Game
from tests.conftest import create_game, fresh, play_to_the_end, unisolated, version
from tests.seen import seen

HTMX = {"HTTP_HX_REQUEST": "true"}


def finished_duel(alice: Client, bob: Client) -> Game:
    """A short game of Alice's and Bob's (by invite link), played to its end."""
    game = create_game(alice, invites="1", upper_only="on")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    game = fresh(game)
    players = {s.player_index: (alice if s.name == "Alice" else bob) for s in game.seats.all()}
    return play_to_the_end(players, game)


def to_move(game: Game) -> str:
    state = fresh(game).engine_state()
    return fresh(game).seats.get(player_index=state.current_player).name


def test_every_viewer_sees_the_ranking_and_the_main_buttons_at_the_end(
    alice: Client, bob: Client, spectator: Client, dice: object
) -> None:
    game = finished_duel(alice, bob)

    for client in (alice, bob):
        page = unisolated(seen(client.get(f"/g/{game.code}/").content.decode()))
        assert 'class="ranking result-panel"' in page
        assert "Final ranking" in page and "Winner" in page
        assert "Play again</button>" in page and "Review the game</a>" in page
    watching = seen(spectator.get(f"/g/{game.code}/").content.decode())
    assert "Final ranking" in watching and "Review the game</a>" in watching
    assert "Play again" not in watching


def test_the_next_game_starts_one_seat_along_and_says_who_asked_for_it(
    alice: Client, bob: Client, spectator: Client, dice: object
) -> None:
    game = finished_duel(alice, bob)
    assert [s.name for s in game.seats.order_by("position")] == ["Alice", "Bob"]

    bob.post(f"/g/{game.code}/again/")

    following = fresh(game).next_game
    assert following is not None
    assert to_move(following) == "Bob"  # Alice began the last game
    for client in (alice, bob, spectator):
        page = unisolated(client.get(f"/g/{following.code}/").content.decode())
        assert "Bob started this rematch." in page
    # the seats keep their places: only the order of play moved on
    assert [s.name for s in following.seats.order_by("position")] == ["Alice", "Bob"]

    finished = play_to_the_end(
        {s.player_index: (alice if s.name == "Alice" else bob) for s in following.seats.all()},
        following,
    )
    # the review replays the game in its own order of play
    review = unisolated(alice.get(f"/g/{finished.code}/review/").content.decode())
    assert "Bob" in review
    alice.post(f"/g/{finished.code}/again/")
    third = fresh(finished).next_game
    assert to_move(third) == "Alice"  # along again, and round to the first seat
    assert "Alice started this rematch." in unisolated(
        bob.get(f"/g/{third.code}/").content.decode()
    )


def test_the_rematch_is_said_through_the_first_round_only(
    alice: Client, bob: Client, dice: object
) -> None:
    game = finished_duel(alice, bob)
    alice.post(f"/g/{game.code}/again/")
    following = fresh(game).next_game
    for client in (bob, alice):  # Bob first, then Alice: the first round is played
        client.post(f"/g/{following.code}/roll/", {"version": version(following)}, **HTMX)
        category = fresh(following).engine_state().open_categories()[0]
        fields = {"version": version(following), "category": category, "confirm": "1"}
        client.post(f"/g/{following.code}/score/", fields, **HTMX)

    page = unisolated(alice.get(f"/g/{following.code}/").content.decode())
    assert fresh(following).engine_state().round == 1
    assert "started this rematch" not in page


def test_a_team_table_passes_the_first_turn_to_the_next_team(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob\nCarol\nDan", teams="2", upper_only="on")
    finished = play_to_the_end(alice, game)
    first_team = {s.team for s in finished.seats.all() if s.name == "Alice"}

    alice.post(f"/g/{finished.code}/again/")

    following = fresh(finished).next_game
    assert to_move(following) == "Bob"  # the next seat, of the other team
    assert {following.seats.get(name="Bob").team} != first_team
    assert "Alice started this rematch." in unisolated(
        alice.get(f"/g/{following.code}/").content.decode()
    )
    assert play_to_the_end(alice, following).status == Game.Status.FINISHED
    assert alice.get(f"/g/{following.code}/review/").status_code == 200
