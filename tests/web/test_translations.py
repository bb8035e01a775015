"""Every catalogue is complete, compiled and true to its source; the language comes
from ?lang=, the menu's remembered choice or Accept-Language, in that order."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.templating import watching
from tests.conftest import create_game, play_to_the_end, unisolated

LOCALE = Path(__file__).resolve().parents[2] / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
SAME_IN_FINNISH = {"Bonus", "Yatzy", "Yahtzee"}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_]+\}")


def po_entries(language: str = "fi", locale: Path = LOCALE) -> list[dict[str, list[str]]]:
    """Each entry of a .po file as {field: [strings]} (msgid, msgid_plural, msgstr...)."""
    po = locale / language / "LC_MESSAGES" / "django.po"
    entries, entry, field = [], {}, None
    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
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
    # an obsolete entry (#~) leaves its flags behind and no msgid: not a live string
    return [e for e in entries if e.get("msgid", [""]) != [""]]


def test_every_language_of_the_menu_has_a_catalogue() -> None:
    assert sorted(TRANSLATED) == sorted(p.name for p in LOCALE.iterdir() if p.is_dir())
    assert {"fi", "sv", "de", "it"} <= set(TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated_and_none_is_fuzzy(language: str) -> None:
    entries = po_entries(language)

    assert len(entries) == len(po_entries("fi")) > 150  # one source: makemessages --all
    untranslated = [
        e["msgid"][0]
        for e in entries
        if any(not text for key, texts in e.items() if key.startswith("msgstr") for text in texts)
    ]
    assert untranslated == []
    assert [e["msgid"][0] for e in entries if any("fuzzy" in f for f in e.get("flags", []))] == []
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert "#, fuzzy" not in po.read_text(encoding="utf-8")  # the header neither
    assert "\n#~ " not in po.read_text(encoding="utf-8"), "obsolete entries: run make messages"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_has_the_placeholders_of_its_source(language: str) -> None:
    def placeholders(text: str) -> Counter:
        return Counter(PLACEHOLDER.findall(text))

    wrong = []
    for entry in po_entries(language):
        sources = [entry["msgid"][0], *entry.get("msgid_plural", [])]
        # a plural's forms each say what one of the source's forms says
        allowed = [placeholders(source) for source in sources]
        for key, texts in entry.items():
            if key.startswith("msgstr") and any(placeholders(t) not in allowed for t in texts):
                wrong.append(entry["msgid"][0])
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_matches_the_po_file(language: str) -> None:
    with translation.override(language):
        for entry in po_entries(language):
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


def test_the_spectators_line_is_in_each_viewers_language(db: None) -> None:
    with translation.override("en"):
        assert watching(2) == "2 watching"
    with translation.override("fi"):
        assert watching(2) == "2 seuraa"


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
    listed = "Sivusto on saatavilla vain kielillä English, suomi, svenska, Deutsch, italiano"
    assert listed in unknown.content.decode()
    assert asked_by_get.status_code == 405
    assert '<html lang="fi">' in alice.get("/").content.decode()  # still Finnish


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.content.decode()).group(1)


def test_the_address_comes_before_the_remembered_choice_and_the_browsers(
    client: Client, db: None
) -> None:
    german_browser = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
    assert html_lang(client.get("/", **german_browser)) == "de"

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"  # chosen in the menu once
    assert html_lang(client.get("/", **german_browser)) == "sv"

    linked = client.get("/history/?lang=it", **german_browser)
    assert html_lang(linked) == "it" and linked["Content-Language"] == "it"
    assert html_lang(client.get("/", **german_browser)) == "it"  # remembered from then on
    assert html_lang(client.get("/?lang=sv-SE", **german_browser)) == "sv"


def test_a_language_the_site_does_not_speak_in_the_address_is_passed_over(
    client: Client, db: None
) -> None:
    page = client.get("/?lang=xx", HTTP_ACCEPT_LANGUAGE="de")

    assert page.status_code == 200 and html_lang(page) == "de"
    assert settings.LANGUAGE_COOKIE_NAME not in page.cookies


def test_the_menu_names_every_language_in_its_own_words(client: Client, db: None) -> None:
    page = client.get("/?lang=de").content.decode()

    menu = page.partition('<select id="language"')[2].partition("</select>")[0]
    names = re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>', menu)
    assert names == [
        ("en", "English"),
        ("fi", "suomi"),
        ("sv", "svenska"),
        ("de", "Deutsch"),
        ("it", "italiano"),
    ]


@pytest.mark.parametrize(
    "language, date_pattern, decimal",
    [
        # English writes 10 p.m. without its minutes, and midnight and noon in words
        ("en", r"\d{2}/\d{2}/\d{4} (\d{1,2}(:\d{2})? [ap]\.m\.|midnight|noon)", "."),
        ("fi", r"\d{1,2}\.\d{1,2}\.\d{4} \d{1,2}\.\d{2}", ","),
        ("sv", r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", ","),
        ("de", r"\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}", ","),
        ("it", r"\d{2}/\d{2}/\d{4} \d{2}:\d{2}", ","),
    ],
)
def test_the_history_and_review_write_dates_and_numbers_as_their_language_does(
    alice: Client, dice: object, language: str, date_pattern: str, decimal: str
) -> None:
    game = play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))
    alice.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    history = alice.get("/history/").content.decode()
    review = alice.get(f"/g/{game.code}/review/").content.decode()

    assert re.search(rf"<td>{date_pattern}</td>", history), history
    expected = re.findall(r"<td>(\d+[.,]\d)</td>", review)  # the expected finals and luck
    assert expected and all(decimal in number for number in expected)


def test_the_catalogues_hold_every_string_of_the_source(tmp_path: Path) -> None:
    """A string added to the code or a template but not to the catalogues (``make
    messages`` not run) would show in English on every page of every other language."""
    root = LOCALE.parent
    copy = tmp_path / "site"
    for part in (
        "games",
        "players",
        "templates",
        "jinja_templates",
        "yatzy_site",
        "static",
        "locale",
    ):
        shutil.copytree(root / part, copy / part, ignore=shutil.ignore_patterns("*.mo"))
    shutil.copy(root / "manage.py", copy / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fi", "--no-location"],
        cwd=copy,
        check=True,
        capture_output=True,
        env={**os.environ, "YATZY_VAR_DIR": str(tmp_path / "var")},
    )

    def msgids(locale: Path) -> set[tuple[str, ...]]:
        return {(*e.get("msgctxt", []), *e["msgid"]) for e in po_entries("fi", locale)}

    catalogued = msgids(LOCALE)
    in_the_source = msgids(copy / "locale")
    assert in_the_source - catalogued == set(), "run make messages and translate these"
    assert catalogued - in_the_source == set(), "run make messages: these are gone"


@pytest.mark.parametrize(
    ("language", "source", "breaks"),
    [("de", "Subtotal", "Zwischen\u00adsumme"), ("it", "Category", "Combina\u00adzione")],
)
def test_a_long_word_of_the_scorecard_breaks_with_a_hyphen(
    language: str, source: str, breaks: str
) -> None:
    """A scorecard's column on a phone is narrower than 'Zwischensumme': the word broke
    anywhere ('Zwischensum|me'), no hyphen shown. A soft hyphen says where it may
    break, as the Finnish catalogue's 'Skandi-naavinen' does."""
    with translation.override(language):
        assert translation.gettext(source) == breaks
