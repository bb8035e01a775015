"""``manage.py reset_presence``: forget the sockets counted at the tables while no server
serves the site (see ``presence.forget_all_sockets``). ``manage.py serve`` does it
itself as it starts; this is for servers started otherwise, after all have stopped.

With ``--process NAME``, only what one named process of several left counted
(``presence.forget_process``), while the others serve: for a process that has stopped
and will not be started again under its name, which would do it itself."""

from __future__ import annotations

from channels.layers import get_channel_layer
from django.core.management.base import BaseCommand, CommandError

from games import broadcast, presence
from yatzy_site import serving


class Command(BaseCommand):
    help = (
        "Forget the open sockets counted at the tables, while no server serves the site, so"
        " that a crash does not leave players shown as present."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="also where several processes share the database (all must be stopped)",
        )
        parser.add_argument(
            "--process",
            metavar="NAME",
            help="only the sockets of the process named NAME (YATZY_PROCESS), which has stopped",
        )

    def handle(self, *args, **options) -> None:
        address = serving.serving_at()  # SQLite's lock file: the one server of the site
        if address is not None:
            raise CommandError(
                f"A server is serving this database at {address}: its sockets are open. Stop"
                " it first (`manage.py serve` forgets the counts as it starts)."
            )
        if options["process"]:
            self._forget_process(options["process"])
            return
        held = serving.names_held()
        if held:
            raise CommandError(
                f"The processes named {', '.join(held)} are serving this database: their"
                " sockets are open. Stop every server first."
            )
        if not presence.counted_here_alone() and not options["force"]:
            raise CommandError(
                "Several server processes may share this database (the channel layer is "
                f"{type(get_channel_layer()).__name__}): forgetting their sockets would show "
                "present players as away. Stop every server first and run this with --force."
            )
        seats, games = presence.forget_all_sockets()
        self.stdout.write(
            f"Forgot the sockets of {seats} seat(s) and the spectators of {games} game(s)."
        )

    def _forget_process(self, process: str) -> None:
        # The name is held while its counts are taken off: a process starting under it
        # meanwhile stops, instead of having its new sockets taken off.
        try:
            serving.claim_name(process, wait=0)
        except serving.NameTaken as taken:
            raise CommandError(
                f"The process named {taken.process} is serving this database"
                f" ({taken.holder}): its sockets are open. Stop it first (or restart it:"
                " it takes off what it left counted as it starts)."
            ) from None
        try:
            codes, sockets = presence.forget_process(process)
        finally:
            serving.release_names()
        broadcast.presence_changed(codes)
        self.stdout.write(
            f"Took off the {sockets} socket(s) at {len(codes)} table(s) that the process"
            f" named {process} left counted."
        )
