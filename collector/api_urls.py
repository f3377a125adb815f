from django.urls import path

from collector import apis, validation_apis

app_name = "api"
urlpatterns = [
    path("questions/", apis.QuestionListApi.as_view(), name="question_list"),
    path("questions/submit/", apis.QuestionSubmitApi.as_view(), name="question_submit"),
    path("rounds/<int:round_id>/stats/", apis.RoundStatsApi.as_view(), name="round_stats"),
    # Question quality (collector/validation_apis.py)
    path("validation/next/", validation_apis.ValidationNextApi.as_view(), name="validation_next"),
    path("validation/submit/", validation_apis.ValidationSubmitApi.as_view(), name="validation_submit"),
    path("review/", validation_apis.ReviewQueueApi.as_view(), name="review_queue"),
    path("questions/<int:question_id>/review/", validation_apis.QuestionReviewApi.as_view(), name="question_review"),
    path("questions/<int:question_id>/appeal/", validation_apis.AppealSubmitApi.as_view(), name="appeal_submit"),
    path("appeals/<int:appeal_id>/decide/", validation_apis.AppealDecideApi.as_view(), name="appeal_decide"),
    path("rounds/<int:round_id>/quality/", validation_apis.RoundQualityApi.as_view(), name="round_quality"),
]
