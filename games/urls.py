from __future__ import annotations

from django.urls import path

from games.views import daily, history, home, howto, pwa, quick, review, room, table, watch

urlpatterns = [
    path("", home.home, name="home"),
    path("games/new/", home.create_game, name="create_game"),
    path("how-to-play/", howto.how_to_play, name="how_to_play"),
    path("quick/", quick.waiting, name="quick_wait"),
    path("quick/play/", quick.press, name="quick_play"),
    path("quick/computer/", quick.play_the_computer, name="quick_computer"),
    path("quick/stop/", quick.stop_waiting, name="quick_stop"),
    path("g/<str:code>/", table.table, name="table"),
    path("g/<str:code>/roll/", table.roll, name="roll"),
    path("g/<str:code>/hold/", table.hold, name="hold"),
    path("g/<str:code>/declare/", table.declare, name="declare"),
    path("g/<str:code>/score/", table.score, name="score"),
    path("g/<str:code>/again/", table.play_again, name="play_again"),
    path("g/<str:code>/lobby/", room.lobby, name="lobby"),
    path("g/<str:code>/join/", room.join, name="join"),
    path("g/<str:code>/seat/<str:token>/", room.rejoin, name="rejoin"),
    path("g/<str:code>/start/", room.start, name="start"),
    path("g/<str:code>/leave/", room.leave, name="leave"),
    path("g/<str:code>/seats/<int:position>/remove/", room.remove_seat, name="remove_seat"),
    path("g/<str:code>/skip/", room.skip_turn, name="skip_turn"),
    path("g/<str:code>/handover/", room.hand_to_bot, name="hand_to_bot"),
    path("g/<str:code>/takeback/", room.take_back, name="take_back"),
    path("g/<str:code>/hint/", table.hint, name="hint"),
    path("g/<str:code>/react/", table.react, name="react"),
    path("g/<str:code>/qr.svg", room.invite_qr, name="invite_qr"),
    path("g/<str:code>/review/", review.review, name="review"),
    path("g/<str:code>/dice.json", review.dice, name="dice_export"),
    path("history/", history.history, name="history"),
    path("watch/", watch.watch, name="watch"),
    path("daily/play/", daily.play, name="daily_play"),
    path("daily/<str:ruleset>/", daily.today, name="daily_today"),
    path("daily/<str:ruleset>/<str:day>/", daily.day, name="daily_day"),
    path("manifest/<str:language>.webmanifest", pwa.manifest, name="manifest"),
    path("offline/<str:language>/", pwa.offline, name="offline"),
    # at the root, so that the worker's scope is the whole site
    path("sw.js", pwa.service_worker, name="service_worker"),
]
