"""The language of a page: ``?lang=`` first (a link that says which, ``?lang=sv``),
then the browser's remembered choice (the cookie the language menu sets), then its
Accept-Language. Django's ``LocaleMiddleware`` does the last two; the middleware
here, after it, does the first and remembers it like the menu does, so the next
page and the table's socket speak it too. A ``lang`` the site does not speak is
left alone: the page comes in the language it would have had."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.around import around


def asked_for(request: HttpRequest) -> str | None:
    """The site's language ``?lang=`` names (``sv-SE`` is Swedish), if it speaks it."""
    value = request.GET.get("lang", "")
    if not value or len(value) > 16:
        return None
    try:
        return translation.get_supported_language_variant(value)
    except LookupError:
        return None


def remember(response: HttpResponse, language: str) -> None:
    """The cookie Django's language menu sets (``django.views.i18n.set_language``)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def chosen(request: HttpRequest) -> str | None:
    language = asked_for(request)
    if language is not None:
        translation.activate(language)
        request.LANGUAGE_CODE = language
    return language


def remembered(request: HttpRequest, response: HttpResponse, language: str | None) -> None:
    if language is not None:
        remember(response, language)


# ``?lang=`` over the language ``LocaleMiddleware`` chose
query_language = around(chosen, remembered)
