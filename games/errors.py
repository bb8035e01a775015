"""Refusals of the web layer: each has an HTTP status and a message for people."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.rules import RulesError


class ActionError(Exception):
    """An action refused with a human-readable ``message``; nothing was changed."""

    status = 400
    code = "refused"

    def __init__(self, message: Any, *, code: str | None = None, status: int | None = None):
        super().__init__(str(message))
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status


class GameNotFound(ActionError):
    status = 404
    code = "unknown_game"

    def __init__(self) -> None:
        super().__init__(
            _("There is no game at this address. Check the link, or start a new game.")
        )


class StaleGame(ActionError):
    status = 409
    code = "stale"

    def __init__(self) -> None:
        super().__init__(
            _("The table has changed since your page was drawn: here it is as it is now.")
        )


class NotYourSeat(ActionError):
    status = 403
    code = "not_your_seat"


def rules_message(error: RulesError) -> str:
    """The engine's message in the active language, category names translated too."""
    params = {
        name: gettext(value) if name == "category" else value
        for name, value in error.params.items()
    }
    text = gettext(error.message)
    return text % params if params else text


def from_rules(error: RulesError) -> ActionError:
    status = 409 if error.code in {"not_your_turn", "game_over"} else 400
    return ActionError(rules_message(error), code=error.code, status=status)
