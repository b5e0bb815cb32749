from django.urls import path

from talk import views

urlpatterns = [
    path("tables/<int:table_id>/chat/", views.table_say, name="table_say"),
    path("tables/<int:table_id>/chat/switch/", views.table_chat_switch, name="table_chat_switch"),
    path("chat/visibility/", views.chat_visibility, name="chat_visibility"),
    path("tournaments/<int:tournament_id>/chat/", views.tournament_say, name="tournament_say"),
    path("tournaments/<int:tournament_id>/chat/log/", views.tournament_chat_log, name="tournament_chat_log"),
]
