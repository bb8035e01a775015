"""The actions of a game: each takes a state and returns the next one, or raises
``IllegalMove`` and leaves the state as it was. The dice come in as ``source`` (``dice.Dice``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

from .dice import Dice, face_counts, roll_dice
from .errors import IllegalMove, InvalidOptions, UnknownCategory
from .i18n import gettext_noop as _
from .options import TableOptions
from .rulesets import get_ruleset
from .state import (
    MAX_PLAYERS_PER_SCORECARD,
    MAX_SCORECARDS,
    YAHTZEE_BONUS_POINTS,
    GameState,
    Scorecard,
)

MAX_ROLLS = 3
# Under the joker rule these lower boxes score their full value (RULES.md 2.2).
JOKER_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def new_game(
    ruleset: str,
    scorecards: Sequence[Sequence[int]],
    options: TableOptions | None = None,
    source: Dice | None = None,
) -> GameState:
    """A fresh game. ``scorecards`` lists the seats playing each scorecard in turn order:
    ``[[0], [1]]`` for two players, ``[[0, 2], [1, 3]]`` for two teams of two."""
    rules = get_ruleset(ruleset)
    options = options or TableOptions()
    options.validate(rules)
    cards = tuple(tuple(players) for players in scorecards)
    if not 1 <= len(cards) <= MAX_SCORECARDS:
        raise InvalidOptions(_("A table has 1 to %(max)s scorecards."), max=MAX_SCORECARDS)
    seats = [seat for players in cards for seat in players]
    if any(not 1 <= len(players) <= MAX_PLAYERS_PER_SCORECARD for players in cards):
        raise InvalidOptions(
            _("Each scorecard is played by 1 to %(max)s players."),
            max=MAX_PLAYERS_PER_SCORECARD,
        )
    if sorted(seats) != list(range(len(seats))):
        raise InvalidOptions(_("Every seat plays exactly one scorecard."))
    state = GameState(
        ruleset_key=rules.key,
        options=options,
        scorecards=tuple(Scorecard(players=players) for players in cards),
    )
    return _begin_turn(state, source)


def hold(state: GameState, player: int, held: Iterable[int]) -> GameState:
    """Hold exactly the dice at positions ``held`` (0-based); the rest are released."""
    _check_turn(state, player)
    if state.roll_number == 0:
        raise IllegalMove("not_rolled", _("Roll the dice first."))
    positions = _check_positions(state, held)
    return state.evolve(held=positions)


def roll(
    state: GameState, player: int, source: Dice, held: Iterable[int] | None = None
) -> GameState:
    """Roll: all dice on the first roll, then the dice not held (``held`` replaces
    the held set first when given)."""
    _check_turn(state, player)
    if state.roll_number >= MAX_ROLLS:
        raise IllegalMove(
            "no_rolls_left",
            _("You have used all three rolls: choose a category to score."),
        )
    if state.roll_number == 0:
        return _first_roll(state, source)
    if state.options.declared_target and state.target is None:
        raise IllegalMove(
            "target_required", _("Declare your target category before you roll again.")
        )
    positions = state.held if held is None else _check_positions(state, held)
    if len(positions) == state.dice_count:
        raise IllegalMove(
            "all_held",
            _("All dice are held: release a die to roll it again, or score."),
        )
    rolled = [index for index in range(state.dice_count) if index not in positions]
    fresh = iter(roll_dice(source, state.turn, state.roll_number + 1, rolled))
    dice = tuple(
        value if index in positions else next(fresh) for index, value in enumerate(state.dice)
    )
    return state.evolve(dice=dice, held=positions, roll_number=state.roll_number + 1)


def declare(state: GameState, player: int, key: str) -> GameState:
    """Declare the turn's target category (declared-target tables)."""
    _check_turn(state, player)
    if not state.options.declared_target:
        raise IllegalMove("no_targets", _("This table does not play with declared targets."))
    if state.roll_number == 0:
        raise IllegalMove("not_rolled", _("Roll the dice before you declare a target."))
    if state.target is not None:
        raise IllegalMove(
            "target_fixed",
            _("Your target is already %(category)s and cannot change."),
            category=state.ruleset.category(state.target).name,
        )
    _check_open(state, key)
    return state.evolve(target=key)


def score(state: GameState, player: int, key: str, source: Dice | None = None) -> GameState:
    """Write the dice into category ``key`` and pass the turn. ``source`` is needed on
    tables with auto first roll, to roll for the next player."""
    _check_turn(state, player)
    if state.roll_number == 0:
        raise IllegalMove("not_rolled", _("Roll the dice before you score."))
    options = scoring_options(state)
    if key not in options:
        _explain_refusal(state, key)
    card = state.current_scorecard
    bonuses = card.yahtzee_bonuses + (1 if _earns_yahtzee_bonus(state) else 0)
    card = Scorecard(
        players=card.players,
        entries=(*card.entries, (key, options[key])),
        yahtzee_bonuses=bonuses,
    )
    cards = list(state.scorecards)
    cards[state.current_index] = card
    finished_turn = state.evolve(
        scorecards=tuple(cards), turn=state.turn + 1, dice=(), held=(), roll_number=0, target=None
    )
    return _begin_turn(finished_turn, source)


def skip_turn(state: GameState, source: Dice | None = None) -> GameState:
    """End the turn of an absent player with a zero in their lowest-value open category
    (the declared target or the forced one where the table fixes it)."""
    if state.is_finished:
        raise IllegalMove("game_over", _("The game is over."))
    key = skipped_category(state)
    card = state.current_scorecard
    cards = list(state.scorecards)
    cards[state.current_index] = Scorecard(
        players=card.players,
        entries=(*card.entries, (key, 0)),
        yahtzee_bonuses=card.yahtzee_bonuses,
    )
    skipped = state.evolve(
        scorecards=tuple(cards), turn=state.turn + 1, dice=(), held=(), roll_number=0, target=None
    )
    return _begin_turn(skipped, source)


def skipped_category(state: GameState) -> str:
    """The category a skipped turn scores its zero in (``skip_turn``), of a game still
    played."""
    allowed = _allowed_by_table(state)
    return min(allowed, key=lambda k: (max_points(state.ruleset.key, k), allowed.index(k)))


def scoring_options(state: GameState) -> dict[str, int]:
    """The categories the player to move may score now, with the points each gives,
    in scorecard order. Empty before the first roll and after the game."""
    if state.is_finished or state.roll_number == 0:
        return {}
    if state.options.declared_target and state.target is None:
        return {}
    allowed = _allowed_by_table(state)
    if is_joker(state) and not (state.options.forced_order or state.options.declared_target):
        allowed = _joker_choices(state, allowed)
    # the dice counted and the joker looked at once, not once a category
    counts = face_counts(state.dice)
    jokers = is_joker(state) and _matching_upper_used(state)
    return {key: _points(state, key, counts, jokers) for key in allowed}


def points_for(state: GameState, key: str) -> int:
    """What the current dice give in ``key`` for the player to move (joker included)."""
    jokers = key in JOKER_POINTS and is_joker(state) and _matching_upper_used(state)
    return _points(state, key, face_counts(state.dice), jokers)


def _points(state: GameState, key: str, counts: tuple[int, ...], jokers: bool) -> int:
    """``points_for``, the dice counted (``face_counts``) and whether the joker's fixed
    points apply (five alike, the matching upper box used) already known."""
    if jokers and key in JOKER_POINTS:
        return JOKER_POINTS[key]
    return state.ruleset.category(key).scorer(counts)


def is_joker(state: GameState) -> bool:
    """Five alike on a Yahtzee table whose Yahtzee box is already filled."""
    rules = state.ruleset
    if not rules.yahtzee_rules or state.options.upper_only or not state.dice:
        return False
    return len(set(state.dice)) == 1 and state.current_scorecard.is_used(rules.all_alike_key)


class Joker(NamedTuple):
    """How the joker rule applies to the dice of the player to move (RULES.md 2.2), for
    the table to say why it offers the scores it does."""

    # "upper": only the box of the dice's face; "lower": an open lower box; "scratch":
    # 0 in an open upper box (the lower section is full); "table": where forced order
    # or the declared target puts it
    goes_in: str
    upper: str  # the key of the upper box of the dice's face
    upper_used: bool  # so full house and the straights score their JOKER_POINTS
    bonus: int  # the Yahtzee bonus that scoring now earns
    yahtzee_scratched: bool  # no bonus, on a table that plays it: the Yahtzee box holds 0


def joker(state: GameState) -> Joker | None:
    """The joker rule as it applies to the dice of the player to move; None when it
    does not (not five alike, the Yahtzee box open, not American Yahtzee)."""
    if state.is_finished or not is_joker(state):
        return None
    rules = state.ruleset
    upper = rules.upper_categories[state.dice[0] - 1].key
    card = state.current_scorecard
    if state.options.forced_order or state.options.declared_target:
        goes_in = "table"
    else:
        choices = _joker_choices(state, list(state.open_categories()))
        if choices == [upper]:
            goes_in = "upper"
        else:
            goes_in = "scratch" if rules.category(choices[0]).is_upper else "lower"
    scratched = state.options.yahtzee_bonus and card.points()[rules.all_alike_key] == 0
    return Joker(
        goes_in,
        upper,
        card.is_used(upper),
        YAHTZEE_BONUS_POINTS if _earns_yahtzee_bonus(state) else 0,
        scratched,
    )


@cache
def max_points(ruleset: str, key: str) -> int:
    """The most ``key`` can ever score (its base score over every roll)."""
    from itertools import combinations_with_replacement

    rules = get_ruleset(ruleset)
    return max(
        rules.score(key, dice)
        for dice in combinations_with_replacement(range(1, 7), rules.dice_count)
    )


# -- helpers -----------------------------------------------------------------------------


def _begin_turn(state: GameState, source: Dice | None) -> GameState:
    if state.options.auto_first_roll and not state.is_finished:
        if source is None:
            raise ValueError("auto first roll needs dice")
        return _first_roll(state, source)
    return state


def _first_roll(state: GameState, source: Dice) -> GameState:
    dice = roll_dice(source, state.turn, 1, range(state.dice_count))
    return state.evolve(dice=dice, held=(), roll_number=1)


def _check_turn(state: GameState, player: int) -> None:
    if state.is_finished:
        raise IllegalMove("game_over", _("The game is over."))
    if player != state.current_player:
        raise IllegalMove("not_your_turn", _("It is not your turn."))


def _check_positions(state: GameState, held: Iterable[int]) -> tuple[int, ...]:
    try:
        positions: tuple[object, ...] = tuple(held)
    except TypeError:
        positions = (None,)
    valid = [p for p in positions if type(p) is int and 0 <= p < state.dice_count]
    if len(valid) != len(positions) or len(set(valid)) != len(valid):
        raise IllegalMove(
            "bad_hold",
            _("Hold dice by their positions, 1 to %(count)s, each at most once."),
            count=state.dice_count,
        )
    return tuple(sorted(valid))


def _check_open(state: GameState, key: str) -> None:
    if key not in state.category_keys:
        raise UnknownCategory(key=key)
    if state.current_scorecard.is_used(key):
        raise IllegalMove(
            "category_used",
            _("%(category)s is already used: choose another category."),
            category=state.ruleset.category(key).name,
        )


def _allowed_by_table(state: GameState) -> list[str]:
    """Open categories the table options leave to choose from."""
    open_keys = list(state.open_categories())
    if state.options.forced_order:
        return open_keys[:1]
    if state.options.declared_target and state.target is not None:
        return [state.target]
    return open_keys


def _matching_upper_used(state: GameState) -> bool:
    upper_key = state.ruleset.upper_categories[state.dice[0] - 1].key
    return state.current_scorecard.is_used(upper_key)


def _joker_choices(state: GameState, open_keys: list[str]) -> list[str]:
    rules = state.ruleset
    upper_key = rules.upper_categories[state.dice[0] - 1].key
    if upper_key in open_keys:
        return [upper_key]
    lower = [k for k in open_keys if not rules.category(k).is_upper]
    return lower or open_keys


def _earns_yahtzee_bonus(state: GameState) -> bool:
    if not (is_joker(state) and state.options.yahtzee_bonus):
        return False
    return state.current_scorecard.points()[state.ruleset.all_alike_key] > 0


def _explain_refusal(state: GameState, key: str) -> None:
    """Raise the most helpful reason why ``key`` cannot be scored now."""
    _check_open(state, key)
    name = state.ruleset.category
    options = state.options
    if options.declared_target:
        if state.target is None:
            raise IllegalMove("target_required", _("Declare your target category first."))
        raise IllegalMove(
            "not_target",
            _("Your declared target is %(category)s: the score goes there."),
            category=name(state.target).name,
        )
    if options.forced_order:
        raise IllegalMove(
            "forced_order",
            _("Forced order: this turn must go in %(category)s."),
            category=name(state.open_categories()[0]).name,
        )
    choices = _joker_choices(state, list(state.open_categories()))
    if len(choices) == 1:
        raise IllegalMove(
            "joker",
            _("Joker rule: this Yahtzee must go in %(category)s."),
            category=name(choices[0]).name,
        )
    raise IllegalMove("joker", _("Joker rule: this Yahtzee must go in an open lower category."))
