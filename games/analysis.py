"""Skill and luck in a finished game, from its replay and the solved tables.

Every decision (which dice to keep before a roll, which category to score) is priced
by the solver: the expected final score of the best choice and of the choice made.
Their difference is the choice's loss (Verhoeff's convention: EV(best) - EV(chosen)).
What is left of a scorecard's result once skill is accounted for is luck:

    luck = final score - (expected score at the start - total loss)

which is exactly the sum of what the dice gave above or below expectation.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext

from games import coach, rules
from games.models import Game, GameEvent
from games.replay import Step, replay
from games.strategy import advice, tables
from games.strategy.solver import Solver, Variant

# Losses below this are rounding, not mistakes.
TOLERANCE = 0.005


@dataclass(frozen=True)
class Decision:
    step: int  # 1-based number of the replay step that carried the choice
    scorecard: int
    before: rules.GameState = field(repr=False)  # the game as the choice was made
    made: advice.Choice
    advised: advice.Choice
    loss: float
    played_as: str = ""  # the level a computer player made it at, where not its seat's

    # In words when shown, not when analysed: the analysis is kept for every language.
    @property
    def chosen(self) -> str:
        """The choice made, in the language active now."""
        return coach.describe(self.before, self.made)

    @property
    def best(self) -> str:
        """The best choice, in the language active now, as said inside a sentence
        ("lost 4.2: best was hold 5, 5 and roll the rest"): the coach's words begin one.
        Every choice's words begin with a verb (in English and Finnish alike), never
        with a name, so the first letter is lowered."""
        words = coach.describe(self.before, self.advised)
        return words[:1].lower() + words[1:]

    @property
    def judged(self) -> str:
        """For a keep, the dice it was made on and what was kept, in the language
        active now ("holding 4 4 of 1 2 3 4 4"): a keep's verdict is shown beside the
        roll that followed it, whose new dice it is not about. Empty for a score, whose
        line says what it judges."""
        if self.made.hold is None:
            return ""
        dice = " ".join(map(str, self.before.dice))
        if not self.made.hold:
            return gettext("rolling all of %(dice)s again") % {"dice": dice}
        held = " ".join(str(self.before.dice[i]) for i in sorted(self.made.hold))
        return gettext("holding %(held)s of %(dice)s") % {"held": held, "dice": dice}

    @property
    def is_best(self) -> bool:
        return self.loss < TOLERANCE


@dataclass
class Card:
    index: int
    final: int
    expected_start: float
    curve: list[float] = field(default_factory=list)  # expected final after each turn
    losses: list[float] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        return len(self.losses)

    @property
    def total_loss(self) -> float:
        return sum(self.losses)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def mistakes(self) -> int:
        return sum(1 for loss in self.losses if loss >= TOLERANCE)

    @property
    def luck(self) -> float:
        return self.final - (self.expected_start - self.total_loss)


@dataclass(frozen=True)
class Analysis:
    cards: tuple[Card, ...] = ()
    decisions: dict[int, Decision] = field(default_factory=dict)
    unavailable: str = ""  # why there is no analysis, when there is none

    @property
    def mistakes(self) -> list[int]:
        """The steps that carried a mistake (a loss beyond rounding), in order."""
        return sorted(step for step, d in self.decisions.items() if not d.is_best)

    def mistake_before(self, step: int) -> int | None:
        """The last step before ``step`` that carried a mistake, if any."""
        return max((s for s in self.mistakes if s < step), default=None)

    def mistake_after(self, step: int) -> int | None:
        """The first step after ``step`` that carried a mistake, if any."""
        return min((s for s in self.mistakes if s > step), default=None)

    def costliest(self, count: int = 3) -> list[Decision]:
        """The ``count`` mistakes that lost the most, the costliest first (the earlier
        of two that lost as much)."""
        wrong = (self.decisions[step] for step in self.mistakes)
        return sorted(wrong, key=lambda d: (-d.loss, d.step))[:count]


_CACHE: OrderedDict[tuple[int, str, int], Analysis] = OrderedDict()


def analyse(game: Game, steps: list[Step] | None = None) -> Analysis:
    """The analysis of a finished game (kept per process: a finished game never changes)."""
    # (ids are reused when a test database rolls back; codes are not)
    key = (game.id, game.code, game.version)
    if key in _CACHE:
        return _CACHE[key]
    result = _analyse(game, replay(game) if steps is None else steps)
    if not result.unavailable:
        _CACHE[key] = result
        if len(_CACHE) > 128:
            _CACHE.popitem(last=False)
    return result


def _analyse(game: Game, steps: list[Step]) -> Analysis:
    variant = Variant.of(game.ruleset, game.table_options)
    solver = tables.load_or_build_small(variant)
    if solver is None:
        return Analysis(unavailable="building" if tables.builds_by_itself(variant) else "not built")
    first = steps[0].before if steps else game.started_state()
    cards = [
        Card(index=i, final=0, expected_start=advice.between_turns(first, i, solver))
        for i in range(len(first.scorecards))
    ]
    for card in cards:
        card.curve.append(card.expected_start)
    decisions: dict[int, Decision] = {}
    for number, step in enumerate(steps, start=1):
        decision = _decision(number, step, solver)
        if decision is not None:
            decisions[number] = decision
            cards[decision.scorecard].losses.append(decision.loss)
        if step.after.turn > step.before.turn:  # a turn ended: a point on the curve
            index = step.before.current_index
            cards[index].curve.append(advice.between_turns(step.after, index, solver))
    final = steps[-1].after if steps else game.started_state()
    for card in cards:
        card.final = final.totals(card.index).total
    return Analysis(cards=tuple(cards), decisions=decisions)


def _decision(number: int, step: Step, solver: Solver) -> Decision | None:
    before, event = step.before, step.event
    decisions = (GameEvent.Kind.ROLL, GameEvent.Kind.SCORE, GameEvent.Kind.DECLARE)
    if before.roll_number == 0 or event.kind not in decisions:
        return None
    result = advice.advise(before, solver)
    if result is None:
        return None
    if event.kind == GameEvent.Kind.DECLARE:
        key = event.data["category"]
        chosen = next((c for c in result.choices if c.target == key), None)
    elif event.kind == GameEvent.Kind.SCORE:
        key = event.data["category"]
        chosen = next((c for c in result.choices if c.category == key), None)
    else:
        keep = sorted(before.dice[i] for i in event.data["held"])
        chosen = next(
            (
                c
                for c in result.choices
                if c.hold is not None and sorted(before.dice[i] for i in c.hold) == keep
            ),
            None,
        )
    if chosen is None:
        return None
    return Decision(
        step=number,
        scorecard=before.current_index,
        before=before,
        made=chosen,
        advised=result.best,
        loss=max(result.loss(chosen), 0.0),
        played_as=event.data.get("played_as", ""),
    )


# -- the chart -------------------------------------------------------------------------------

# The chart takes the width of its page and keeps its words at their own size: the
# drawing scaled whole to a phone's width had numbers ~5 px high. Across, places are
# in percent of the width; down, in pixels of a drawing of a fixed height.
HEIGHT, TOP, BOTTOM = 260, 12, 222
LEFT, RIGHT = 11.0, 97.0  # the plot's edges in percent: a small phone's 11% holds a "250"
COLOURS = ("#1f6fb2", "#d1495b", "#2a9d54", "#e08a00", "#7b4fb0", "#00798c", "#8c564b", "#555")
# Each line's mark at its points, in the order of the colours: lines told apart by their
# colour alone were one to a reader who does not see it. SVG paths about (0, 0), some 9 px
# across: circle, square, triangle, diamond, triangle down, plus, cross, star.
MARKS = (
    "M4 0A4 4 0 1 1-4 0A4 4 0 1 1 4 0Z",
    "M-3.5-3.5H3.5V3.5H-3.5Z",
    "M0-4.8L4.5 3.2H-4.5Z",
    "M0-5L5 0L0 5L-5 0Z",
    "M0 4.8L4.5-3.2H-4.5Z",
    "M-1.6-5H1.6V-1.6H5V1.6H1.6V5H-1.6V1.6H-5V-1.6H-1.6Z",
    "M-3.4-5.6L0-2.3L3.4-5.6L5.6-3.4L2.3 0L5.6 3.4L3.4 5.6L0 2.3L-3.4 5.6L-5.6 3.4L-2.3 0"
    "L-5.6-3.4Z",
    "M0-5.2L1.4-1.9L4.9-1.6L2.2 0.7L3.1 4.2L0 2.3L-3.1 4.2L-2.2 0.7L-4.9-1.6L-1.4-1.9Z",
)


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    mark: int  # which of ``MARKS``
    points: str  # SVG polyline points: percent across, pixels down
    coords: tuple[tuple[float, float], ...]  # the same points, one pair each


@dataclass(frozen=True)
class Tick:
    at: float  # percent across for a turn, pixels down for a score
    label: str
    minor: bool = False  # left out on a phone, where every turn's number is too many


@dataclass(frozen=True)
class Chart:
    lines: tuple[Line, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    # The numbers drawn, for those who cannot see the drawing or want them exact: a row
    # for each turn (0 for the start), with each line's value in it.
    rows: tuple[tuple[int, tuple[float, ...]], ...] = ()
    marks: tuple[str, ...] = MARKS
    height: int = HEIGHT
    left: float = LEFT
    right: float = RIGHT
    bottom: int = BOTTOM


def chart(analysis: Analysis, names: Sequence[str], rounds: int) -> Chart:
    """Each scorecard's expected final score after every turn, as SVG coordinates."""
    values = [v for card in analysis.cards for v in card.curve]
    low, high = min(values), max(values)
    step = _nice_step((high - low) / 4 or 10)
    low, high = step * (low // step), step * (high // step + 1)

    def x(turn: int) -> float:
        return LEFT + (RIGHT - LEFT) * turn / max(rounds, 1)

    def y(value: float) -> float:
        return BOTTOM - (BOTTOM - TOP) * (value - low) / (high - low)

    lines = []
    for card in analysis.cards:
        coords = [(round(x(t), 2), round(y(v), 1)) for t, v in enumerate(card.curve)]
        lines.append(
            Line(
                name=names[card.index],
                colour=COLOURS[card.index % len(COLOURS)],
                dash="" if card.index < len(COLOURS) else "6 3",
                mark=card.index % len(MARKS),
                points=" ".join(f"{a},{b}" for a, b in coords),
                coords=tuple(coords),
            )
        )
    y_ticks = []
    tick = low
    while tick <= high + 1e-9:
        y_ticks.append(Tick(round(y(tick), 1), f"{tick:g}"))
        tick += step
    every = max(1, rounds // 8)
    crowded = rounds // every > 8  # more than a phone's width holds: every other one shows
    x_ticks = tuple(
        Tick(round(x(t), 2), str(t), minor=crowded and t // every % 2 == 1)
        for t in range(0, rounds + 1, every)
    )
    # a finished game's scorecards have a point each for every turn: their curves are one long
    rows = tuple(enumerate(zip(*(card.curve for card in analysis.cards), strict=False)))
    return Chart(tuple(lines), tuple(y_ticks), x_ticks, rows)


def _nice_step(raw: float) -> float:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if step >= raw:
            return step
    return 1000
