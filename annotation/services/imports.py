"""Importing passages (article JSON Lines) and SQuAD-2.0/PQuAD files into a project.

Both imports check the whole file first and write in one transaction: a file with any
problem is refused with every problem's location and nothing is stored. Imported SQuAD
text is stored verbatim (PQuAD has questions with stray spaces and a few repeated
questions in one paragraph; they are reported as warnings and kept, so an export gives
the file back).
"""
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max

from annotation.inputs import normalize_question_key
from annotation.models import Article, Paragraph, Project, SpanAnswer, SpanQuestion, Split
from core.exceptions import ImportFailed
from core.validators import text_problems
from mlcore.data.passages import ArticleParseError, assign_splits, parse_article_lines, rank_articles, select_paragraphs
from mlcore.data.release.licenses import UnknownSource, merged_source
from mlcore.data.spans import SpanError, check_span


@dataclass(frozen=True)
class ArticleImportResult:
    articles: int
    paragraphs: int
    skipped_no_paragraphs: int
    skipped_infobox: int
    splits: dict[str, int]


def _next_article_position(project: Project) -> int:
    top = project.articles.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


@transaction.atomic
def articles_import(*, project: Project, lines: Iterable[str], damping: float | None = None, top: int | None = None,
                    per_article: int | None = None, min_chars: int | None = None, max_chars: int | None = None,
                    require_infobox: bool = False) -> ArticleImportResult:
    """Rank the file's articles by PageRank and store the top ones' paragraphs as annotation tasks.

    Settings default to the project's (damping 0.4, 20 paragraphs of 500-1100 characters).
    """
    damping = project.pagerank_damping if damping is None else damping
    top = project.top_articles if top is None else top
    per_article = project.paragraphs_per_article if per_article is None else per_article
    min_chars = project.paragraph_min_chars if min_chars is None else min_chars
    max_chars = project.paragraph_max_chars if max_chars is None else max_chars
    try:
        records = parse_article_lines(lines)
        ranked = rank_articles(records, damping=damping)
    except ArticleParseError as error:
        raise ImportFailed([(f"line {line}", message) for line, message in error.errors]) from None
    except ValueError as error:
        raise ImportFailed([("options", str(error))]) from None
    unstorable = [(f"line {r.line}", problem) for r in records
                  for _, problem in text_problems([r.title, *r.paragraphs, *r.links])]
    if unstorable:  # the rule every way in follows (no NUL, no lone surrogate)
        raise ImportFailed(unstorable)
    existing = set(project.articles.filter(title__in=[r.title for r in records]).values_list("title", flat=True))
    if existing:
        raise ImportFailed([(f"line {r.line}", f"the project already has an article titled {r.title!r}")
                            for r in records if r.title in existing])
    eligible = [r for r in ranked if r.record.has_infobox or not require_infobox]
    kept, skipped_empty = [], 0
    for ranked_article in eligible[:top]:
        chosen = select_paragraphs(ranked_article.record.paragraphs, min_chars=min_chars, max_chars=max_chars,
                                   limit=per_article)
        if chosen:
            kept.append((ranked_article, chosen))
        else:
            skipped_empty += 1
    splits = assign_splits([r.record.title for r, _ in kept], _ratios(project), seed=project.split_seed)
    start = _next_article_position(project)
    articles = Article.objects.bulk_create([
        Article(project=project, title=r.record.title, split=splits[r.record.title], pagerank=r.pagerank, rank=r.rank,
                has_infobox=r.record.has_infobox, position=start + i)
        for i, (r, _) in enumerate(kept)
    ])
    paragraphs = [Paragraph(article=article, position=position, context=text)
                  for article, (_, chosen) in zip(articles, kept, strict=True) for position, text in chosen]
    Paragraph.objects.bulk_create(paragraphs)
    return ArticleImportResult(
        articles=len(articles), paragraphs=len(paragraphs), skipped_no_paragraphs=skipped_empty,
        skipped_infobox=len(ranked) - len(eligible),
        splits={s: list(splits.values()).count(s) for s in Split.values},
    )


def _ratios(project: Project) -> dict[str, float]:
    return {"train": project.train_ratio, "validation": project.validation_ratio, "test": project.test_ratio}


# --------------------------------------------------------------------------- SQuAD files
@dataclass
class _ParsedQuestion:
    qid: str
    question: str
    is_impossible: bool
    answers: list[tuple[str, int]]
    plausible: list[dict]


@dataclass
class _ParsedParagraph:
    context: str
    questions: list[_ParsedQuestion] = field(default_factory=list)


@dataclass(frozen=True)
class SquadImportResult:
    articles: int
    paragraphs: int
    questions: int
    answers: int
    unanswerable: int
    warnings: tuple[str, ...]


class _SquadReader:
    """Walks a parsed SQuAD object collecting records, errors and warnings with their JSON paths."""

    def __init__(self, taken_ids: set[str], taken_titles: set[str]) -> None:
        self.errors: list[tuple[str, str]] = []
        self.warnings: list[str] = []
        self.ids: set[str] = set()
        self.taken_ids, self.taken_titles = taken_ids, taken_titles
        self.articles: list[tuple[str, list[_ParsedParagraph]]] = []

    def read(self, obj: Any) -> None:
        if not isinstance(obj, Mapping) or not isinstance(obj.get("data"), list):
            self.errors.append(("top level", 'expected an object with a "data" list (SQuAD 2.0 layout)'))
            return
        titles: dict[str, str] = {}
        for i, article in enumerate(obj["data"]):
            where = f"data[{i}]"
            if not isinstance(article, Mapping) or not isinstance(article.get("paragraphs"), list):
                self.errors.append((where, 'expected an object with a "paragraphs" list'))
                continue
            title = article.get("title", "")
            if not isinstance(title, str) or len(title) > 300:
                self.errors.append((where, '"title" must be a string of at most 300 characters'))
                continue
            if title in titles:
                self.errors.append((where, f"title {title!r} already used by {titles[title]}"))
            elif title in self.taken_titles:
                self.errors.append((where, f"the project already has an article titled {title!r}"))
            titles.setdefault(title, where)
            paragraphs = [self.paragraph(p, f"{where}.paragraphs[{j}]") for j, p in enumerate(article["paragraphs"])]
            self.articles.append((title, [p for p in paragraphs if p is not None]))
        if not self.articles and not self.errors:
            self.errors.append(("data", "the file has no articles"))

    def paragraph(self, raw: Any, where: str) -> _ParsedParagraph | None:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("context"), str) or not isinstance(raw.get("qas"), list):
            self.errors.append((where, 'expected an object with a "context" string and a "qas" list'))
            return None
        if not raw["context"].strip():
            self.errors.append((where, "the context is empty"))
            return None
        parsed, seen = _ParsedParagraph(raw["context"]), set()
        for k, qa in enumerate(raw["qas"]):
            question = self.question(qa, raw["context"], f"{where}.qas[{k}]")
            if question is None:
                continue
            key = normalize_question_key(question.question)
            if key in seen:
                self.warnings.append(f"{where}.qas[{k}] (id {question.qid!r}): the same question appears twice "
                                     "in this paragraph (kept)")
            seen.add(key)
            parsed.questions.append(question)
        return parsed

    def spans(self, raw: Any, context: str, where: str, name: str) -> list[tuple[str, int]] | None:
        if not isinstance(raw, list):
            self.errors.append((where, f'"{name}" must be a list'))
            return None
        out = []
        for n, answer in enumerate(raw):
            if not isinstance(answer, Mapping) or "text" not in answer or "answer_start" not in answer:
                self.errors.append((f"{where}.{name}[{n}]", 'every answer needs "text" and "answer_start"'))
                return None
            try:
                span = check_span(context, answer["text"], answer["answer_start"])
            except SpanError as error:
                self.errors.append((f"{where}.{name}[{n}]", str(error)))
                return None
            out.append((span.text, span.start))
        return out

    def question(self, qa: Any, context: str, where: str) -> _ParsedQuestion | None:
        if not isinstance(qa, Mapping) or not isinstance(qa.get("id"), (str, int)) or isinstance(qa.get("id"), bool):
            self.errors.append((where, 'expected an object with an "id"'))
            return None
        qid = str(qa["id"])
        where = f"{where} (id {qid!r})"
        if not qid or len(qid) > 64:
            self.errors.append((where, "the id must have 1 to 64 characters"))
            return None
        if qid in self.ids or qid in self.taken_ids:
            self.errors.append((where, "this id is already used " + ("in the file" if qid in self.ids else "in the project")))
            return None
        self.ids.add(qid)
        text = qa.get("question")
        if not isinstance(text, str) or not text.strip():
            self.errors.append((where, "the question is empty"))
            return None
        answers = self.spans(qa.get("answers", []), context, where, "answers")
        plausible = self.spans(qa.get("plausible_answers", []), context, where, "plausible_answers")
        if answers is None or plausible is None:
            return None
        impossible = qa.get("is_impossible", not answers)
        if not isinstance(impossible, bool):
            self.errors.append((where, '"is_impossible" must be true or false'))
            return None
        if impossible and answers:
            self.errors.append((where, "the question is marked is_impossible but has answers"))
            return None
        if not impossible and not answers:
            self.errors.append((where, "the question is answerable (is_impossible false) but has no answers"))
            return None
        plausible_json = [{"text": t, "answer_start": s} for t, s in plausible]
        return _ParsedQuestion(qid, text, impossible, answers, plausible_json)


@transaction.atomic
def squad_import(*, project: Project, data: Any, split: str, source_dataset: str = "",
                 source_license: str = "") -> SquadImportResult:
    """Store a SQuAD-2.0/PQuAD file (ids, questions, every answer, ``is_impossible``) in ``split``.

    ``source_dataset`` (a Hub id: ``squad_v2``, ``pquad``, ...) and ``source_license`` are recorded on
    the project for its dataset release; nothing is guessed from the file, whose format Stumper's own
    exports share (blank: nothing recorded, and the release asks).
    """
    if split not in Split.values:
        raise ImportFailed([("options", f"unknown split {split!r}; use train, validation or test")])
    try:
        source = merged_source((project.source_dataset, project.source_license), source_dataset, source_license)
    except UnknownSource as error:
        raise ImportFailed([("options", str(error))]) from None
    taken_ids = set(SpanQuestion.objects.filter(project=project).values_list("qid", flat=True))
    taken_titles = set(project.articles.values_list("title", flat=True))
    unstorable = text_problems(data)  # the rule every way in follows (no NUL, no lone surrogate)
    if unstorable:
        raise ImportFailed(unstorable)
    reader = _SquadReader(taken_ids, taken_titles)
    reader.read(data)
    if reader.errors:
        raise ImportFailed(reader.errors)
    start = _next_article_position(project)
    articles = Article.objects.bulk_create([
        Article(project=project, title=title, split=split, position=start + i)
        for i, (title, _) in enumerate(reader.articles)
    ])
    paragraph_rows, parsed_paragraphs = [], []
    for article, (_, paragraphs) in zip(articles, reader.articles, strict=True):
        for position, parsed in enumerate(paragraphs):
            status = Paragraph.Status.DONE if parsed.questions else Paragraph.Status.OPEN
            paragraph_rows.append(Paragraph(article=article, position=position, context=parsed.context, status=status))
            parsed_paragraphs.append(parsed)
    paragraph_rows = Paragraph.objects.bulk_create(paragraph_rows)
    question_rows, parsed_questions = [], []
    for paragraph, parsed in zip(paragraph_rows, parsed_paragraphs, strict=True):
        for position, q in enumerate(parsed.questions):
            question_rows.append(SpanQuestion(
                project=project, paragraph=paragraph, qid=q.qid, question=q.question, is_impossible=q.is_impossible,
                status=SpanQuestion.Status.SUBMITTED, source=SpanQuestion.Source.IMPORTED, position=position,
                plausible_answers=q.plausible,
            ))
            parsed_questions.append(q)
    question_rows = SpanQuestion.objects.bulk_create(question_rows, batch_size=500)
    answer_rows = [
        SpanAnswer(question=question, text=text, answer_start=start, kind=SpanAnswer.Kind.IMPORTED, position=n)
        for question, q in zip(question_rows, parsed_questions, strict=True) for n, (text, start) in enumerate(q.answers)
    ]
    SpanAnswer.objects.bulk_create(answer_rows, batch_size=1000)
    if source is not None and not project.source_dataset:
        project.source_dataset, project.source_license = source
        project.save(update_fields=["source_dataset", "source_license"])
    return SquadImportResult(
        articles=len(articles), paragraphs=len(paragraph_rows), questions=len(question_rows), answers=len(answer_rows),
        unanswerable=sum(q.is_impossible for q in parsed_questions), warnings=tuple(reader.warnings),
    )
