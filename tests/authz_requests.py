"""What each route of the authorisation matrix (tests/test_security_authz.py) is requested with.

Valid bodies, queries and uploads, so that a refusal is the access check's and not an input
error's, and the keyword arguments of routes: the world object (``Obj``, tests/authz_world.py)
or literal each names, by route name first, then by argument name.
"""
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.tests.factories import EN_CONTEXT
from collector.tests.factories import question_data
from tests.authz_world import Obj

# Valid bodies and queries, so that a refusal is the access check's and not an input error's.
BODIES = {
    "api:question_submit": {"round_id": "ROUND", **question_data(prompt="Matrix question. It")},
    "api:question_review": {"action": "accept"},
    "api:appeal_submit": {"message": "Please look again."},
    "api:appeal_decide": {"uphold": True},
    "courses_api:course_create": {"name": "Matrix course"},
    "api:round_create": {"name": "matrix-round"},
    "api:training_start": {"name": "matrix-model"},
    "modelhub_api:model_share": {"shared": True},
    "collector:question_review": {"action": "accept"},
    "collector:appeal_submit": {"message": "Please look again."},
    "collector:appeal_decide": {"decision": "uphold"},
    "annotation:flag_resolve": {"decision": "reject"},
    "annotation_api:session_draft": {"draft": {"question": "Which sea"}},
    "annotation_api:question_add": {"question": "Where do the branches meet?",
                                    "answer": {"text": "Khartoum", "answer_start": EN_CONTEXT.index("Khartoum")}},
    "annotation_api:session_discard": {"reason": "hard_to_understand"},
    "annotation_api:second_pass_answer": {"question_id": "FLAGGED_QUESTION", "is_impossible": True},
    "annotation_api:second_pass_flag": {"question_id": "FLAGGED_QUESTION", "proposal": "remove_question"},
    "annotation_api:question_update": {"question": "Which sea is at the Nile's end?", "is_impossible": True},
    "annotation_api:project_create": {"name": "Matrix project"},
    "annotation_api:flag_resolve": {"decision": "reject"},
    "lti_platform_register": {"name": "Matrix LMS", "issuer": "https://lms.example", "client_id": "c1",
                              "deployment_ids": ["d1"], "auth_login_url": "https://lms.example/auth",
                              "auth_token_url": "https://lms.example/token", "key_set_url": "https://lms.example/jwks"},
}
QUERIES = {"collector:round_grades_download": {"format": "csv"}}
# Multipart uploads, made afresh for every request (a file is read once).
UPLOADS = {
    "api:round_import": lambda: {"file": SimpleUploadedFile("q.tsv", b"o\tThe cat sat. It\tslept.\tsang.\tran.\tate.\t0\n")},
    "annotation_api:project_import_articles": lambda: {"file": SimpleUploadedFile(
        "a.jsonl", b'{"title": "Matrix article", "paragraphs": ["' + b"x" * 600 + b'"], "links": []}')},
    "annotation_api:project_import_squad": lambda: {"split": "test", "file": SimpleUploadedFile(
        "s.json", b'{"data": [{"title": "Matrix", "paragraphs": [{"context": "abc", "qas": []}]}]}')},
}

# Keyword arguments of routes: the world object each names (``Obj``) or a literal, by route name
# first, then by argument name.
KWARGS_BY_ROUTE = {
    "evaluation:run_table_csv": {"section": "lexical", "table": "no-such-table"},
    "evaluation_api:run_table_csv": {"section": "lexical", "table": "no-such-table"},
    "api:scoring_run_detail": {"run_id": Obj("scoring_run.pk")},
    "api:scoring_run_cancel": {"run_id": Obj("scoring_run.pk")},
    "api:scoring_run_resume": {"run_id": Obj("scoring_run.pk")},
    "collector:scoring_run_cancel": {"run_id": Obj("scoring_run.pk")},
    "collector:scoring_run_resume": {"run_id": Obj("scoring_run.pk")},
    "annotation_api:question_update": {"question_id": Obj("span_question.pk")},
    "annotation_api:question_delete": {"question_id": Obj("span_question.pk")},
    "annotation:task_start": {"kind": "authoring"},
    "accounts:password_reset_confirm": {"uidb64": "MQ", "token": "not-a-token"},
    "annotation:invite_join": {"token": Obj("project_invite.token")},
    "courses:instructor_invite_join": {"token": Obj("course.instructor_invite_token")},
    "courses:course_staff_remove": {"user_id": Obj("course.owner_id")},  # refused past the access check
    "courses:student_password_reset": {"student_id": Obj("question.author_id")},  # course A's student
    "lti:context_link": {"launch_id": "not-this-sessions-launch"},
    "lti:deep_link": {"launch_id": "not-this-sessions-launch"},
    "annotation:javascript_catalog": {"language": "fa"},
    "javascript_catalog": {"language": "fa"},
    "ws/annotation/projects/<int:project_id>/training/<int:job_id>/": {"job_id": Obj("qa_training_job.pk")},
    "annotation:qa_training_job_status": {"job_id": Obj("qa_training_job.pk")},
}
KWARGS_BY_NAME = {
    "course_id": "course.pk", "round_id": "round.pk", "question_id": "question.pk", "appeal_id": "appeal.pk",
    "run_id": "evaluation_run.pk", "job_id": "training_job.pk", "project_id": "project.pk",
    "evaluation_id": "model_evaluation.pk",
    "session_id": "annotation_session.pk", "paragraph_id": "paragraph.pk", "flag_id": "flag.pk",
    "invite_id": "project_invite.pk",
    "participant_id": "annotation_session.worker_id",  # the crowdworker, a participant of project A
    "platform_id": "platform.pk",
    "model_id": "course_model.pk",
}
