from django.apps import AppConfig


class TalkConfig(AppConfig):
    name = "talk"
    verbose_name = "Chat and reports"
