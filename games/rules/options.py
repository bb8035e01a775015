"""Table options (RULES.md section 4), chosen when a room is created."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import InvalidOptions
from .i18n import gettext_noop as _
from .rulesets import RuleSet


@dataclass(frozen=True)
class TableOptions:
    forced_order: bool = False
    declared_target: bool = False
    upper_only: bool = False
    auto_first_roll: bool = False
    upper_bonus: int | None = None  # None: the rule set's own (Yatzy may choose 25)
    yahtzee_bonus: bool = True  # the +100 for extra Yahtzees (Yahtzee only)

    def validate(self, ruleset: RuleSet) -> None:
        """Refuse combinations that make no sense for ``ruleset``."""
        if self.forced_order and self.declared_target:
            raise InvalidOptions(
                _(
                    "Forced order already fixes the category of every turn: "
                    "it cannot be combined with a declared target."
                )
            )
        if self.upper_bonus is not None and self.upper_bonus not in ruleset.bonus_values:
            raise InvalidOptions(
                _("An upper bonus of %(bonus)s is not a choice in %(ruleset)s."),
                bonus=self.upper_bonus,
                ruleset=ruleset.name,
            )
        if not self.yahtzee_bonus and not ruleset.yahtzee_rules:
            raise InvalidOptions(
                _("The Yahtzee bonus can only be switched off in American Yahtzee.")
            )

    def bonus_value(self, ruleset: RuleSet) -> int:
        return ruleset.default_bonus if self.upper_bonus is None else self.upper_bonus

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise InvalidOptions(_("Unknown table option %(name)s."), name=sorted(unknown)[0])
        return cls(**data)
