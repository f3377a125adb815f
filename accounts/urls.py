from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import settings_views, views

app_name = "accounts"
urlpatterns = [
    path("login/", views.login_view, name="login"),
    # Django's LogoutView only accepts POST, so a link or prefetch can't sign anyone out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", settings_views.account_settings, name="settings"),
    path("settings/token/", settings_views.api_token_create, name="api_token_create"),
    path("settings/token/revoke/", settings_views.api_token_revoke, name="api_token_revoke"),
]
