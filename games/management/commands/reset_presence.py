"""``manage.py reset_presence``: forget the sockets counted at the tables, before a
server that serves the site alone starts (see ``presence.forget_all_sockets``)."""

from __future__ import annotations

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.management.base import BaseCommand, CommandError

from games import presence


class Command(BaseCommand):
    help = (
        "Forget the open sockets counted at the tables: run it before a server that serves"
        " the site alone starts, so that a crash does not leave players shown as present."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="also where several processes share the database (all must be stopped)",
        )
        parser.add_argument(
            "--if-alone",
            action="store_true",
            help="only where one process serves the site, else do nothing (`make run`)",
        )

    def handle(self, *args, **options) -> None:
        # one process's sockets only meet through an in-memory layer (as in ``broadcast``)
        layer = get_channel_layer()
        if not isinstance(layer, InMemoryChannelLayer) and not options["force"]:
            if options["if_alone"]:
                self.stdout.write(
                    "Several server processes may share this database: not forgotten."
                )
                return
            raise CommandError(
                "Several server processes may share this database (the channel layer is "
                f"{type(layer).__name__}): forgetting their sockets would show present players "
                "as away. Stop every server first and run this with --force."
            )
        seats, games = presence.forget_all_sockets()
        self.stdout.write(
            f"Forgot the sockets of {seats} seat(s) and the spectators of {games} game(s)."
        )
