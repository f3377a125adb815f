from django.urls import path

from collector import apis

app_name = "api"
urlpatterns = [
    path("questions/", apis.QuestionListApi.as_view(), name="question_list"),
    path("questions/submit/", apis.QuestionSubmitApi.as_view(), name="question_submit"),
    path("rounds/<int:round_id>/stats/", apis.RoundStatsApi.as_view(), name="round_stats"),
]
