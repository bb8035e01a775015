"""Domain errors: every refusal carries a stable code and a translatable message."""

from __future__ import annotations

from typing import Any

from .i18n import gettext_noop as _


class RulesError(ValueError):
    """A request the rules refuse. The game state it was made against is unchanged.

    ``message`` is English source text marked for translation, with ``%(name)s``
    placeholders filled from ``params``; ``str(error)`` gives the English sentence.
    """

    code = "rules_error"
    default_message = _("That is not allowed by the rules.")

    def __init__(self, message: str | None = None, **params: Any) -> None:
        self.message = message or self.default_message
        self.params = params
        super().__init__(self.message % params if params else self.message)


class UnknownRuleSet(RulesError):
    code = "unknown_ruleset"
    default_message = _("Unknown rule set %(name)s.")


class UnknownCategory(RulesError):
    code = "unknown_category"
    default_message = _("There is no category %(key)s in this game.")


class InvalidDice(RulesError):
    code = "invalid_dice"
    default_message = _("Dice must be %(count)s whole numbers from 1 to 6.")


class InvalidOptions(RulesError):
    code = "invalid_options"


class IllegalMove(RulesError):
    """An action the current game state does not allow."""

    code = "illegal_move"

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        super().__init__(message, **params)
