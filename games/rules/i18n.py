"""Marks engine strings for translation without importing Django.

``makemessages`` collects calls to ``gettext_noop``; the web layer translates the
marked text with Django's ``gettext`` when it shows it, so the engine stays pure.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    return message
