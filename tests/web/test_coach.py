"""The coach: a hint for the player to move, only on tables that allow it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from games import coach, rules
from games.rendering import table_macros
from games.strategy.solver import Variant
from tests.conftest import create_game, fresh, script_dice, solved_tables, version
from tests.seen import seen
from tests.web.test_table import extra_yahtzee

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(scope="module")
def solved() -> None:
    solved_tables(Variant("yatzy"))


@pytest.fixture
def four_sixes(monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch, rules.ScriptedDice([6, 3, 6, 6, 6] * 4))


def test_the_coach_says_hold_four_sixes(alice: Client, solved: None, four_sixes: None) -> None:
    game = create_game(alice, coach="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    page = alice.get(f"/g/{game.code}/").content.decode()
    assert ">Hint</a>" in page

    response = alice.get(f"/g/{game.code}/hint/", **HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert "The coach says" in body
    assert "<strong>Hold 6, 6, 6, 6 and roll the rest</strong>" in body
    assert "Expected final score:" in body
    assert "Next best:" in body and "Score 24 in Sixes" in body
    assert fresh(game).version == int(version(game))  # asking changes nothing


def test_the_hint_is_for_the_player_to_move(
    alice: Client, bob: Client, solved: None, four_sixes: None
) -> None:
    game = create_game(alice, coach="on", invites="1")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})

    response = bob.get(f"/g/{game.code}/hint/", **HTMX)

    assert response.status_code == 409
    assert "The coach only advises the player whose turn it is." in response.content.decode()
    assert ">Hint</a>" not in seen(bob.get(f"/g/{game.code}/").content.decode())


def test_a_coach_whose_tables_nothing_builds_says_so_without_a_command(
    alice: Client, four_sixes: None, no_tables_built: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "0")
    game = create_game(alice, coach="on", upper_bonus="25")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})

    body = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    assert "in a minute" not in body
    assert (
        "The coach cannot advise at this table: this site has not worked out perfect play"
        " for these rules." in body
    )
    assert "manage.py" not in body  # no operator's command for a player (issue 46)


def test_a_competitive_table_has_no_coach(alice: Client, four_sixes: None) -> None:
    game = create_game(alice)
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    assert ">Hint</a>" not in alice.get(f"/g/{game.code}/").content.decode()

    response = alice.get(f"/g/{game.code}/hint/", **HTMX)

    assert response.status_code == 409
    assert "This table plays without the coach." in response.content.decode()


def test_before_the_first_roll_the_coach_waits(alice: Client) -> None:
    game = create_game(alice, coach="on")

    body = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    assert "Roll the dice first: the coach advises on what you roll." in body


def test_at_a_declared_target_table_the_coach_advises_the_declaration(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, declared_target="on", upper_only="on", coach="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})

    body = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    assert re.search(r"Declare (Ones|Twos|Threes|Fours|Fives|Sixes) as target", body)


def test_at_maxi_yatzy_without_its_tables_the_coach_says_so_without_a_command(
    alice: Client, no_tables_built: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "1")  # a server that builds others unasked
    game = create_game(alice, ruleset="maxi_yatzy", coach="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})

    body = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    assert "this site has not worked out perfect play for these rules." in body
    assert "manage.py" not in body


def test_the_coach_is_offered_at_a_maxi_yatzy_table_in_forced_order(alice: Client) -> None:
    game = create_game(alice, ruleset="maxi_yatzy", forced_order="on", coach="on")

    assert game.coach  # a small game: solved on the spot when first asked


def test_an_unknown_game_has_no_hint(alice: Client) -> None:
    response = alice.get("/g/nosuchgame/hint/")

    assert response.status_code == 404


def test_the_coach_writes_its_decimals_as_the_language_does(
    alice: Client, solved: None, four_sixes: None
) -> None:
    game = create_game(alice, coach="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    body = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    hint = body.partition('<section class="hint"')[2].partition("</section>")[0]
    assert len(re.findall(r"\d,\d", hint)) == 7  # the best's points, 3 runners-up's and gaps
    assert not re.search(r"\d\.\d", hint)


def test_the_coach_counts_the_yahtzee_bonus_of_an_extra_yahtzee(alice: Client) -> None:
    """The score buttons said "30 +100", the coach "Score 30 in Sixes": the bonus left out."""
    solved_tables(Variant("yahtzee"))
    game = extra_yahtzee(alice, (("yahtzee", 50),), coach="on")

    english = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    finnish = alice.get(f"/g/{game.code}/hint/", **HTMX).content.decode()

    assert "<strong>Score 30 in Sixes and a Yahtzee bonus of 100</strong>" in english
    assert "<strong>Kirjaa 30 kohtaan Kuutoset ja Yahtzee-bonus 100</strong>" in finnish


@pytest.mark.parametrize(
    ("language", "level", "behind"),
    [("en", "(about as good)", "(0.4 less)"), ("fi", "(suunnilleen yhtä hyvä)", "(0,4 vähemmän)")],
)
def test_a_runner_up_as_good_as_the_best_is_said_so(language: str, level: str, behind: str) -> None:
    """Two holds of the same worth (the same dice of another face) were "(0.0 less)"."""
    hint = coach.Hint(
        best=coach.Line("Hold 2 and roll the rest", 120.26),
        alternatives=(
            coach.Line("Hold 3 and roll the rest", 120.25, behind=0.01),
            coach.Line("Roll all five again", 119.86, behind=0.4),
        ),
    )
    with translation.override(language):
        body = str(table_macros().coach(hint, {}))

    runners_up = re.findall(r"<li>(.*?)</li>", body)
    assert runners_up[0].endswith(level)
    assert runners_up[1].endswith(behind)
