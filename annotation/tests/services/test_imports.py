"""Imports: article JSON Lines (PageRank, paragraph window, splits) and SQuAD/PQuAD files, all or nothing."""
import copy
import json

import networkx as nx
import pytest

from annotation.models import Article, Paragraph, SpanAnswer, SpanQuestion
from annotation.selectors.exports import project_squad_dict, project_squad_questions
from annotation.services.imports import articles_import, squad_import
from annotation.tests.factories import make_project
from core.exceptions import ImportFailed
from mlcore.tests.shared_data import shared_data

pytestmark = pytest.mark.django_db


def _article(title, links, n_paragraphs=3, length=600, **extra):
    paragraphs = [f"{title} paragraph {i}. " + "x" * length for i in range(n_paragraphs)]
    return json.dumps({"title": title, "paragraphs": paragraphs, "links": links, **extra}, ensure_ascii=False)


LINKS = {"Iran": ["Tehran", "Persian"], "Tehran": ["Iran"], "Persian": ["Iran", "Tehran"], "Zagros": ["Iran"],
         "Caspian": ["Iran", "Tehran"]}


class ArticlesImportTests:
    def test_ranks_by_pagerank_and_keeps_the_top_articles(self, project):
        lines = [_article(t, links) for t, links in LINKS.items()]
        result = articles_import(project=project, lines=lines, top=3)
        expected = nx.pagerank(nx.DiGraph([(s, t) for s, ts in LINKS.items() for t in ts]), alpha=0.4)
        best = sorted(LINKS, key=lambda t: -expected[t])[:3]
        articles = list(Article.objects.filter(project=project).order_by("rank"))
        assert [a.title for a in articles] == best and result.articles == 3
        assert articles[0].pagerank == pytest.approx(expected[best[0]])
        assert result.paragraphs == Paragraph.objects.count() == 9

    def test_the_paragraph_window_and_per_article_limit(self, project):
        paragraphs = ["short intro", "y" * 600, "z" * 2000, *["w" * 700] * 5]
        line = json.dumps({"title": "A", "paragraphs": paragraphs, "links": []})
        articles_import(project=project, lines=[line], per_article=3, min_chars=500, max_chars=1100)
        assert list(Paragraph.objects.order_by("position").values_list("position", flat=True)) == [1, 3, 4]

    def test_splits_are_per_article(self, owner):
        project = make_project(owner, name="splits", train_ratio=0.5, validation_ratio=0.25, test_ratio=0.25)
        lines = [_article(f"T{i}", [f"T{(i + 1) % 8}"]) for i in range(8)]
        result = articles_import(project=project, lines=lines)
        assert result.splits == {"train": 4, "validation": 2, "test": 2}
        for article in Article.objects.all():
            assert set(article.paragraphs.values_list("article__split", flat=True)) == {article.split}

    def test_infobox_requirement(self, project):
        lines = [_article("A", [], has_infobox=True), _article("B", ["A"], has_infobox=False), _article("C", ["A"])]
        result = articles_import(project=project, lines=lines, require_infobox=True)
        assert list(Article.objects.values_list("title", flat=True)) == ["A"] and result.skipped_infobox == 2

    def test_bad_lines_are_reported_and_nothing_is_stored(self, project):
        lines = [_article("A", []), "{broken", json.dumps({"title": "B", "paragraphs": [1]})]
        with pytest.raises(ImportFailed) as info:
            articles_import(project=project, lines=lines)
        assert [where for where, _ in info.value.errors] == ["line 2", "line 3"]
        assert not Article.objects.exists() and not Paragraph.objects.exists()

    def test_titles_already_in_the_project_are_refused(self, project):
        articles_import(project=project, lines=[_article("A", [])])
        with pytest.raises(ImportFailed, match="already has an article titled 'A'"):
            articles_import(project=project, lines=[_article("B", []), _article("A", [])])
        assert Article.objects.count() == 1


def _squad(qas, context="Paris is the capital of France.", title="France"):
    return {"version": "v2.0", "data": [{"title": title, "paragraphs": [{"context": context, "qas": qas}]}]}


GOOD_QAS = [
    {"question": "What is the capital of France?", "id": "q1",
     "answers": [{"text": "Paris", "answer_start": 0}, {"text": "Paris", "answer_start": 0}], "is_impossible": False},
    {"question": "What is the capital of Spain?", "id": "q2", "answers": [], "is_impossible": True,
     "plausible_answers": [{"text": "Paris", "answer_start": 0}]},
]


class SquadImportTests:
    def test_questions_answers_and_flags_are_stored(self, project):
        result = squad_import(project=project, data=_squad(GOOD_QAS), split="validation")
        assert (result.questions, result.answers, result.unanswerable) == (2, 2, 1)
        q1 = SpanQuestion.objects.get(qid="q1")
        assert q1.source == "imported" and q1.status == "submitted" and q1.paragraph.article.split == "validation"
        assert list(q1.answers.values_list("kind", flat=True)) == [SpanAnswer.Kind.IMPORTED] * 2
        assert Paragraph.objects.get().status == Paragraph.Status.DONE

    @pytest.mark.parametrize(
        ("mutate", "where", "message"),
        [
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][0]["answers"][0].update(answer_start=3),
             "data[0].paragraphs[0].qas[0] (id 'q1').answers[0]", "does not match"),
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][0]["answers"][0].update(answer_start=500),
             "data[0].paragraphs[0].qas[0] (id 'q1').answers[0]", "outside the paragraph"),
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][1].update(id="q1"),
             "data[0].paragraphs[0].qas[1] (id 'q1')", "already used in the file"),
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][0].update(is_impossible=True),
             "data[0].paragraphs[0].qas[0] (id 'q1')", "is_impossible but has answers"),
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][0].update(question=" "),
             "data[0].paragraphs[0].qas[0] (id 'q1')", "question is empty"),
            (lambda d: d["data"][0]["paragraphs"][0].pop("context"), "data[0].paragraphs[0]", '"context" string'),
            (lambda d: d.pop("data"), "top level", '"data" list'),
            (lambda d: d["data"][0]["paragraphs"][0]["qas"][0].update(answers=[], is_impossible=False),
             "data[0].paragraphs[0].qas[0] (id 'q1')", "has no answers"),
        ],
    )
    def test_bad_files_are_refused_with_the_location_and_nothing_stored(self, project, mutate, where, message):
        data = _squad(copy.deepcopy(GOOD_QAS))
        mutate(data)
        with pytest.raises(ImportFailed) as info:
            squad_import(project=project, data=data, split="validation")
        assert any(w == where and message in m for w, m in info.value.errors), info.value.errors
        assert not Article.objects.exists() and not SpanQuestion.objects.exists()

    def test_ids_already_in_the_project_are_refused(self, project):
        squad_import(project=project, data=_squad(GOOD_QAS), split="validation")
        with pytest.raises(ImportFailed, match="already used in the project"):
            squad_import(project=project, data=_squad(GOOD_QAS, title="Other"), split="test")

    def test_repeated_questions_are_kept_with_a_warning(self, project):
        qas = copy.deepcopy(GOOD_QAS)
        qas[1]["question"] = "what is the capital of France? "
        result = squad_import(project=project, data=_squad(qas), split="train")
        assert len(result.warnings) == 1 and "qas[1]" in result.warnings[0]
        assert SpanQuestion.objects.get(qid="q2").question == "what is the capital of France? "  # verbatim

    def test_export_gives_the_file_back(self, project):
        squad_import(project=project, data=_squad(GOOD_QAS), split="validation")
        assert project_squad_dict(project=project, split="validation")["data"] == _squad(GOOD_QAS)["data"]
        assert project_squad_dict(project=project, split="test")["data"] == []
        records = project_squad_questions(project=project)
        assert [q.qid for q in records] == ["q1", "q2"] and records[1].plausible_answers[0].text == "Paris"


def _canonical(data: dict) -> list:
    """Every article, paragraph, question (id, text, every answer, is_impossible) in file order."""
    return [(a["title"], [(p["context"], [(q["id"], q["question"], [(x["text"], x["answer_start"]) for x in q["answers"]],
                                           q.get("is_impossible", not q["answers"]), q.get("plausible_answers", []))
                                          for q in p["qas"]]) for p in a["paragraphs"]]) for a in data["data"]]


def test_pquad_validation_round_trip_keeps_every_question_answer_and_flag(owner):
    original = json.loads(shared_data("pquad", "Validation.json").read_text(encoding="utf-8"))
    project = make_project(owner, name="pquad", language="fa")
    result = squad_import(project=project, data=original, split="validation")
    assert (result.questions, result.answers, result.unanswerable, result.articles) == (7976, 8402, 1981, 120)
    exported = project_squad_dict(project=project, split="validation")
    assert _canonical(exported) == _canonical(original)
    # The exported file parses as SQuAD 2.0 and scores 100 against itself.
    from mlcore.stats.squad_metrics import parse_squad_json, squad_evaluate

    gold = parse_squad_json(exported)
    perfect = {q.qid: (q.answers[0].text if q.answers else "") for q in gold.questions}
    assert squad_evaluate(gold, perfect, normalizer="fa").exact == 100.0


def test_squad2_round_trip_keeps_plausible_answers(owner):
    original = json.loads(shared_data("squad2-subset", "dev-subset-v2.0.json").read_text(encoding="utf-8"))
    project = make_project(owner, name="squad2")
    squad_import(project=project, data=original, split="test")
    assert _canonical(project_squad_dict(project=project)) == _canonical(original)
