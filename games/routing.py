from __future__ import annotations

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [path("ws/g/<str:code>/", TableConsumer.as_asgi())]
