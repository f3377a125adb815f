from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("login/", views.login_view, name="login"),
    # Django's LogoutView only accepts POST, so a link or prefetch can't sign anyone out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
