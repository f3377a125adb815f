"""The dashboard's numbers: progress per split, distributions and human performance."""
import pytest

from annotation.models import SpanQuestion
from annotation.presentation.stats import stats_charts
from annotation.selectors.stats import project_stats
from annotation.services.authoring import question_add, session_start_next, session_submit
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save, second_pass_flag_save
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, answer, submitted_paragraph
from core.charts import chart_spec, chart_view
from mlcore.stats.annotation_stats import binned_counts, human_performance

pytestmark = pytest.mark.django_db


def test_empty_project(project):
    stats = project_stats(project=project)
    assert stats.questions == 0 and stats.unanswerable_share is None and stats.human == ()
    assert [s.split for s in stats.splits] == ["train", "validation", "test"]
    assert all(chart_spec(c)["title"]["text"] for c in stats_charts(stats))


def test_progress_distributions_and_human_performance(project, crowdworker, worker2, instructor):
    paragraph = submitted_paragraph(project, crowdworker)  # validation: 3 questions, 1 unanswerable
    add_paragraphs(project, [EN_CONTEXT], split="train", title="open one")
    session = session_start_next(user=worker2, project=project, kind="second_pass")
    questions = list(SpanQuestion.objects.filter(paragraph=paragraph).order_by("position"))
    # vs the first answers "the Mediterranean Sea", "Khartoum", unanswerable:
    second_pass_answer_save(session=session, user=worker2, question_id=questions[0].pk,
                            answer=answer(EN_CONTEXT, "Mediterranean Sea"))  # EM 1 (article dropped)
    second_pass_answer_save(session=session, user=worker2, question_id=questions[1].pk,
                            answer=answer(EN_CONTEXT, "at Khartoum"))  # F1 2/3
    second_pass_answer_save(session=session, user=worker2, question_id=questions[2].pk,
                            answer=answer(EN_CONTEXT, "Alexandria"))  # 0: it is unanswerable

    stats = project_stats(project=project)
    validation = stats.splits[1]
    assert (validation.paragraphs, validation.done, validation.questions, validation.unanswerable) == (1, 1, 3, 1)
    assert validation.second_pass_answers == 3
    assert (stats.splits[0].paragraphs, stats.splits[0].open) == (1, 1)
    assert stats.unanswerable_share == pytest.approx(1 / 3)
    assert dict(stats.questions_per_paragraph)["3"] == 1
    assert dict(stats.answer_words)["1"] == 1 and dict(stats.answer_words)["3"] == 1  # Khartoum, the Mediterranean Sea
    (human,) = stats.human
    assert (stats.blind_answers, stats.blind_left_out) == (3, 0)
    assert human.n == 3 and human.normalizer == "en"
    assert human.exact == pytest.approx(100 / 3)
    assert human.f1 == pytest.approx(100 * (1 + 2 / 3 + 0) / 3)
    assert human.no_ans_exact == 0.0 and human.has_ans_f1 == pytest.approx(100 * (1 + 2 / 3) / 2)
    titles = [chart_view(f"c{i}", c).title for i, c in enumerate(stats_charts(stats))]
    assert "Human EM/F1 from 3 blind second-pass answers (vs the first answer)" in titles
    assert "Questions per paragraph" in titles


def test_an_accepted_correction_is_never_its_own_authors_reference(project, crowdworker, worker2, instructor):
    """A worker who answers wrongly, then (after the reveal) proposes their own answer as the fix and
    gets it accepted would score EM 1 against themselves: their answer is left out, while another
    worker's blind answer is scored against the corrected reference."""
    paragraph = submitted_paragraph(project, crowdworker)
    sea = SpanQuestion.objects.filter(paragraph=paragraph).order_by("position").first()
    session = session_start_next(user=worker2, project=project, kind="second_pass")
    second_pass_answer_save(session=session, user=worker2, question_id=sea.pk,
                            answer=answer(EN_CONTEXT, "Alexandria"))
    flag = second_pass_flag_save(session=session, user=worker2, question_id=sea.pk, proposal="fix_answer")
    (human,) = project_stats(project=project).human
    assert (human.n, human.exact) == (1, 0.0)  # the open flag changes nothing
    flag_resolve(flag=flag, user=project.owner, accept=True)
    stats = project_stats(project=project)
    assert (stats.human, stats.blind_answers, stats.blind_left_out) == ((), 0, 1)
    other = session_start_next(user=instructor, project=project, kind="second_pass")
    second_pass_answer_save(session=other, user=instructor, question_id=sea.pk,
                            answer=answer(EN_CONTEXT, "Alexandria"))
    stats = project_stats(project=project)
    (human,) = stats.human
    assert (stats.blind_answers, stats.blind_left_out, human.exact) == (1, 1, 100.0)


def test_persian_projects_report_both_normalisers(fa_project, fa_paragraph, crowdworker, worker2):
    from annotation.models import Article

    Article.objects.filter(pk=fa_paragraph.article_id).update(split="validation")
    context = fa_paragraph.context
    session = session_start_next(user=crowdworker, project=fa_project)
    question_add(session=session, user=crowdworker, question="چه چیزی؟",
                 answer=answer(context, "کتاب\u200cخانه\u200cهای تهران"))
    question_add(session=session, user=crowdworker, question="چند کتاب؟", answer=answer(context, "۲ میلیون"))
    session_submit(session=session, user=crowdworker)
    second = session_start_next(user=worker2, project=fa_project, kind="second_pass")
    first, count = SpanQuestion.objects.filter(paragraph=fa_paragraph).order_by("position")
    second_pass_answer_save(session=second, user=worker2, question_id=first.pk,
                            answer=answer(context, "کتاب\u200cخانه\u200cهای"))
    second_pass_answer_save(session=second, user=worker2, question_id=count.pk,
                            answer=answer(context, "۲ میلیون"))
    fa, en = project_stats(project=fa_project).human
    assert (fa.normalizer, en.normalizer) == ("fa", "en")
    # ZWNJ becomes a space under the Persian normaliser (3 of 4 tokens match: F1 6/7); the SQuAD
    # normaliser keeps the compound as one token (1 of 2 tokens: F1 2/3).
    assert fa.has_ans_f1 == pytest.approx(100 * (6 / 7 + 1) / 2)
    assert en.has_ans_f1 == pytest.approx(100 * (2 / 3 + 1) / 2)


def test_human_performance_and_bins_are_pure_functions():
    r = human_performance([(["Denver Broncos"], "Broncos"), ([], ""), (["1066"], "")])
    assert (r.n, r.has_ans_n, r.no_ans_n) == (3, 2, 1)
    assert r.f1 == pytest.approx(55.555556, abs=1e-6)
    assert binned_counts([1, 5, 6, 40], [1, 2, 6]) == (("1", 1), ("2-5", 1), ("6+", 2))
    with pytest.raises(ValueError):
        binned_counts([1], [3, 2])
