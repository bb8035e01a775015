"""The three rule sets as plain data: categories in scorecard order and their scorers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import scoring as s
from .dice import check_dice, face_counts
from .errors import UnknownCategory, UnknownRuleSet
from .i18n import gettext_noop as _

UPPER = "upper"
LOWER = "lower"


@dataclass(frozen=True)
class Category:
    key: str
    name: str  # English, marked for translation; show it through gettext
    section: str
    scorer: s.Scorer

    @property
    def is_upper(self) -> bool:
        return self.section == UPPER


@dataclass(frozen=True)
class RuleSet:
    key: str
    name: str
    dice_count: int
    categories: tuple[Category, ...]
    bonus_threshold: int
    bonus_values: tuple[int, ...]  # the first is the default; the others are table options
    all_alike_key: str  # the "five (six) alike" category
    yahtzee_rules: bool = False  # Yahtzee bonus and joker rule

    @property
    def default_bonus(self) -> int:
        return self.bonus_values[0]

    @property
    def upper_categories(self) -> tuple[Category, ...]:
        return tuple(c for c in self.categories if c.is_upper)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.categories)

    def category(self, key: str) -> Category:
        for category in self.categories:
            if category.key == key:
                return category
        raise UnknownCategory(key=key)

    def score(self, key: str, dice: Iterable[int]) -> int:
        """The base score of ``dice`` in category ``key`` (no joker, no bonus)."""
        category = self.category(key)
        return category.scorer(face_counts(check_dice(dice, self.dice_count)))


_UPPER = (
    Category("ones", _("Ones"), UPPER, s.upper(1)),
    Category("twos", _("Twos"), UPPER, s.upper(2)),
    Category("threes", _("Threes"), UPPER, s.upper(3)),
    Category("fours", _("Fours"), UPPER, s.upper(4)),
    Category("fives", _("Fives"), UPPER, s.upper(5)),
    Category("sixes", _("Sixes"), UPPER, s.upper(6)),
)
_ONE_PAIR = Category("one_pair", _("One pair"), LOWER, s.kind(2))
_TWO_PAIRS = Category("two_pairs", _("Two pairs"), LOWER, s.pairs(2))
_CHANCE = Category("chance", _("Chance"), LOWER, s.chance)

YATZY = RuleSet(
    key="yatzy",
    name=_("Scandinavian Yatzy"),
    dice_count=5,
    categories=(
        *_UPPER,
        _ONE_PAIR,
        _TWO_PAIRS,
        Category("three_of_a_kind", _("Three of a kind"), LOWER, s.kind(3)),
        Category("four_of_a_kind", _("Four of a kind"), LOWER, s.kind(4)),
        Category("small_straight", _("Small straight"), LOWER, s.contains((1, 2, 3, 4, 5), 15)),
        Category("large_straight", _("Large straight"), LOWER, s.contains((2, 3, 4, 5, 6), 20)),
        Category("full_house", _("Full house"), LOWER, s.groups(3, 2)),
        _CHANCE,
        Category("yatzy", _("Yatzy"), LOWER, s.all_alike(50)),
    ),
    bonus_threshold=63,
    bonus_values=(50, 25),
    all_alike_key="yatzy",
)

YAHTZEE = RuleSet(
    key="yahtzee",
    name=_("American Yahtzee"),
    dice_count=5,
    categories=(
        *_UPPER,
        Category("three_of_a_kind", _("Three of a kind"), LOWER, s.kind_sum(3)),
        Category("four_of_a_kind", _("Four of a kind"), LOWER, s.kind_sum(4)),
        Category("full_house", _("Full house"), LOWER, s.fixed_groups(3, 2, 25)),
        Category("small_straight", _("Small straight"), LOWER, s.any_run(4, 30)),
        Category("large_straight", _("Large straight"), LOWER, s.any_run(5, 40)),
        Category("yahtzee", _("Yahtzee"), LOWER, s.all_alike(50)),
        _CHANCE,
    ),
    bonus_threshold=63,
    bonus_values=(35,),
    all_alike_key="yahtzee",
    yahtzee_rules=True,
)

MAXI_YATZY = RuleSet(
    key="maxi_yatzy",
    name=_("Maxi Yatzy"),
    dice_count=6,
    categories=(
        *_UPPER,
        _ONE_PAIR,
        _TWO_PAIRS,
        Category("three_pairs", _("Three pairs"), LOWER, s.pairs(3)),
        Category("three_of_a_kind", _("Three of a kind"), LOWER, s.kind(3)),
        Category("four_of_a_kind", _("Four of a kind"), LOWER, s.kind(4)),
        Category("five_of_a_kind", _("Five of a kind"), LOWER, s.kind(5)),
        Category("small_straight", _("Small straight"), LOWER, s.contains((1, 2, 3, 4, 5), 15)),
        Category("large_straight", _("Large straight"), LOWER, s.contains((2, 3, 4, 5, 6), 20)),
        Category("full_straight", _("Full straight"), LOWER, s.contains((1, 2, 3, 4, 5, 6), 21)),
        Category("full_house", _("Full house"), LOWER, s.groups(3, 2)),
        Category("house", _("House"), LOWER, s.groups(3, 3)),
        Category("tower", _("Tower"), LOWER, s.groups(4, 2)),
        _CHANCE,
        Category("maxi_yatzy", _("Maxi Yatzy"), LOWER, s.all_alike(100)),
    ),
    bonus_threshold=75,
    bonus_values=(50,),
    all_alike_key="maxi_yatzy",
)

RULESETS: dict[str, RuleSet] = {rs.key: rs for rs in (YATZY, YAHTZEE, MAXI_YATZY)}


def get_ruleset(name: str) -> RuleSet:
    """The rule set called ``name`` ("yatzy", "yahtzee", "maxi_yatzy")."""
    ruleset = RULESETS.get(name) if isinstance(name, str) else None
    if ruleset is None:
        raise UnknownRuleSet(name=name)
    return ruleset
