"""What the solver needs of a table: its rule set and the options that change play."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games import rules


@dataclass(frozen=True)
class Variant:
    """What the solver needs of a table: rule set and the options that change play."""

    ruleset: str
    forced_order: bool = False
    upper_only: bool = False
    upper_bonus: int | None = None
    yahtzee_bonus: bool = True
    declared_target: bool = False

    @classmethod
    def of(cls, ruleset: str, options: rules.TableOptions) -> Variant:
        table = rules.get_ruleset(ruleset)
        # options that change nothing on this table name no other variant
        bonus = options.upper_bonus
        return cls(
            ruleset=ruleset,
            forced_order=options.forced_order,
            upper_only=options.upper_only,
            upper_bonus=None if bonus in (None, table.default_bonus) else bonus,
            yahtzee_bonus=options.yahtzee_bonus or not table.yahtzee_rules or options.upper_only,
            declared_target=options.declared_target,
        )

    @property
    def name(self) -> str:
        parts = [self.ruleset]
        parts += ["forced"] if self.forced_order else []
        parts += ["declared"] if self.declared_target else []
        parts += ["upper"] if self.upper_only else []
        parts += [f"bonus{self.upper_bonus}"] if self.upper_bonus else []
        parts += ["nobonus"] if not self.yahtzee_bonus else []
        return "-".join(parts)

    @property
    def small(self) -> bool:
        """Forced order or upper section only: few enough scorecards to solve on the spot."""
        return self.forced_order or self.upper_only

    @cached_property
    def table(self) -> rules.RuleSet:
        return rules.get_ruleset(self.ruleset)

    @cached_property
    def keys(self) -> tuple[str, ...]:
        categories = self.table.upper_categories if self.upper_only else self.table.categories
        return tuple(c.key for c in categories)

    @property
    def threshold(self) -> int:
        return self.table.bonus_threshold

    @property
    def bonus(self) -> int:
        return self.table.default_bonus if self.upper_bonus is None else self.upper_bonus

    @property
    def jokers(self) -> bool:
        return self.table.yahtzee_rules and not self.upper_only

    @cached_property
    def yahtzee_index(self) -> int:
        return self.keys.index(self.table.all_alike_key) if self.jokers else -1
