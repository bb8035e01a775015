from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import howto
from games.views.access import require_GET


@require_GET
def how_to_play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/how_to_play.html", {"rulesets": howto.all_rules()})
