from django.urls import path

from lti import apis

urlpatterns = [
    path("platforms/", apis.PlatformListApi.as_view(), name="lti_platform_list"),
    path("platforms/register/", apis.PlatformRegisterApi.as_view(), name="lti_platform_register"),
    path("platforms/<int:platform_id>/update/", apis.PlatformUpdateApi.as_view(), name="lti_platform_update"),
    path("platforms/<int:platform_id>/delete/", apis.PlatformDeleteApi.as_view(), name="lti_platform_delete"),
]
