from __future__ import annotations

from django.urls import include, path

from players import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.CountedLoginView.as_view(), name="login"),
    path("accounts/profile/visibility/", views.visibility, name="profile_visibility"),
    path("accounts/data.json", views.download, name="account_data"),
    path("accounts/delete/", views.delete, name="delete_account"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("players/<str:username>/", views.profile, name="profile"),
    path("rating/", views.rating_explained, name="rating_explained"),
]
