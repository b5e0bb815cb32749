from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.edit_profile, name="edit_profile"),
    path("accounts/notices/read/", views.read_notices, name="read_notices"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("u/<str:username>/", views.profile, name="profile"),
]
