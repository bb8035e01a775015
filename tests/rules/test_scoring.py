"""Every category of every rule set scores as RULES.md says, for every roll."""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidDice, UnknownCategory, UnknownRuleSet, get_ruleset
from tests.rules.reference import reference

RULESETS = ["yatzy", "yahtzee", "maxi_yatzy"]
KEYS = {
    "yatzy": "ones twos threes fours fives sixes one_pair two_pairs three_of_a_kind "
    "four_of_a_kind small_straight large_straight full_house chance yatzy",
    "yahtzee": "ones twos threes fours fives sixes three_of_a_kind four_of_a_kind "
    "full_house small_straight large_straight yahtzee chance",
    "maxi_yatzy": "ones twos threes fours fives sixes one_pair two_pairs three_pairs "
    "three_of_a_kind four_of_a_kind five_of_a_kind small_straight large_straight "
    "full_straight full_house house tower chance maxi_yatzy",
}


@pytest.mark.parametrize("name", RULESETS)
def test_each_rule_set_has_its_categories_in_scorecard_order(name: str) -> None:
    rules = get_ruleset(name)

    assert [c.key for c in rules.categories] == KEYS[name].split()
    assert rules.dice_count == (6 if name == "maxi_yatzy" else 5)


@pytest.mark.parametrize(
    ("name", "key"), [(name, key) for name in RULESETS for key in KEYS[name].split()]
)
def test_every_category_scores_as_written_for_every_roll(name: str, key: str) -> None:
    rules = get_ruleset(name)
    for dice in combinations_with_replacement(range(1, 7), rules.dice_count):
        assert rules.score(key, dice) == reference(name, key, dice), dice


@pytest.mark.parametrize(
    ("name", "key", "dice", "points"),
    [
        # RULES.md 2.1 worked examples
        ("yatzy", "two_pairs", (3, 3, 6, 6, 6), 18),
        ("yatzy", "one_pair", (5, 3, 3, 3, 5), 10),
        ("yatzy", "four_of_a_kind", (3, 3, 3, 3, 3), 12),
        ("yatzy", "three_of_a_kind", (3, 3, 3, 3, 5), 9),
        ("yatzy", "full_house", (6, 2, 2, 2, 6), 18),
        ("yatzy", "full_house", (2, 2, 5, 5, 5), 19),
        ("yatzy", "two_pairs", (3, 3, 5, 4, 5), 16),
        # seed 000 (Finnish app manual)
        ("yatzy", "one_pair", (1, 2, 3, 5, 5), 10),
        ("yatzy", "two_pairs", (1, 2, 2, 6, 6), 16),
        ("yatzy", "three_of_a_kind", (2, 2, 2, 4, 1), 6),
        ("yatzy", "four_of_a_kind", (1, 5, 5, 5, 5), 20),
        ("yatzy", "small_straight", (1, 2, 3, 4, 5), 15),
        ("yatzy", "large_straight", (2, 3, 4, 5, 6), 20),
        ("yatzy", "full_house", (3, 3, 6, 6, 6), 24),
        ("yatzy", "yatzy", (4, 4, 4, 4, 4), 50),
        # seed 003
        ("yatzy", "one_pair", (1, 3, 4, 5, 5), 10),
        ("yatzy", "two_pairs", (1, 3, 3, 5, 5), 16),
        ("yatzy", "two_pairs", (1, 4, 4, 4, 4), 0),
        ("yatzy", "three_of_a_kind", (2, 4, 4, 4, 5), 12),
        ("yatzy", "four_of_a_kind", (2, 3, 3, 3, 3), 12),
        # seed 004
        ("yatzy", "sixes", (6, 6, 6, 6, 2), 24),
        ("yatzy", "one_pair", (3, 3, 1, 2, 5), 6),
        ("yatzy", "full_house", (2, 2, 5, 5, 5), 19),
        # five alike is not a full house
        ("yatzy", "full_house", (5, 5, 5, 5, 5), 0),
        ("yahtzee", "full_house", (5, 5, 5, 5, 5), 0),
        # seed 001 (Yahtzee)
        ("yahtzee", "small_straight", (1, 2, 3, 4, 6), 30),
        ("yahtzee", "small_straight", (3, 4, 5, 6, 6), 30),
        ("yahtzee", "large_straight", (1, 2, 3, 4, 5), 40),
        ("yahtzee", "three_of_a_kind", (2, 2, 2, 5, 6), 17),
        ("yahtzee", "four_of_a_kind", (2, 2, 2, 2, 6), 14),
        ("yahtzee", "full_house", (3, 3, 2, 2, 2), 25),
        # seed 002 (Maxi Yatzy)
        ("maxi_yatzy", "full_house", (2, 2, 6, 6, 6, 1), 22),
        ("maxi_yatzy", "full_house", (6, 6, 6, 5, 5, 5), 28),
        ("maxi_yatzy", "house", (3, 3, 3, 5, 5, 5), 24),
        ("maxi_yatzy", "tower", (1, 1, 4, 4, 4, 4), 18),
        ("maxi_yatzy", "tower", (4, 4, 4, 4, 4, 4), 0),
        ("maxi_yatzy", "three_pairs", (1, 1, 3, 3, 6, 6), 20),
        ("maxi_yatzy", "two_pairs", (6, 6, 6, 6, 5, 5), 22),
        ("maxi_yatzy", "two_pairs", (6, 6, 6, 6, 1, 2), 0),
        ("maxi_yatzy", "small_straight", (1, 2, 3, 4, 5, 5), 15),
        ("maxi_yatzy", "large_straight", (6, 2, 3, 4, 5, 5), 20),
        ("maxi_yatzy", "full_straight", (1, 2, 3, 4, 5, 6), 21),
        ("maxi_yatzy", "maxi_yatzy", (2, 2, 2, 2, 2, 2), 100),
        ("maxi_yatzy", "five_of_a_kind", (3, 3, 3, 3, 3, 6), 15),
    ],
)
def test_worked_examples(name: str, key: str, dice: tuple[int, ...], points: int) -> None:
    assert get_ruleset(name).score(key, dice) == points


@settings(max_examples=100)
@given(
    name=st.sampled_from(RULESETS),
    data=st.data(),
)
def test_the_order_of_the_dice_does_not_matter(name: str, data: st.DataObject) -> None:
    rules = get_ruleset(name)
    dice = data.draw(
        st.lists(st.integers(1, 6), min_size=rules.dice_count, max_size=rules.dice_count)
    )
    shuffled = data.draw(st.permutations(dice))
    for category in rules.categories:
        assert rules.score(category.key, dice) == rules.score(category.key, shuffled)


def test_every_ordering_of_a_roll_scores_alike() -> None:
    rules = get_ruleset("yatzy")
    dice = (2, 2, 5, 5, 5)
    assert {rules.score("full_house", order) for order in permutations(dice)} == {19}


@pytest.mark.parametrize(
    "dice",
    [
        (1, 2, 3, 4),
        (1, 2, 3, 4, 5, 6),
        (0, 1, 2, 3, 4),
        (1, 2, 3, 4, 7),
        (1, 2, 3, 4, True),
        (1, 2, 3, 4, 2.0),
        "12345",
        None,
    ],
)
def test_malformed_dice_are_refused(dice: object) -> None:
    with pytest.raises(InvalidDice) as refused:
        get_ruleset("yatzy").score("chance", dice)  # type: ignore[arg-type]
    assert isinstance(refused.value, ValueError)


def test_unknown_rule_sets_and_categories_are_refused() -> None:
    with pytest.raises(UnknownRuleSet, match="Unknown rule set"):
        get_ruleset("poker")
    with pytest.raises(UnknownCategory, match="no category three_pairs"):
        get_ruleset("yatzy").score("three_pairs", (1, 1, 2, 2, 3))
    with pytest.raises(ValueError):
        get_ruleset(["yatzy"])  # type: ignore[arg-type]


def test_the_largest_possible_yatzy_total_is_374() -> None:
    rules = get_ruleset("yatzy")
    best = {
        c.key: max(rules.score(c.key, d) for d in combinations_with_replacement(range(1, 7), 5))
        for c in rules.categories
    }
    assert sum(best.values()) + 50 == 374
