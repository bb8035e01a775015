"""What a phone is given to put the site on its home screen: a manifest in each language
with icons that are there, the service worker at the site's root, the offline page.
How the worker behaves with the network cut: tests/e2e/test_offline.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from PIL import Image

from games.management.commands.draw_icons import ICONS
from games.views.pwa import cache_name

pytestmark = pytest.mark.django_db  # the pages that link the manifest read games

LANGUAGES = [code for code, _name in settings.LANGUAGES]
STATIC_IMG = Path(settings.BASE_DIR) / "static" / "img"
NAME = "Yatzy with friends"
DESCRIPTION = (
    "Play Yatzy, Yahtzee or Maxi Yatzy with friends: at this screen, by invite link, or both."
)
OFFLINE = "You are offline; your game continues when you are back."


def served(client: Client, url: str) -> tuple[str, bytes]:
    response = client.get(url)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response["Content-Type"], body


def png_size_and_alpha(data: bytes) -> tuple[str, bool]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height, _depth, colour_type = struct.unpack(">IIBB", data[16:26])
    return f"{width}x{height}", colour_type in (4, 6)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_manifest_names_the_site_in_each_language(client: Client, language: str) -> None:
    response = client.get(f"/manifest/{language}.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Content-Language"] == language
    manifest = response.json()
    with translation.override(language):
        assert manifest["name"] == gettext(NAME)
        assert manifest["short_name"] == gettext("Yatzy")
        assert manifest["description"] == gettext(DESCRIPTION)
    assert (manifest["name"] == NAME) is (language == "en")
    assert manifest["lang"] == language
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )


def test_the_manifest_has_the_sites_colours(client: Client) -> None:
    manifest = client.get("/manifest/en.webmanifest").json()
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()
    page = client.get("/").content.decode()

    assert f"--felt: {manifest['theme_color']};" in css
    assert f"--paper: {manifest['background_color']};" in css
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page


def test_every_icon_of_the_manifest_is_served_as_it_says(client: Client) -> None:
    icons = client.get("/manifest/en.webmanifest").json()["icons"]

    purposes = set()
    for icon in icons:
        content_type, body = served(client, icon["src"])
        assert content_type == icon["type"]
        purposes.add(icon["purpose"])
        if icon["type"] == "image/svg+xml":
            assert body.startswith(b"<svg ")
            continue
        size, transparent = png_size_and_alpha(body)
        assert size == icon["sizes"]
        # a phone cuts a maskable icon to its own shape: no hole in it may show through
        assert transparent is (icon["purpose"] == "any")
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in icons}
    assert purposes == {"any", "maskable"}


def test_a_language_the_site_does_not_speak_has_no_manifest(client: Client) -> None:
    response = client.get("/manifest/xx.webmanifest")

    assert response.status_code == 404
    assert "There is nothing at this address" in response.content.decode()


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_page_links_the_manifest_of_its_language_and_the_one_worker(
    client: Client, language: str
) -> None:
    page = client.get(f"/?lang={language}").content.decode()

    assert f'<link rel="manifest" href="/manifest/{language}.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page
    touch_icon = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page).group(1)
    content_type, body = served(client, touch_icon)
    assert content_type == "image/png"
    assert png_size_and_alpha(body) == ("180x180", False)  # iOS shows a hole as black


def test_the_service_worker_is_served_as_javascript_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript"
    assert response["Cache-Control"] == "no-cache"  # a deploy's new worker is found at once
    script = response.content.decode()
    pages = json.loads(re.search(r"const OFFLINE_PAGES = (\{.*\});", script).group(1))
    assert pages == {language: f"/offline/{language}/" for language in LANGUAGES}
    assert re.search(r'const CACHE = "yatzy-offline-[0-9a-f]{16}";', script)


def test_everything_the_worker_keeps_is_there(client: Client) -> None:
    script = client.get("/sw.js").content.decode()
    kept = re.search(r"const PRECACHED = (\[.*\]);", script).group(1)

    urls = re.findall(r'"([^"]+)"', kept)
    assert {f"/offline/{language}/" for language in LANGUAGES} <= set(urls)  # every one
    assert "/static/css/site.css" in urls
    for url in urls:
        served(client, url)


def test_the_worker_is_the_same_script_in_every_language(client: Client) -> None:
    """A browser installs a new worker only for a script that differs: a change of
    language brings none (the last one's taking over left a page's load hanging)."""
    scripts = set()
    for language in LANGUAGES:
        client.get(f"/?lang={language}")  # the language chosen, as the page's link does
        scripts.add(client.get("/sw.js", HTTP_ACCEPT_LANGUAGE=language).content)

    assert len(scripts) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offline_page_says_so_in_its_language(client: Client, language: str) -> None:
    response = client.get(f"/offline/{language}/")

    assert response.status_code == 200
    assert response["Content-Language"] == language
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    with translation.override(language):
        assert gettext(OFFLINE) in page
        assert gettext("Try again") in page
    assert "<script" not in page  # shown without a network: nothing to run, nothing to fetch


def test_a_language_the_site_does_not_speak_has_no_offline_page(client: Client) -> None:
    assert client.get("/offline/xx/").status_code == 404


@pytest.fixture
def cairo() -> None:
    """CairoSVG needs Cairo's C library (Debian's libcairo2, which chromium brings)."""
    try:
        import cairosvg  # noqa: F401
    except OSError as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CairoSVG cannot load Cairo under CI: {missing}")
        pytest.skip(f"Cairo is missing (apt-get install libcairo2): {missing}")


def pixels(png: Path) -> np.ndarray:
    """The image's colours premultiplied by its alpha: two renderings of an edge agree
    on what shows, whatever colour a transparent pixel is said to have."""
    rgba = np.asarray(Image.open(png).convert("RGBA"), dtype=float)
    return np.dstack([rgba[..., :3] * rgba[..., 3:] / 255, rgba[..., 3]])


def test_the_png_icons_are_drawn_from_the_svg_icons(tmp_path: Path, cairo: None) -> None:
    call_command("draw_icons", into=tmp_path, stdout=StringIO())

    for name, (size, _svg) in ICONS.items():
        drawn, committed = pixels(tmp_path / name), pixels(STATIC_IMG / name)
        assert drawn.shape == committed.shape == (size, size, 4), name
        # another Cairo may smooth an edge differently, never a whole area
        differs = (np.abs(drawn - committed) > 8).any(axis=2)
        assert differs.mean() < 0.002, f"{name}: run manage.py draw_icons after changing an SVG"


def worker_cache(client: Client) -> str:
    script = client.get("/sw.js").content.decode()
    return re.search(r'const CACHE = "([^"]+)";', script).group(1)


@pytest.fixture
def new_process() -> Iterator[None]:
    """What a deploy's new server process computes afresh: the name of the worker's cache,
    worked out once in a process."""
    cache_name.cache_clear()
    yield
    cache_name.cache_clear()


def test_a_deploy_that_changes_what_the_worker_keeps_renames_its_cache(
    client: Client, settings, tmp_path: Path, new_process: None
) -> None:
    before = worker_cache(client)
    static = tmp_path / "static"
    shutil.copytree(STATIC_IMG.parent, static)
    with (static / "css" / "site.css").open("a") as css:
        css.write(".offline h1 { color: red; }\n")

    settings.STATICFILES_DIRS = [static]
    cache_name.cache_clear()  # the new deploy's process

    assert worker_cache(client) != before
