"""Committed dice at the site: the fingerprint from the lobby on, the seed kept out of
every page, push, log line and event before the end, revealed after it, and checked
from the database (``manage.py verify_dice``) and from the export."""

from __future__ import annotations

import hashlib
import logging
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games.models import Game, GameEvent, new_game_code
from games.rules import fairness
from tests.conftest import create_game, fresh, play_to_the_end, version

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def everything_logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def short_game(alice: Client, **fields: str) -> Game:
    """One player's upper-section game (six turns), played with its committed dice."""
    return create_game(alice, upper_only="on", **fields)


def test_a_new_game_commits_to_a_secret_seed(alice: Client) -> None:
    game = short_game(alice)

    assert len(game.dice_seed) == 64
    assert game.dice_commitment == hashlib.sha256(bytes.fromhex(game.dice_seed)).hexdigest()
    assert short_game(alice).dice_seed != game.dice_seed


def test_the_lobby_shows_the_fingerprint_and_not_the_seed(alice: Client) -> None:
    game = create_game(alice, invites="1")

    page = alice.get(f"/g/{game.code}/lobby/").content.decode()

    assert "Dice fingerprint" in page and game.dice_commitment in page
    assert "What is this?" in page
    assert game.dice_seed not in page


def test_the_fingerprint_is_in_finnish_at_a_finnish_table(alice: Client) -> None:
    game = short_game(alice)
    alice.cookies["django_language"] = "fi"

    page = alice.get(f"/g/{game.code}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert "Noppien sormenjälki" in page and game.dice_commitment in page


def test_no_page_answer_event_or_log_line_holds_the_seed_before_the_end(
    alice: Client, everything_logged: pytest.LogCaptureFixture
) -> None:
    game = short_game(alice, coach="on")
    seed = game.dice_seed
    seen = [alice.get(f"/g/{game.code}/").content.decode()]
    assert game.dice_commitment in seen[0]

    for category in ("ones", "twos", "threes", "fours", "fives"):
        for step in ("roll", "hint", "hold"):
            if step == "roll":
                response = alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
            elif step == "hint":
                response = alice.get(f"/g/{game.code}/hint/", **HTMX)
            else:
                data = {"version": version(game), "die": "0"}
                response = alice.post(f"/g/{game.code}/hold/", data, **HTMX)
            assert response.status_code < 500
            seen.append(response.content.decode())
        data = {"version": version(game), "category": category, "confirm": "1"}
        seen.append(alice.post(f"/g/{game.code}/score/", data, **HTMX).content.decode())
        seen.append(alice.get(f"/g/{game.code}/review/").content.decode())
        seen.append(alice.get(f"/g/{game.code}/dice.json").content.decode())
        seen.append(alice.get("/history/").content.decode())

    assert fresh(game).status == Game.Status.PLAYING
    assert not [text for text in seen if seed in text]
    assert seed not in everything_logged.text
    assert not any(seed in str(event.data) for event in GameEvent.objects.filter(game=game))


def test_the_table_and_the_review_reveal_the_seed_at_the_end(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))

    table = alice.get(f"/g/{game.code}/").content.decode()
    review = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "Dice seed" in table and game.dice_seed in table
    assert game.dice_seed in review and game.dice_commitment in review
    assert "Check the dice" in review and "js/dice-check.js" in review
    assert "<script>" not in review  # the check runs from its static file


def test_the_export_of_a_finished_game_checks_out(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))

    response = alice.get(f"/g/{game.code}/dice.json")

    assert response.status_code == 200
    exported = response.json()
    assert exported["seed"] == game.dice_seed
    assert exported["commitment"] == game.dice_commitment
    assert len(exported["rolls"]) == 6  # one roll a turn, as played
    assert fairness.verify(exported).ok


def test_the_dice_of_a_game_with_computer_players_are_the_seeds_too(alice: Client) -> None:
    game = create_game(alice, upper_only="on", players="", bots="2")
    game = play_to_the_end(alice, game)

    verdict = fairness.verify(alice.get(f"/g/{game.code}/dice.json").json())

    assert verdict.ok, verdict.problem
    assert verdict.rolls >= 6 * 3


def test_the_export_of_an_unknown_game_is_not_found(alice: Client) -> None:
    for code in ("nosuchgame", "%00", "a" * 300):
        response = alice.get(f"/g/{code}/dice.json")
        assert response.status_code == 404
        assert "There is no game at this address" in response.json()["error"]


def test_the_export_is_refused_before_the_end(alice: Client) -> None:
    game = short_game(alice)

    response = alice.get(f"/g/{game.code}/dice.json")

    assert response.status_code == 409
    assert response.json() == {"error": "The dice seed stays secret until the game is over."}


def test_a_game_from_before_committed_dice_has_no_fingerprint_and_nothing_to_check(
    alice: Client,
) -> None:
    game = short_game(alice)
    Game.objects.filter(pk=game.pk).update(dice_seed="", dice_commitment="")
    game = play_to_the_end(alice, game)

    response = alice.get(f"/g/{game.code}/dice.json")
    review = alice.get(f"/g/{game.code}/review/").content.decode()

    assert response.status_code == 404
    assert "before the dice were committed" in response.json()["error"]
    assert "Dice fingerprint" not in review and "Check the dice" not in review


def test_the_export_answers_only_get(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))

    assert alice.post(f"/g/{game.code}/dice.json").status_code == 405


def test_verify_dice_checks_a_finished_game_from_the_database(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))
    out = StringIO()

    call_command("verify_dice", game.code, stdout=out)

    assert f"{game.code}: all 6 rolls match the seed" in out.getvalue()


def test_verify_dice_names_the_first_roll_changed_in_the_database(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))
    event = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ROLL)[2]
    event.data["dice"][0] = event.data["dice"][0] % 6 + 1
    event.save(update_fields=["data"])

    with pytest.raises(CommandError, match=r"roll 3 \(turn 3, roll 1\): die 1 shows"):
        call_command("verify_dice", game.code)


def test_a_game_code_never_reads_as_a_commands_option(alice: Client) -> None:
    assert not any(new_game_code().startswith("-") for _ in range(2000))
    game = play_to_the_end(alice, short_game(alice))
    Game.objects.filter(pk=game.pk).update(code="-" + game.code[1:])  # made before the rule
    out = StringIO()

    call_command("verify_dice", "--", "-" + game.code[1:], stdout=out)

    assert "all 6 rolls match the seed" in out.getvalue()


def test_verify_dice_refuses_a_changed_seed(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))
    Game.objects.filter(pk=game.pk).update(dice_seed="0" * 64)

    with pytest.raises(CommandError, match="the seed does not give the dice fingerprint"):
        call_command("verify_dice", game.code)


def test_verify_dice_says_why_it_cannot_check(alice: Client) -> None:
    game = short_game(alice)

    with pytest.raises(CommandError, match="stays secret until the game is over"):
        call_command("verify_dice", game.code)
    with pytest.raises(CommandError, match="There is no game at this address"):
        call_command("verify_dice", "nosuchgame")


def test_the_next_game_at_the_table_commits_to_a_seed_of_its_own(alice: Client) -> None:
    game = play_to_the_end(alice, short_game(alice))

    alice.post(f"/g/{game.code}/again/")
    following = fresh(game).next_game

    assert following is not None
    assert following.dice_seed and following.dice_seed != game.dice_seed
    assert following.dice_commitment == fairness.commitment(following.dice_seed)
    page = alice.get(f"/g/{following.code}/").content.decode()
    assert following.dice_commitment in page and following.dice_seed not in page
