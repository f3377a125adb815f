from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import recovery, settings_views, views

app_name = "accounts"
urlpatterns = [
    path("login/", views.login_view, name="login"),
    # Django's LogoutView only accepts POST, so a link or prefetch can't sign anyone out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's password reset and change, with our templates (accounts.recovery sets them up).
    path("password/reset/", recovery.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", recovery.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", recovery.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", recovery.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("password/change/", auth_views.PasswordChangeView.as_view(
        template_name="accounts/password_change_form.html", success_url=reverse_lazy("accounts:password_change_done")),
        name="password_change"),
    path("password/change/done/", recovery.password_change_done, name="password_change_done"),
    path("settings/", settings_views.account_settings, name="settings"),
    path("settings/token/", settings_views.api_token_create, name="api_token_create"),
    path("settings/token/revoke/", settings_views.api_token_revoke, name="api_token_revoke"),
]
