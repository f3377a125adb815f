"""What the ambiguity probes of a project's report run on: uploaded sets, the owner's choice, the sections.

A project owner uploads selectional-ambiguity questions (JSON Lines) or an occupation list (UnQover
format, in the passages' language) in the report form or by the API; each upload is validated
whole (errors name the line) before anything is saved. When a report starts, the owner's choice
is stored in its snapshot (``snapshot["ambiguity"]``):

* questions: an uploaded set, ``"none"`` (skip the probe), or absent = the server's default file
  (``STUMPER_AMBIGUITY_QUESTIONS``);
* occupations: an uploaded list, or absent = UnQover's 70 English occupations.

Left blank, the choice is the project's newest upload of that kind, else the default.
:func:`ambiguity_sections` computes the two probe sections of a run from that snapshot.
"""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import Project
from core.validators import text_problem
from evaluation.models import AmbiguityDataset, EvaluationRun
from evaluation.reports.sections import check_section, unavailable
from evaluation.selectors.ambiguity_datasets import ambiguity_dataset_get, ambiguity_datasets
from evaluation.services import ambiguity as ambiguity_services
from mlcore.bias.ambiguity_data import dominant_script
from modelhub.models import ModelVersion

logger = logging.getLogger(__name__)

QUESTIONS, OCCUPATIONS = AmbiguityDataset.Kind.QUESTIONS, AmbiguityDataset.Kind.OCCUPATIONS
SERVER, NONE, UNQOVER = "server", "none", "unqover"
#: The form and API field of each kind's choice.
CHOICE_FIELD = {QUESTIONS: "ambiguity_questions", OCCUPATIONS: "occupations"}
TITLES = {
    "ambiguity_selectional": "Selectional ambiguity: recall of names per gender",
    "ambiguity_retrieval": "Retrieval ambiguity: gender of retrieved passages per occupation",
}
Progress = Callable[[str, float], None]


@dataclass(frozen=True)
class Upload:
    """An uploaded file: its name and raw bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class CheckedDataset:
    text: str
    items: int
    script: str


# --------------------------------------------------------------------------- uploads
def ambiguity_dataset_check(*, kind: str, upload: Upload) -> CheckedDataset:
    """Decode and parse an upload whole; a ValidationError names the file and the first bad line."""
    field = f"{CHOICE_FIELD[kind]}_file"
    if len(upload.data) > settings.STUMPER_IMPORT_MAX_BYTES:
        raise ValidationError({field: f"{upload.name} is larger than {settings.STUMPER_IMPORT_MAX_BYTES} bytes."})
    try:
        text = upload.data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError({field: f"{upload.name} is not UTF-8 text (byte {error.start})."}) from None
    problem = text_problem(text)  # the rule every way in follows: the file is stored as text
    if problem is not None:
        raise ValidationError({field: f"{upload.name}: {problem}"})
    try:
        if kind == QUESTIONS:
            questions = ambiguity_services.questions_parse(text=text, source=upload.name)
            return CheckedDataset(text, len(questions), "")
        occupations = ambiguity_services.occupations_parse(text=text, source=upload.name)
    except ambiguity_services.AmbiguityInputError as error:
        raise ValidationError({field: str(error)}) from None
    return CheckedDataset(text, len(occupations), dominant_script(o.occupation for o in occupations))


def ambiguity_dataset_create(*, project: Project, kind: str, upload: Upload, user: User | None = None
                             ) -> AmbiguityDataset:
    """Store a validated upload (the same content uploaded again returns the stored one)."""
    checked = ambiguity_dataset_check(kind=kind, upload=upload)
    digest = hashlib.sha256(checked.text.encode("utf-8")).hexdigest()
    existing = AmbiguityDataset.objects.filter(project=project, kind=kind, sha256=digest).first()
    if existing is not None:
        return existing
    dataset = AmbiguityDataset(project=project, kind=kind, name=upload.name[:200] or kind, content=checked.text,
                               sha256=digest, items=checked.items, script=checked.script, created_by=user)
    dataset.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            dataset.save()
    except IntegrityError:  # the same file, uploaded at the same moment by another request
        return AmbiguityDataset.objects.get(project=project, kind=kind, sha256=digest)
    return dataset


# --------------------------------------------------------------------------- the choice at start
def _chosen(*, project: Project, kind: str, value: str | int | None) -> dict | str | None:
    """One kind's snapshot entry: a dataset's provenance, ``"none"``, or ``None`` for the default."""
    value = "" if value is None else str(value).strip()
    defaults = {QUESTIONS: (SERVER, NONE), OCCUPATIONS: (UNQOVER,)}[kind]
    if value in defaults:
        return NONE if value == NONE else None
    if value:
        dataset = ambiguity_datasets(project=project, kind=kind).filter(pk=int(value)).first() if value.isdigit() else None
        if dataset is None:
            raise ValidationError({CHOICE_FIELD[kind]: f"Choose {', '.join(repr(d) for d in defaults)} or the id of "
                                                       f"one of this project's uploads, not {value!r}."})
    else:  # blank: the newest upload of the project, else the default
        dataset = ambiguity_datasets(project=project, kind=kind).first()
        if dataset is None:
            return None
    return {"dataset_id": dataset.pk, "name": dataset.name, "sha256": dataset.sha256, "items": dataset.items}


def selectional_requirement(*, project: Project) -> str:
    """Why the selectional probe cannot run for ``project`` (empty when it can): it asks the
    project's model in the loop, which must be an extractive question-answering model."""
    model = project.qa_model
    if model is not None and model.kind == ModelVersion.Kind.QUESTION_ANSWERING:
        return ""
    return _("The selectional-ambiguity probe needs an extractive question-answering model as the project's "
             "model in the loop, and this project has none: choose one in the project's settings first.")


def selectional_requirement_check(*, project: Project, questions: str | int | None = None,
                                  upload: Upload | None = None) -> None:
    """Refuse a question set (uploaded, or chosen other than "none" or the default) that the probe
    could not use, before anything is stored."""
    reason = selectional_requirement(project=project)
    if not reason:
        return
    if upload is not None:
        raise ValidationError({"ambiguity_questions_file": reason})
    if questions is not None and str(questions).strip() not in ("", NONE):
        raise ValidationError({CHOICE_FIELD[QUESTIONS]: reason})


def ambiguity_choice_clean(*, project: Project, questions: str | int | None = None,
                           occupations: str | int | None = None) -> dict:
    """The ``snapshot["ambiguity"]`` of a new report (only the entries that differ from the defaults)."""
    chosen = {"questions": _chosen(project=project, kind=QUESTIONS, value=questions),
              "occupations": _chosen(project=project, kind=OCCUPATIONS, value=occupations)}
    return {key: value for key, value in chosen.items() if value is not None}


# --------------------------------------------------------------------------- the report's sections
def _dataset(entry: dict, kind: str) -> AmbiguityDataset:
    dataset = ambiguity_dataset_get(dataset_id=entry["dataset_id"], kind=kind)
    if dataset is None or dataset.sha256 != entry["sha256"]:
        raise ambiguity_services.AmbiguityInputError(f"The {kind} file {entry['name']!r} chosen for this report "
                                                     f"no longer exists.")
    return dataset


def _selectional(run: EvaluationRun, choice: dict, progress) -> dict | None:
    entry = choice.get("questions")
    if entry == NONE:
        return unavailable(TITLES["ambiguity_selectional"], "Skipped: the report was started without a question set.")
    kwargs = {}
    if entry is not None:
        dataset = _dataset(entry, QUESTIONS)
        kwargs = {"questions": ambiguity_services.questions_parse(text=dataset.content, source=dataset.name),
                  "source": dataset.label}
    return ambiguity_services.ambiguity_selectional_section(model_version=run.model_version, progress=progress,
                                                            **kwargs)


def _retrieval(run: EvaluationRun, choice: dict, progress) -> dict | None:
    entry = choice.get("occupations")
    kwargs = {}
    if entry is not None:
        dataset = _dataset(entry, OCCUPATIONS)
        kwargs = {"occupations": ambiguity_services.occupations_parse(text=dataset.content, source=dataset.name),
                  "source": dataset.label}
    return ambiguity_services.ambiguity_retrieval_section(model_version=run.model_version, project=run.project,
                                                          progress=progress, **kwargs)


NOTHING_CHOSEN = {
    "ambiguity_selectional": "No ambiguity data for this probe: no question set was uploaded or chosen, and the "
                             "server has no default (STUMPER_AMBIGUITY_QUESTIONS). Upload one in the report form.",
    "ambiguity_retrieval": "No ambiguity data for this probe: the report has no project passages.",
}


def ambiguity_sections(*, run: EvaluationRun, progress: Progress) -> dict[str, dict]:
    """The two probe sections of a project report, on the inputs its snapshot records; a probe
    that has no data or fails becomes an empty state saying why (the rest of the report stands)."""
    choice = run.snapshot.get("ambiguity", {})
    out = {}
    for index, (name, call) in enumerate((("ambiguity_selectional", _selectional), ("ambiguity_retrieval", _retrieval))):
        def probe_progress(done: int, total: int, stage: str, index=index) -> None:
            progress(stage, (index + done / max(total, 1)) / 2)

        try:
            value = call(run, choice, probe_progress)
        except Exception as error:  # shown in its section
            logger.exception("Ambiguity probe %s failed for report %s", name, run.pk)
            value = unavailable(TITLES[name], f"The probe could not run: {type(error).__name__}: {error}")
        out[name] = check_section(name, value if value is not None else unavailable(TITLES[name], NOTHING_CHOSEN[name]))
    return out
