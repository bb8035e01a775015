from __future__ import annotations

from django.urls import path

from games.consumers import TableConsumer

table = TableConsumer.as_asgi()
# the table page's socket names its page (``broadcast.new_page_id``); a bare one is a
# page without a name, every update pushed to it
websocket_urlpatterns = [
    path("ws/g/<str:code>/", table),
    path("ws/g/<str:code>/<str:page>/", table),
]
