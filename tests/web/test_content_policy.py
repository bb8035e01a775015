"""The Content-Security-Policy header, and the templates it leaves working: none has
an inline script, an event handler attribute or a style of its own, which the policy
forbids (tests/e2e/test_csp.py plays under it in a real browser)."""

from __future__ import annotations

import re
from pathlib import Path

import django
import pytest
from django.test import Client

from tests.conftest import create_game

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = [ROOT / "templates", ROOT / "jinja_templates"]  # Django's and Jinja2's
INLINE = {
    "a script without src": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "an event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "a style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "a style element": re.compile(r"<style\b", re.I),
    "a javascript: link": re.compile(r"javascript:", re.I),
}

pytestmark = pytest.mark.skipif(django.VERSION < (6, 0), reason="Django 5.2 sends no CSP")


@pytest.mark.parametrize(
    "template",
    sorted(path for folder in TEMPLATES for path in folder.rglob("*.html")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_template_holds_anything_inline(template: Path) -> None:
    text = template.read_text()
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert not found, f"{template.name} holds {', '.join(found)}"


@pytest.mark.parametrize("path", ["/", "/history/", "/static/css/site.css", "/sw.js", "/nowhere/"])
def test_every_answer_carries_the_policy(path: str, db: None) -> None:
    policy = Client().get(path)["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == directives["script-src"] == "'self'"
    assert directives["style-src"] == directives["connect-src"] == "'self'"
    assert directives["object-src"] == directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


def test_the_table_carries_the_policy(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")

    response = alice.get(f"/g/{game.code}/")

    assert "script-src 'self'" in response["Content-Security-Policy"]
