"""``manage.py verify_dice CODE``: check a finished game's dice against its seed and
fingerprint, from the database (``rules.fairness.verify``)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from games.dice_export import dice_export
from games.errors import ActionError
from games.rules import fairness


class Command(BaseCommand):
    help = "Check that a finished game's seed gives its dice fingerprint and every roll."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "code",
            help="the game's code, as in its address /g/CODE/ (an older code that starts"
            " with '-' goes after '--': verify_dice -- -CODE)",
        )

    def handle(self, *args: object, **options: str) -> None:
        code = options["code"]
        try:
            exported = dice_export(services.get_game(code))
        except ActionError as error:
            raise CommandError(f"{code}: {error.message}") from None
        verdict = fairness.verify(exported)
        if not verdict.ok:
            raise CommandError(f"{code}: the dice do not match: {verdict.problem}")
        self.stdout.write(
            f"{code}: all {verdict.rolls} rolls match the seed, and the seed the fingerprint"
            f" {exported['commitment']}."
        )
