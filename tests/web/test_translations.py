"""Finnish is complete, compiled, and chosen with the language switcher."""

from __future__ import annotations

import ast
from pathlib import Path

from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.conftest import create_game, unisolated

PO = Path(__file__).resolve().parents[2] / "locale" / "fi" / "LC_MESSAGES" / "django.po"
SAME_IN_FINNISH = {"Bonus", "Yatzy", "Yahtzee"}


def po_entries() -> list[dict[str, list[str]]]:
    """Each entry of the .po file as {field: [strings]} (msgid, msgid_plural, msgstr...)."""
    entries, entry, field = [], {}, None
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry:
                entries.append(entry)
            entry, field = {}, None
        elif line.startswith("#,"):
            entry.setdefault("flags", []).append(line)
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field][-1] += ast.literal_eval(line)
        else:
            field, _, text = line.partition(" ")
            entry.setdefault(field, []).append(ast.literal_eval(text))
    return [e for e in entries if e.get("msgid") != [""]]


def test_every_finnish_string_is_translated_and_none_is_fuzzy() -> None:
    entries = po_entries()

    assert len(entries) > 150
    untranslated = [
        e["msgid"][0]
        for e in entries
        if any(not text for key, texts in e.items() if key.startswith("msgstr") for text in texts)
    ]
    assert untranslated == []
    assert [e["msgid"][0] for e in entries if any("fuzzy" in f for f in e.get("flags", []))] == []


def test_the_compiled_catalogue_matches_the_po_file() -> None:
    with translation.override("fi"):
        for entry in po_entries():
            if "msgid_plural" in entry:
                continue
            msgid, msgstr = entry["msgid"][0], entry["msgstr"][0]
            if "%" not in msgid and msgid not in SAME_IN_FINNISH:
                if context := entry.get("msgctxt", [""])[0]:
                    assert translation.pgettext(context, msgid) == msgstr, (context, msgid)
                else:
                    assert translation.gettext(msgid) == msgstr, msgid


def test_the_language_switcher_turns_the_site_finnish(alice: Client, dice: object) -> None:
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    game = create_game(alice, players="Bob", coach="on")
    alice.post(f"/g/{game.code}/roll/", {"version": str(game.version)})

    page = unisolated(alice.get(f"/g/{game.code}/").content.decode())

    assert '<html lang="fi">' in page
    assert "Sinun vuorosi, Alice." in page
    assert 'aria-label="Noppa 1: ' in page
    assert ">Heitä <" in page and ">Vinkki</a>" in page and 'aria-label="Pöydässä"' in page
    assert "Ykköset" in page and "Välisumma" in page


def watching(spectators: int) -> str:
    return render_to_string("games/table.html#watching", {"spectators": spectators})


def test_the_spectators_line_is_in_each_viewers_language(db: None) -> None:
    with translation.override("en"):
        assert watching(2) == '<li class="watching">2 watching</li>'
    with translation.override("fi"):
        assert watching(2) == '<li class="watching">2 seuraa</li>'
        assert watching(0) == ""


def test_the_language_switcher_comes_back_to_a_page_it_can_show(
    alice: Client, dice: object
) -> None:
    """A page shown for a form's POST has an address that takes only POSTs: the switcher
    goes back to the table of its game, or to the home page, not to a refusal."""
    game = create_game(alice, players="Bob")
    refused = alice.post(f"/g/{game.code}/score/", {"version": "0", "category": "ones"})
    form_with_an_error = alice.post("/games/new/", {"player_name": " "})
    history = alice.get("/history/?page=1")

    assert f'name="next" value="/g/{game.code}/"' in refused.content.decode()
    assert 'name="next" value="/"' in form_with_an_error.content.decode()
    assert 'name="next" value="/history/?page=1"' in history.content.decode()
    assert (refused.status_code, form_with_an_error.status_code) == (409, 400)


def test_a_language_the_site_does_not_speak_is_refused_in_words(alice: Client) -> None:
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    unknown = alice.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    missing = alice.post("/i18n/setlang/", {"next": "/"})
    asked_by_get = alice.get("/i18n/setlang/?language=en")

    assert unknown.status_code == missing.status_code == 400
    assert "Sivusto on saatavilla vain kielillä English, suomi" in unknown.content.decode()
    assert asked_by_get.status_code == 405
    assert '<html lang="fi">' in alice.get("/").content.decode()  # still Finnish
