"""The templates' side of ``games.bidi``: ``{{ name|bdi }}`` puts a name into a page in
``<bdi>``, and ``{{ name|isolated_text }}`` between FSI and PDI, for an attribute.
Through a filter a name can be isolated where ``blocktranslate`` takes it (``with
name=name|bdi``) and the message, and so its translations, stay as they are."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import bidi as isolation

register = template.Library()


@register.filter
def bdi(name: str) -> SafeString:
    """``name`` in ``<bdi>``, escaped unless it is markup already."""
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def isolated_text(name: str) -> str:
    """``name`` between FSI and PDI (escaped, as any value, where it is shown)."""
    return isolation.isolated_text(name)
