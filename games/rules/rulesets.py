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
    rule: str  # what scores, in English, marked for translation (the How to play page)

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
    Category("ones", _("Ones"), UPPER, s.upper(1), _("The sum of the dice showing 1.")),
    Category("twos", _("Twos"), UPPER, s.upper(2), _("The sum of the dice showing 2.")),
    Category("threes", _("Threes"), UPPER, s.upper(3), _("The sum of the dice showing 3.")),
    Category("fours", _("Fours"), UPPER, s.upper(4), _("The sum of the dice showing 4.")),
    Category("fives", _("Fives"), UPPER, s.upper(5), _("The sum of the dice showing 5.")),
    Category("sixes", _("Sixes"), UPPER, s.upper(6), _("The sum of the dice showing 6.")),
)
_ONE_PAIR = Category(
    "one_pair",
    _("One pair"),
    LOWER,
    s.kind(2),
    _("Two dice of the same number: their sum. The highest pair counts."),
)
_TWO_PAIRS = Category(
    "two_pairs",
    _("Two pairs"),
    LOWER,
    s.pairs(2),
    _("Two pairs of different numbers: the sum of those four dice. The highest pairs count."),
)
_CHANCE = Category("chance", _("Chance"), LOWER, s.chance, _("Any dice: their sum."))
_THREE_OF_A_KIND = Category(
    "three_of_a_kind",
    _("Three of a kind"),
    LOWER,
    s.kind(3),
    _("Three dice of the same number: the sum of those three."),
)
_FOUR_OF_A_KIND = Category(
    "four_of_a_kind",
    _("Four of a kind"),
    LOWER,
    s.kind(4),
    _("Four dice of the same number: the sum of those four."),
)
_FULL_HOUSE = Category(
    "full_house",
    _("Full house"),
    LOWER,
    s.groups(3, 2),
    _("Three dice of one number and two of another: the sum of those five."),
)

YATZY = RuleSet(
    key="yatzy",
    name=_("Scandinavian Yatzy"),
    dice_count=5,
    categories=(
        *_UPPER,
        _ONE_PAIR,
        _TWO_PAIRS,
        _THREE_OF_A_KIND,
        _FOUR_OF_A_KIND,
        Category(
            "small_straight",
            _("Small straight"),
            LOWER,
            s.contains((1, 2, 3, 4, 5), 15),
            _("1, 2, 3, 4 and 5: 15 points."),
        ),
        Category(
            "large_straight",
            _("Large straight"),
            LOWER,
            s.contains((2, 3, 4, 5, 6), 20),
            _("2, 3, 4, 5 and 6: 20 points."),
        ),
        _FULL_HOUSE,
        _CHANCE,
        Category("yatzy", _("Yatzy"), LOWER, s.all_alike(50), _("All five dice alike: 50 points.")),
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
        Category(
            "three_of_a_kind",
            _("Three of a kind"),
            LOWER,
            s.kind_sum(3),
            _("At least three dice of the same number: the sum of all the dice."),
        ),
        Category(
            "four_of_a_kind",
            _("Four of a kind"),
            LOWER,
            s.kind_sum(4),
            _("At least four dice of the same number: the sum of all the dice."),
        ),
        Category(
            "full_house",
            _("Full house"),
            LOWER,
            s.fixed_groups(3, 2, 25),
            _("Three dice of one number and two of another: 25 points."),
        ),
        Category(
            "small_straight",
            _("Small straight"),
            LOWER,
            s.any_run(4, 30),
            _("Four numbers in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 30 points."),
        ),
        Category(
            "large_straight",
            _("Large straight"),
            LOWER,
            s.any_run(5, 40),
            _("Five numbers in a row: 40 points."),
        ),
        Category(
            "yahtzee", _("Yahtzee"), LOWER, s.all_alike(50), _("All five dice alike: 50 points.")
        ),
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
        Category(
            "three_pairs",
            _("Three pairs"),
            LOWER,
            s.pairs(3),
            _("Three pairs of three different numbers: the sum of the dice."),
        ),
        _THREE_OF_A_KIND,
        _FOUR_OF_A_KIND,
        Category(
            "five_of_a_kind",
            _("Five of a kind"),
            LOWER,
            s.kind(5),
            _("Five dice of the same number: the sum of those five."),
        ),
        Category(
            "small_straight",
            _("Small straight"),
            LOWER,
            s.contains((1, 2, 3, 4, 5), 15),
            _("1, 2, 3, 4 and 5 among the dice: 15 points."),
        ),
        Category(
            "large_straight",
            _("Large straight"),
            LOWER,
            s.contains((2, 3, 4, 5, 6), 20),
            _("2, 3, 4, 5 and 6 among the dice: 20 points."),
        ),
        Category(
            "full_straight",
            _("Full straight"),
            LOWER,
            s.contains((1, 2, 3, 4, 5, 6), 21),
            _("1, 2, 3, 4, 5 and 6: 21 points."),
        ),
        _FULL_HOUSE,
        Category(
            "house",
            _("House"),
            LOWER,
            s.groups(3, 3),
            _("Three dice of one number and three of another: the sum of the dice."),
        ),
        Category(
            "tower",
            _("Tower"),
            LOWER,
            s.groups(4, 2),
            _("Four dice of one number and two of another: the sum of the dice."),
        ),
        _CHANCE,
        Category(
            "maxi_yatzy",
            _("Maxi Yatzy"),
            LOWER,
            s.all_alike(100),
            _("All six dice alike: 100 points."),
        ),
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
