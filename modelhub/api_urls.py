from django.urls import path

from modelhub import apis

app_name = "modelhub_api"
urlpatterns = [
    path("", apis.ModelVersionListApi.as_view(), name="model_list"),
    path("<int:model_id>/share/", apis.ModelVersionShareApi.as_view(), name="model_share"),
]
