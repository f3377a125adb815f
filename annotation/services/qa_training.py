"""Fine-tuning an extractive QA model on SQuAD-format data and registering it (``train_qa_model``)."""
from collections.abc import Callable, Sequence
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from annotation.models import Project
from collector import services as collector_services
from collector.models import ModelVersion, round_name_validator
from collector.training import save_replacing  # saves beside the folder, then swaps it in
from mlcore.stats.squad_metrics import SquadQuestion, squad_evaluate


def qa_model_name_check(*, name: str) -> None:
    """Raise ValidationError unless ``name`` can name a QA model version (and its folder)."""
    round_name_validator(name)  # the name becomes a folder under STUMPER_MODEL_DIR
    existing = ModelVersion.objects.filter(name=name).first()
    if existing is not None and existing.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValidationError({"name": f"{name!r} is already registered as a {existing.get_kind_display()}."})


def _resolve_base(base: str) -> tuple[str, ModelVersion | None]:
    version = ModelVersion.objects.filter(name=base).first()
    if version is not None:
        return version.path, version
    return base, ModelVersion.objects.filter(path=base).first()


def qa_model_evaluate(*, path: str, name: str, questions: Sequence[SquadQuestion], language: str = "en",
                      max_length: int = 384, doc_stride: int = 128) -> dict:
    """SQuAD 2.0 scores (percent) of a saved checkpoint on gold questions."""
    from mlcore.models.qa import ExtractiveQAModel, QAConfig, QAExample, QASpec

    model = ExtractiveQAModel(QASpec(path, name), QAConfig(max_length=max_length, doc_stride=doc_stride))
    predictions = model.predict([QAExample(q.question, q.context) for q in questions])
    result = squad_evaluate(questions, {q.qid: p.text for q, p in zip(questions, predictions, strict=True)},
                            normalizer="fa" if language == "fa" else "en")
    return {**result.as_dict(), "avna": result.avna, "normalizer": result.normalizer}


def qa_model_train(*, name: str, questions: Sequence[SquadQuestion], base: str | None = None, config=None,
                   eval_questions: Sequence[SquadQuestion] = (), language: str = "en", project: Project | None = None,
                   progress: Callable | None = None, description: str = "") -> ModelVersion:
    """Fine-tune ``base`` (default ``STUMPER_BASE_CHECKPOINT``) on ``questions`` and register version ``name``.

    The weights go to ``STUMPER_MODEL_DIR/<name>`` (an earlier training of the same name is
    replaced whole). With ``eval_questions`` the saved checkpoint is scored (EM/F1 of SPEC §6).
    ``project`` gets the new version as its model in the loop. Raises ValidationError for a bad
    name, ValueError for unusable data and ``mlcore.models.loading.ModelLoadError`` for a bad base.
    """
    from mlcore.models.qa_finetune import QAFineTuneConfig, QuestionAnsweringTrainer

    qa_model_name_check(name=name)
    config = config or QAFineTuneConfig()
    base_path, base_version = _resolve_base(base or settings.STUMPER_BASE_CHECKPOINT)
    trainer = QuestionAnsweringTrainer(config, base_path).fit(questions, progress=progress)
    directory = save_replacing(trainer, Path(settings.STUMPER_MODEL_DIR) / name)
    from mlcore.models.loading import weights_revision

    metrics: dict = {"train_questions": len(questions), "train_windows": trainer.n_windows_, "epochs": config.epochs,
                     "train_loss": trainer.history_[-1] if trainer.history_ else None}
    if eval_questions:
        metrics["eval"] = qa_model_evaluate(path=str(directory), name=name, questions=eval_questions, language=language,
                                            max_length=config.max_length, doc_stride=config.doc_stride)
    with transaction.atomic():
        version = collector_services.model_version_register(
            name=name, kind=ModelVersion.Kind.QUESTION_ANSWERING, path=str(directory),
            revision=weights_revision(str(directory)), metrics=metrics, base=base_version,
            description=description or f"Extractive QA fine-tuned from {base_path} on {len(questions)} questions.",
        )
        if project is not None:
            Project.objects.filter(pk=project.pk).update(qa_model=version)
    return version
