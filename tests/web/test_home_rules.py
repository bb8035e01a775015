"""The home page's rule set: chosen beside the name, named by every way in, and no
Perfect computer nor coach offered for rules whose perfect play is not worked out."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import rules
from games.forms import RULESET_CHOICES
from games.models import Game
from games.strategy import tables
from games.strategy.variant import Variant
from games.views.home import unsolved
from tests.conftest import create_game


def before_more_options(page: str) -> str:
    return page[: page.index('<details class="more-options"')]


def test_the_rule_set_is_chosen_without_opening_more_options(alice: Client) -> None:
    page = alice.get("/").content.decode()

    choice = before_more_options(page)
    assert '<select name="ruleset"' in choice
    assert page.count('name="ruleset"') == 1
    for key, _name in RULESET_CHOICES:
        assert f'<option value="{key}"' in choice


def test_each_way_in_names_every_rule_set_it_may_start(alice: Client) -> None:
    """Each button holds a line per rule set; flow.css shows the chosen one's."""
    page = alice.get("/").content.decode()

    buttons = re.findall(r'<button type="submit" name="way".*?</button>', page, re.S)
    assert len(buttons) == 3
    for button in buttons:
        for key, name in RULESET_CHOICES:
            assert f'<span class="way-rules way-rules-{key}"> {name}</span>' in button


@pytest.mark.parametrize("ruleset", ["yahtzee", "maxi_yatzy"])
def test_a_way_in_starts_the_rule_set_chosen(alice: Client, ruleset: str) -> None:
    game = create_game(alice, way="computer", ruleset=ruleset)

    assert game.ruleset == ruleset
    assert game.status == Game.Status.PLAYING


def test_without_tables_nor_their_building_every_whole_game_is_unsolved(
    alice: Client, no_tables_built: None
) -> None:
    names = unsolved()

    assert "maxi_yatzy" in names and "maxi_yatzy-declared" in names
    assert {"yatzy", "yatzy-bonus25", "yahtzee", "yahtzee-nobonus"} <= set(names)
    page = alice.get("/").content.decode()
    assert f'data-unsolved="{" ".join(names)}"' in page
    assert 'data-perfect-unsolved="Perfect: not for these rules"' in page
    assert page.count('class="unsolved-note" hidden') == 1  # beside the coach


def test_the_names_are_the_solvers_own(no_tables_built: None) -> None:
    """home.js builds the same names from the form: as ``Variant.name``."""
    declared = rules.TableOptions(declared_target=True, upper_bonus=25)
    assert Variant.of("yatzy", declared).name in unsolved()
    assert Variant.of("yatzy", declared).name == "yatzy-declared-bonus25"


def test_rules_the_server_builds_by_itself_are_offered(
    no_tables_built: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "1")
    # whole Maxi Yatzy games are only ever built by hand
    assert unsolved() == ["maxi_yatzy", "maxi_yatzy-declared"]


def test_rules_whose_tables_are_built_are_offered(no_tables_built: None) -> None:
    built = Variant("yahtzee")
    tables.path_of(built).parent.mkdir(parents=True, exist_ok=True)
    tables.path_of(built).touch()  # ``ready`` asks only whether the file is there

    assert "yahtzee" not in unsolved()
    assert "yahtzee-declared" in unsolved()
