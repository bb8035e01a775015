"""The How to play page as data: each rule set's categories, in scorecard order, with
the rule of each (``Category.rule``) and example rolls, whose scores the rules engine
works out when the page is drawn, so that the page cannot say other than the game plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import rules

Roll = tuple[int, ...]

# the upper section's, the same with five dice in Yatzy and Yahtzee
_UPPER_OF_FIVE: dict[str, tuple[Roll, ...]] = {
    "ones": ((1, 1, 3, 4, 1),),
    "twos": ((2, 5, 2, 6, 3),),
    "threes": ((3, 3, 3, 1, 6),),
    "fours": ((4, 4, 2, 4, 4),),
    "fives": ((5, 1, 5, 2, 3),),
    "sixes": ((6, 6, 6, 5, 6),),
}

# A roll that scores per category, then, where a near miss teaches the rule, one that
# scores 0 (RULES.md's worked examples among them).
EXAMPLES: dict[str, dict[str, tuple[Roll, ...]]] = {
    "yatzy": {
        **_UPPER_OF_FIVE,
        "one_pair": ((5, 3, 3, 3, 5),),
        "two_pairs": ((3, 3, 6, 6, 6), (1, 4, 4, 4, 4)),
        "three_of_a_kind": ((3, 3, 3, 3, 5),),
        "four_of_a_kind": ((3, 3, 3, 3, 3),),
        "small_straight": ((3, 1, 5, 2, 4), (2, 3, 4, 5, 6)),
        "large_straight": ((6, 2, 5, 3, 4),),
        "full_house": ((2, 2, 5, 5, 5), (4, 4, 4, 4, 4)),
        "chance": ((1, 3, 4, 6, 6),),
        "yatzy": ((2, 2, 2, 2, 2),),
    },
    "yahtzee": {
        **_UPPER_OF_FIVE,
        "three_of_a_kind": ((4, 4, 4, 2, 6),),
        "four_of_a_kind": ((5, 5, 5, 5, 1),),
        "full_house": ((2, 2, 5, 5, 5),),
        "small_straight": ((1, 2, 3, 4, 6), (1, 2, 3, 5, 6)),
        "large_straight": ((6, 2, 5, 3, 4),),
        "yahtzee": ((2, 2, 2, 2, 2),),
        "chance": ((1, 3, 4, 6, 6),),
    },
    "maxi_yatzy": {
        "ones": ((1, 1, 3, 4, 1, 6),),
        "twos": ((2, 5, 2, 6, 3, 2),),
        "threes": ((3, 3, 3, 1, 6, 5),),
        "fours": ((4, 4, 2, 4, 4, 1),),
        "fives": ((5, 1, 5, 2, 3, 5),),
        "sixes": ((6, 6, 6, 5, 6, 6),),
        "one_pair": ((2, 2, 4, 4, 6, 1),),
        "two_pairs": ((2, 2, 4, 4, 6, 6),),
        "three_pairs": ((1, 1, 3, 3, 5, 5), (4, 4, 4, 4, 2, 2)),
        "three_of_a_kind": ((4, 4, 4, 1, 2, 3),),
        "four_of_a_kind": ((6, 6, 6, 6, 1, 6),),
        "five_of_a_kind": ((2, 2, 2, 2, 2, 5),),
        "small_straight": ((1, 2, 3, 4, 5, 5),),
        "large_straight": ((2, 3, 4, 5, 6, 1),),
        "full_straight": ((6, 5, 4, 3, 2, 1),),
        "full_house": ((3, 3, 3, 5, 5, 6),),
        "house": ((2, 2, 2, 6, 6, 6),),
        "tower": ((4, 4, 4, 4, 1, 1), (5, 5, 5, 5, 5, 5)),
        "chance": ((1, 3, 4, 6, 6, 2),),
        "maxi_yatzy": ((3, 3, 3, 3, 3, 3),),
    },
}


@dataclass(frozen=True)
class Example:
    dice: Roll
    points: int  # as the rules engine scores ``dice`` in the category


@dataclass(frozen=True)
class CategoryRule:
    key: str
    name: str  # untranslated, as the engine marks it
    rule: str  # untranslated
    upper: bool
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class RuleSetRules:
    key: str
    name: str  # untranslated
    dice_count: int
    bonus_threshold: int
    bonus: int  # the upper bonus by default
    categories: tuple[CategoryRule, ...]


def ruleset_rules(key: str) -> RuleSetRules:
    """The rules of the rule set ``key`` as the page shows them."""
    ruleset = rules.get_ruleset(key)
    examples = EXAMPLES[key]
    return RuleSetRules(
        key=key,
        name=ruleset.name,
        dice_count=ruleset.dice_count,
        bonus_threshold=ruleset.bonus_threshold,
        bonus=ruleset.default_bonus,
        categories=tuple(
            CategoryRule(
                key=c.key,
                name=c.name,
                rule=c.rule,
                upper=c.is_upper,
                examples=tuple(Example(d, ruleset.score(c.key, d)) for d in examples[c.key]),
            )
            for c in ruleset.categories
        ),
    )


def all_rules() -> tuple[RuleSetRules, ...]:
    """Every rule set's rules, in the order the site offers them."""
    return tuple(ruleset_rules(key) for key in rules.RULESETS)
