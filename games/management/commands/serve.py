"""``manage.py serve``: the server of ``make run`` and of each process of the scale-out.

With ``YATZY_TIDY_EVERY_S`` (the embedded default: every hour) it starts ``manage.py
tidy`` beside the server, which deletes abandoned games and expired sessions on that
schedule and ends with the server.

On the embedded default it claims the database for itself (``yatzy_site.serving``),
forgets the sockets an earlier server left counted when it stopped without their
goodbyes (killed, crashed, the machine lost; see ``presence.forget_all_sockets``), and
then becomes daphne, which holds the claim until it exits. Started while another server
serves the same database, it stops before it changes anything, and says where that
server is.

Where several processes share the database, each named (``YATZY_PROCESS``), it takes
off only what the last process of its name left counted (``presence.forget_process``),
and tells those tables' browsers.
"""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings
from django.core.management.base import CommandError

from games import broadcast, presence
from games.management.telling import TellingCommand
from yatzy_site import serving


class Command(TellingCommand):
    help = (
        "Serve the site with daphne, alone: first forget the open sockets a server that"
        " stopped without their goodbyes left counted at the tables."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--proxy-headers",
            action="store_true",
            help="behind a proxy: take the client's address from X-Forwarded-For (daphne's)",
        )

    def handle(self, *args, **options) -> None:
        host, port = options["host"], options["port"]
        address = f"http://{host}:{port}/"
        try:
            serving.claim(address)  # its descriptor is inherited by daphne, which holds it
        except serving.AlreadyServing as serving_now:
            raise CommandError(
                f"A server is already serving this database at {serving_now.address}: open"
                " that one, or stop it before you start another."
            ) from None
        if settings.YATZY_PROCESS:
            try:
                serving.claim_name(settings.YATZY_PROCESS)  # held by daphne too
            except serving.NameTaken as taken:
                message = (
                    f"A process named {taken.process} is already serving this database"
                    f" ({taken.holder}): give each process a name of its own (YATZY_PROCESS),"
                    " or stop that one before you start another."
                )
                if taken.pid:
                    message += (
                        " If its machine is gone for good, end its session first:"
                        f" SELECT pg_terminate_backend({taken.pid});"
                    )
                raise CommandError(message) from None
        if presence.counted_here_alone():
            seats, games = presence.forget_all_sockets()
            self.say(
                f"Forgot the sockets of {seats} seat(s) and the spectators of {games} game(s)"
                " that an earlier server left counted."
            )
        elif settings.YATZY_PROCESS:
            codes, sockets = presence.forget_process(settings.YATZY_PROCESS)
            broadcast.presence_changed(codes)
            self.say(
                f"Took off the {sockets} socket(s) at {len(codes)} table(s) that the last"
                f" process named {settings.YATZY_PROCESS} left counted."
            )
        else:
            self.say(
                "Several server processes may share this database: the sockets they count"
                " are kept. Name each process (YATZY_PROCESS) so that it takes off what its"
                " predecessor left counted."
            )
        if settings.YATZY_TIDY_EVERY:
            # beside the server, in a process of its own, which ends with the server
            self.say(f"Tidying every {settings.YATZY_TIDY_EVERY} s (manage.py tidy).")
            tidy = ["tidy", "--every", str(settings.YATZY_TIDY_EVERY), "--with-parent"]
            subprocess.Popen([sys.executable, "-m", "django", *tidy])
        endpoint = serving.endpoint(host, port)
        argv = [sys.executable, "-m", "daphne", "-e", endpoint]
        # no access log of daphne's: the site writes each request's, in the logs' format
        # and without the seat tokens of personal links (yatzy_site.monitoring); daphne's
        # other records go through LOGGING
        argv += ["--verbosity", "0"]
        if options["proxy_headers"]:
            argv.append("--proxy-headers")
        argv.append("yatzy_site.asgi:application")
        self.stdout.flush()
        os.execv(sys.executable, argv)  # what this process opened closes, but the claim
