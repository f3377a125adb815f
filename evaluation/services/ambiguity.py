"""The QA ambiguity probes (SPEC-bias §4, Mao et al. 2021) on files, passages or a project.

* Selectional ambiguity: a QA model (a registered ``question_answering`` model or a checkpoint
  folder) answers the gendered "Who discovered the X" questions, or its answers come from a
  predictions file; recall per gender and the chi-squared / Fisher test.
* Retrieval ambiguity: BM25 (or dense MiniLM) retrieves the top k passages for
  "Who was a(n) <occupation>?"; passage subjects' genders, the goodness of fit against the
  share of women on Wikipedia, the disparity per occupation and, with a reader, propagation.

Nothing is written to the database: these services read files and the ORM, run the pure
probes of :mod:`mlcore.bias.ambiguity` / :mod:`mlcore.bias.retrieval` and return their results, which
:mod:`evaluation.reports.ambiguity` turns into JSON and report sections. Every bad input
raises :class:`AmbiguityInputError` with a message naming the file and line.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from django.conf import settings

from annotation.models import Project
from core.exceptions import AccessError
from evaluation.reports.ambiguity import (
    SelectionalProbe,
    retrieval_section,
    retrieval_unavailable,
    selectional_section,
    selectional_unavailable,
)
from evaluation.selectors import ambiguity as ambiguity_selectors
from mlcore.bias.ambiguity import (
    WIKIPEDIA_FEMALE_SHARE,
    AmbiguityQuestion,
    UnqoverOccupation,
    selectional_recall,
)
from mlcore.bias.ambiguity_data import (
    parse_ambiguity_jsonl,
    parse_ambiguity_predictions,
    parse_unqover_occupations,
    unqover_occupations,
)
from mlcore.bias.gender import GenderGuesserLookup, GenderLookup, read_name_lexicon
from mlcore.bias.retrieval import Passage, QAModelReader, RetrievalProbeResult, compare_scripts, retrieval_probe
from mlcore.bias.retrievers import BM25Retriever, DenseRetriever
from mlcore.data.passages import ArticleParseError, parse_article_lines
from mlcore.models.loading import ModelLoadError
from mlcore.models.qa import ExtractiveQAModel, QAExample, QASpec, load_qa_model
from modelhub.models import ModelVersion

Progress = Callable[[int, int, str], None]
#: Questions answered per model call in the selectional probe (one progress step each).
PREDICT_CHUNK = 16
RETRIEVAL_K = 100


class AmbiguityInputError(ValueError):
    """A probe input (file, model name, project) is unusable; the message says which and why."""


class ScriptMismatchError(AmbiguityInputError):
    """The occupation list and the passages are written in different scripts: nothing can match."""


def _no_progress(done: int, total: int, stage: str) -> None:
    return None


# --------------------------------------------------------------------------- inputs
def qa_spec_resolve(*, model: str) -> QASpec:
    """A registered ``question_answering`` model by name, else a checkpoint folder at that path."""
    version = ambiguity_selectors.model_version_by_name(name=model)
    if version is not None:
        return qa_spec_of(version)
    if model.strip() and Path(model).expanduser().is_dir():
        return QASpec(path=str(Path(model).expanduser()), name=Path(model).name)
    raise AmbiguityInputError(
        f"Unknown model {model!r}: no registered model has that name and no checkpoint folder is at that path."
    )


def qa_spec_of(version: ModelVersion) -> QASpec:
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise AmbiguityInputError(
            f"Model {version.name!r} is of kind {version.kind}; the ambiguity probes need an extractive "
            f"question-answering model (kind {ModelVersion.Kind.QUESTION_ANSWERING})."
        )
    return QASpec(path=version.path, name=version.name, revision=version.revision)


def _qa_model(spec: QASpec) -> ExtractiveQAModel:
    try:
        return load_qa_model(spec)
    except ModelLoadError as error:
        raise AmbiguityInputError(str(error)) from None


def _read_text(path: str | Path, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise AmbiguityInputError(f"Cannot read the {what} {path}: {reason}") from None


def questions_parse(*, text: str, source: str) -> tuple[AmbiguityQuestion, ...]:
    """Selectional-ambiguity questions from JSON Lines text; errors name ``source`` and the line."""
    try:
        questions = parse_ambiguity_jsonl(text)
    except ValueError as error:
        raise AmbiguityInputError(f"{source}: {error}") from None
    if not questions:
        raise AmbiguityInputError(f"{source}: the file has no questions")
    return questions


def questions_read(*, path: str | Path) -> tuple[AmbiguityQuestion, ...]:
    """The selectional-ambiguity questions of a JSON Lines file (format of ``shared/data/ambiguity``)."""
    return questions_parse(text=_read_text(path, "questions file"), source=str(path))


def predictions_read(*, path: str | Path) -> dict[str, str]:
    """Answers from a file: one JSON object id -> answer, or JSON Lines ``{"id", "prediction"}``."""
    try:
        return parse_ambiguity_predictions(_read_text(path, "predictions file"))
    except ValueError as error:
        raise AmbiguityInputError(f"{path}: {error}") from None


def occupations_parse(*, text: str, source: str) -> tuple[UnqoverOccupation, ...]:
    """Occupations in UnQover's ``activities/occupation_rev1`` format, in any language."""
    try:
        return parse_unqover_occupations(text, source=source)
    except ValueError as error:
        raise AmbiguityInputError(str(error)) from None


def occupations_read(*, path: str | Path) -> tuple[UnqoverOccupation, ...]:
    """Occupations from a file in UnQover's ``activities/occupation_rev1`` format."""
    return occupations_parse(text=_read_text(path, "occupations file"), source=str(path))


def passages_read(*, path: str | Path) -> list[Passage]:
    """Passages from an article file in the annotation import format (``{"title", "paragraphs"}`` lines)."""
    try:
        articles = parse_article_lines(_read_text(path, "passages file").splitlines())
    except ArticleParseError as error:
        raise AmbiguityInputError(f"{path}: {error}") from None
    return [Passage(f"{a.title}#{i}", a.title, text) for a in articles for i, text in enumerate(a.paragraphs)
            if text.strip()]


def gender_lookup(*, names: Sequence[str | Path] = (), include_mostly: bool = False) -> GenderLookup:
    """gender-guesser by default; names files (UnQover ``[subj] female | Mary`` lines or ``Mary,female``) instead."""
    if not names:
        return GenderGuesserLookup(include_mostly=include_mostly)
    try:
        return read_name_lexicon(*names)
    except ValueError as error:
        raise AmbiguityInputError(str(error)) from None


# --------------------------------------------------------------------------- selectional ambiguity
def model_answers(*, model: ExtractiveQAModel, questions: Sequence[AmbiguityQuestion],
                  progress: Progress | None = None) -> dict[str, str]:
    """The model's single answer per question (``""`` when it abstains), in chunks for the progress bar."""
    report = progress or _no_progress
    answers: dict[str, str] = {}
    for start in range(0, len(questions), PREDICT_CHUNK):
        report(start, len(questions), "Answering the selectional-ambiguity questions")
        chunk = questions[start:start + PREDICT_CHUNK]
        for q, prediction in zip(chunk, model.predict([QAExample(q.question, q.context) for q in chunk])):
            answers[str(q.id)] = prediction.text
    report(len(questions), len(questions), "Answered")
    return answers


def ambiguity_selectional(
    *,
    questions: Sequence[AmbiguityQuestion],
    qa_spec: QASpec | None = None,
    predictions: Mapping[str, str] | None = None,
    match: str = "fraction",
    tau: float = 0.5,
    progress: Progress | None = None,
) -> SelectionalProbe:
    """Run the selectional probe with a QA model (``qa_spec``) or given ``predictions`` (exactly one)."""
    if (qa_spec is None) == (predictions is None):
        raise AmbiguityInputError("Give either a QA model or a predictions file, not both or neither.")
    if predictions is not None:
        known = {str(q.id) for q in questions}
        extra = sorted(set(predictions) - known, key=lambda k: (len(k), k))
        missing = sorted(known - set(predictions), key=lambda k: (len(k), k))
        if extra or missing:
            parts = ([f"ids not in the questions file: {', '.join(extra[:10])}"] if extra else []) + \
                    ([f"no answer for question(s) {', '.join(missing[:10])}"] if missing else [])
            raise AmbiguityInputError("The predictions do not match the questions: " + "; ".join(parts) + ".")
        answers, source, name, revision = dict(predictions), "predictions file", "", ""
    else:
        model = _qa_model(qa_spec)
        answers = model_answers(model=model, questions=questions, progress=progress)
        source, name, revision = "model", model.spec.name, model.revision_
    try:
        result = selectional_recall(questions, answers, tau=tau, match=match)  # type: ignore[arg-type]
    except ValueError as error:
        raise AmbiguityInputError(str(error)) from None
    return SelectionalProbe(result, answers, source, name, revision, match, tau)


def ambiguity_selectional_files(
    *, questions_path: str | Path, model: str | None = None, predictions_path: str | Path | None = None,
    match: str = "fraction", tau: float = 0.5, progress: Progress | None = None,
) -> SelectionalProbe:
    """The ``ambiguity_selectional`` command: files in, probe result out (model or predictions file)."""
    questions = questions_read(path=questions_path)
    if (model is None) == (predictions_path is None):
        raise AmbiguityInputError("Give either --model or --predictions.")
    predictions = predictions_read(path=predictions_path) if predictions_path is not None else None
    spec = qa_spec_resolve(model=model) if model is not None else None
    return ambiguity_selectional(questions=questions, qa_spec=spec, predictions=predictions, match=match, tau=tau,
                                 progress=progress)


# --------------------------------------------------------------------------- retrieval ambiguity
def ambiguity_retrieval(
    *,
    passages: Sequence[Passage],
    occupations: Sequence[UnqoverOccupation] | None = None,
    k: int = RETRIEVAL_K,
    baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE,
    dense: bool = False,
    reader: QASpec | None = None,
    lookup: GenderLookup | None = None,
    progress: Progress | None = None,
) -> RetrievalProbeResult:
    """The retrieval probe over given passages (title + text); no database needed.

    ``occupations`` default to UnQover's 70 (English); ``lookup`` to gender-guesser. ``dense`` loads
    the packaged MiniLM and ``reader`` a QA model: both are model-heavy, BM25 alone is not.
    :class:`ScriptMismatchError` when the occupations and the passages are in different scripts.
    """
    if not passages:
        raise AmbiguityInputError("There are no passages to search.")
    if not 1 <= k <= 10_000:
        raise AmbiguityInputError(f"k must be between 1 and 10000, got {k}.")
    if not 0.0 < baseline_female_share < 1.0:
        raise AmbiguityInputError(f"The baseline share of women must be between 0 and 1, got {baseline_female_share}.")
    occupations = unqover_occupations() if occupations is None else occupations
    scripts = compare_scripts(passages, occupations)
    if not scripts.shared:
        raise ScriptMismatchError(
            f"The occupation list is written in {scripts.occupations} script but the passages are in "
            f"{scripts.passages} script, so no occupation can be found in them and every count would be 0. "
            f"Use an occupation list in the passages' language (UnQover format, one '[p_act] <occupation>' "
            f"line each)."
        )
    qa_reader = QAModelReader(_qa_model(reader)) if reader is not None else None
    try:
        return retrieval_probe(
            passages, occupations,
            retriever=DenseRetriever() if dense else BM25Retriever(), lookup=lookup or GenderGuesserLookup(),
            k=k, baseline_female_share=baseline_female_share, reader=qa_reader, progress=progress,
        )
    except ModelLoadError as error:  # the packaged MiniLM of --dense
        raise AmbiguityInputError(str(error)) from None
    except ValueError as error:
        raise AmbiguityInputError(str(error)) from None


def ambiguity_retrieval_files(
    *, occupations_path: str | Path, project: str | None = None, passages_path: str | Path | None = None,
    k: int = RETRIEVAL_K, baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE, dense: bool = False,
    reader: str | None = None, names: Sequence[str | Path] = (), include_mostly: bool = False,
    progress: Progress | None = None,
) -> RetrievalProbeResult:
    """The ``ambiguity_retrieval`` command: a project's passages (or a passages file) and an occupations file."""
    if (project is None) == (passages_path is None):
        raise AmbiguityInputError("Give either --project or --passages.")
    occupations = occupations_read(path=occupations_path)
    lookup = gender_lookup(names=names, include_mostly=include_mostly)
    reader_spec = qa_spec_resolve(model=reader) if reader is not None else None
    if project is not None:
        try:
            passages = ambiguity_selectors.project_passages(project=ambiguity_selectors.project_by_name(name=project))
        except AccessError as error:
            raise AmbiguityInputError(error.message) from None
        if not passages:
            raise AmbiguityInputError(f"Project {project!r} has no passages yet (import articles first).")
    else:
        passages = passages_read(path=passages_path)
    return ambiguity_retrieval(passages=passages, occupations=occupations, k=k,
                               baseline_female_share=baseline_female_share, dense=dense, reader=reader_spec,
                               lookup=lookup, progress=progress)


# --------------------------------------------------------------------------- report sections
def ambiguity_selectional_section(*, model_version: ModelVersion | None, questions: Sequence[AmbiguityQuestion] | None = None,
                                  source: str = "", progress: Progress | None = None) -> dict | None:
    """The report section over ``questions`` (a project's chosen set, named by ``source``), else over
    the server's default file (STUMPER_AMBIGUITY_QUESTIONS); ``None`` when there is neither."""
    if questions is None:
        path = getattr(settings, "STUMPER_AMBIGUITY_QUESTIONS", "")
        if not path:
            return None
        questions, source = questions_read(path=path), f"the server's question set ({Path(path).name})"
    if model_version is None or model_version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        return selectional_unavailable("This probe needs an extractive question-answering model; the report has none.")
    probe = ambiguity_selectional(questions=questions, qa_spec=qa_spec_of(model_version), progress=progress)
    return selectional_section(probe, source=source)


def ambiguity_retrieval_section(
    *, model_version: ModelVersion | None, project: Project | None = None,
    passages: Sequence[Passage] | None = None, occupations: Sequence[UnqoverOccupation] | None = None,
    source: str = "", progress: Progress | None = None,
) -> dict | None:
    """The report section over a project's passages (or given ones); ``None`` without either.

    ``occupations`` (named by ``source``) default to UnQover's 70 English titles. A
    ``question_answering`` ``model_version`` also reads the retrieved passages (§4.3). When the
    occupations and the passages are in different scripts the section says so instead of a chart.
    """
    if passages is None:
        if project is None:
            return None
        passages = ambiguity_selectors.project_passages(project=project)
    if not passages:
        return retrieval_unavailable("The project has no passages yet.")
    reader = (qa_spec_of(model_version) if model_version is not None
              and model_version.kind == ModelVersion.Kind.QUESTION_ANSWERING else None)
    try:
        result = ambiguity_retrieval(passages=passages, occupations=occupations, reader=reader, progress=progress)
    except ScriptMismatchError as error:
        return retrieval_unavailable(f"{error} Upload one in the report form (or by the API) and start a new report.")
    return retrieval_section(result, source=source or "UnQover's 70 English occupations")
