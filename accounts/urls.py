from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import block_views, friend_views, turn_views, views
from accounts.closing_views import account_data, close_account
from accounts.forms import LoginForm, PasswordResetForm

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.edit_profile, name="edit_profile"),
    path("accounts/notices/read/", views.read_notices, name="read_notices"),
    path("accounts/close/", close_account, name="close_account"),
    path("accounts/data/", account_data, name="account_data"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm, redirect_authenticated_user=True),
        name="login",
    ),
    # Without the sites framework Django names the site by the request's host ("Reset your
    # 127.0.0.1:8000 password"); the mail names Capstone, its link still uses the host.
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(
            form_class=PasswordResetForm, extra_email_context={"site_name": settings.SITE_NAME}
        ),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("u/<str:username>/", views.profile, name="profile"),
    path("u/<str:username>/ratings/", views.ratings, name="profile_ratings"),
    path("u/<str:username>/follow/", friend_views.follow, name="follow"),
    path("u/<str:username>/unfollow/", friend_views.unfollow, name="unfollow"),
    path("u/<str:username>/followers/", friend_views.followers, name="followers"),
    path("u/<str:username>/following/", friend_views.following, name="following"),
    path("u/<str:username>/block/", block_views.block, name="block"),
    path("u/<str:username>/unblock/", block_views.unblock, name="unblock"),
    path("accounts/blocked/", block_views.blocked_list, name="blocked_people"),
    path("friends/", friend_views.friends, name="friends"),
    path("turns/", turn_views.your_turn, name="your_turn"),
]
