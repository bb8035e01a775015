"""The How to play page: every rule set's categories as the rules engine has them, each
with its rule and examples whose stated scores are the engine's, and every table option."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import rules
from games.howto import EXAMPLES

EXAMPLE = re.compile(
    r'<p class="example" data-category="(?P<category>\w+)" data-dice="(?P<dice>[1-6 ]+)">'
    r'.*?<span class="example-points">(?P<points>\d+) points?</span>',
    re.S,
)


def section(page: str, ruleset: str) -> str:
    start = page.index(f'<section id="{ruleset}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def page(client: Client, db: None) -> str:
    response = client.get("/how-to-play/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("key", list(rules.RULESETS))
def test_it_shows_every_category_of_each_rule_set_in_scorecard_order(page: str, key: str) -> None:
    ruleset = rules.get_ruleset(key)
    shown = re.findall(rf'<tr id="{key}-(\w+)"', section(page, key))
    assert shown == list(ruleset.keys)
    for category in ruleset.categories:
        assert category.rule and category.rule in page, category.key


@pytest.mark.parametrize("key", list(rules.RULESETS))
def test_each_examples_stated_score_is_what_the_rules_engine_scores(page: str, key: str) -> None:
    ruleset = rules.get_ruleset(key)
    examples = [m.groupdict() for m in EXAMPLE.finditer(section(page, key))]
    assert len(examples) == sum(map(len, EXAMPLES[key].values()))
    for example in examples:
        dice = tuple(map(int, example["dice"].split()))
        assert len(dice) == ruleset.dice_count
        assert int(example["points"]) == ruleset.score(example["category"], dice), example
    assert {e["category"] for e in examples} == set(ruleset.keys)


def test_the_rules_references_worked_examples_are_among_them() -> None:
    yatzy = EXAMPLES["yatzy"]
    assert (3, 3, 6, 6, 6) in yatzy["two_pairs"]  # RULES.md 2.1: 18
    assert (1, 4, 4, 4, 4) in yatzy["two_pairs"]  # 0: two different faces
    assert (2, 2, 5, 5, 5) in yatzy["full_house"]  # 19


def test_some_examples_score_nothing_to_show_where_a_rule_stops(page: str) -> None:
    points = [int(m["points"]) for m in EXAMPLE.finditer(page)]
    assert 0 in points and len(set(points)) > 10


def test_it_explains_every_table_option_of_the_new_game_form(page: str) -> None:
    for option in (
        "Forced order",
        "Declared target",
        "Upper section only",
        "Teams",
        "Upper bonus (Scandinavian Yatzy)",
        "Yahtzee bonus (American Yahtzee)",
        "Automatic first roll",
        "Pass and play",
        "Turn timer",
        "Coach",
    ):
        assert f">{option}</dt>" in page, option
    assert "Joker rule:" in section(page, "yahtzee")


def test_the_header_and_the_home_page_link_to_it(client: Client, db: None) -> None:
    for url in ("/", "/history/", "/how-to-play/"):
        page = client.get(url).content.decode()
        assert '<a href="/how-to-play/">How to play</a>' in page, url
    home = client.get("/").content.decode()
    assert home.count('href="/how-to-play/"') == 2  # the header's and the page's own


def test_it_is_in_the_language_asked_for(client: Client, db: None) -> None:
    page = client.get("/how-to-play/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Näin pelataan" in page
    assert "Kaksi paria" in page
