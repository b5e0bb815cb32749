from django.urls import path

from talk import report_views

urlpatterns = [
    path("u/<str:username>/report/", report_views.report_person, name="report_person"),
    path("talk/messages/<int:message_id>/report/", report_views.report_message, name="report_message"),
]
