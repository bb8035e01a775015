"""Management commands that run beside the server (``serve``, ``tidy``) and tell the
operator what they do in the logs' format."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.management.base import BaseCommand


class TellingCommand(BaseCommand):
    def say(self, message: str) -> None:
        """A line of text at once (before the lines of a process it starts), or under
        JSON logs a record of the command's logger, like every other line the process
        writes."""
        if settings.YATZY_LOG_FORMAT == "json":
            logging.getLogger(type(self).__module__).info(message)
        else:
            self.stdout.write(message)
            self.stdout.flush()
