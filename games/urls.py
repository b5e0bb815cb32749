from django.urls import path

from games.live import invitation_views, table_pages
from games.replays import replay_pages
from games.solitaire import meter_views, solo_match_pages, views
from games.stats import pages as stats_pages

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<slug:game>/", views.new_game, name="new_game"),
    path("play/<slug:game>/match/", solo_match_pages.matches, name="solo_matches"),
    path("matches/<int:match_id>/", solo_match_pages.match_page, name="solo_match"),
    path("matches/<int:match_id>/deals/<int:deal>/", solo_match_pages.play_deal, name="solo_match_deal"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act/", views.act, name="game_act"),
    path("games/<int:game_id>/undo/", views.undo, name="game_undo"),
    path("games/<int:game_id>/hint/", views.hint, name="game_hint"),
    path("games/<int:game_id>/odds/", meter_views.odds_meter, name="game_odds"),
    path("games/odds/", meter_views.odds_switch, name="odds_switch"),
    path("games/<int:game_id>/solution/", views.solution, name="game_solution"),
    path("games/<int:game_id>/replay/", replay_pages.replay, name="replay"),
    path("games/<int:game_id>/analysis/", replay_pages.where_lost, name="where_lost"),
    path("games/<int:game_id>/export.json", replay_pages.export, name="game_export"),
    path("games/<int:game_id>/continue/", replay_pages.continue_game, name="game_continue"),
    path("games/import/", replay_pages.import_game, name="game_import"),
    path(
        "daily/<slug:game>/<str:date>/solution/", replay_pages.solution_replay, name="daily_solution_replay"
    ),
    path("daily/", views.daily, name="daily"),
    path("daily/archive/", views.daily_archive, name="daily_archive"),
    path("daily/<slug:game>/<str:date>/", views.daily_detail, name="daily_detail"),
    path("daily/<slug:game>/<str:date>/play/", views.play_daily, name="daily_play"),
    path("leaderboards/", stats_pages.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:game>/", stats_pages.rating_board, name="rating_board"),
    path("tables/", table_pages.lobby, name="tables"),
    path("tables/new/", table_pages.create, name="table_create"),
    path("tables/<int:table_id>/", table_pages.table_page, name="table"),
    path("tables/join/<str:key>/", table_pages.join, name="table_join"),
    path("tables/<int:table_id>/sit/", table_pages.sit, name="table_sit"),
    path("tables/<int:table_id>/leave/", table_pages.leave, name="table_leave"),
    path("tables/<int:table_id>/bot/", table_pages.add_bot, name="table_add_bot"),
    path("tables/<int:table_id>/unbot/", table_pages.remove_bot, name="table_remove_bot"),
    path("tables/<int:table_id>/start/", table_pages.start, name="table_start"),
    path("tables/<int:table_id>/rematch/", table_pages.rematch, name="table_rematch"),
    path("invitations/", invitation_views.invitation_list, name="invitations"),
    path("invitations/new/", invitation_views.send, name="invitation_send"),
    path("invitations/<int:invitation_id>/", invitation_views.invitation_page, name="invitation"),
    path("invitations/<int:invitation_id>/accept/", invitation_views.accept, name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline/", invitation_views.decline, name="invitation_decline"),
    path("invitations/<int:invitation_id>/cancel/", invitation_views.cancel, name="invitation_cancel"),
    path("invite/<str:username>/", invitation_views.invite_person, name="invite_person"),
]
