"""Fine-tuning an extractive QA model on SQuAD-format data and registering it (``train_qa_model``)."""
from collections.abc import Callable, Sequence
from pathlib import Path

from annotation.models import Project
from mlcore.models.qa import ExtractiveQAModel, QAConfig, QAExample, QASpec
from mlcore.stats.squad_metrics import SquadQuestion, squad_evaluate
from modelhub.models import ModelVersion
from modelhub.training import model_version_name_check, model_version_train_and_register


def qa_model_name_check(*, name: str) -> None:
    """Raise ValidationError unless ``name`` can name a QA model version (and its folder)."""
    model_version_name_check(name=name, kind=ModelVersion.Kind.QUESTION_ANSWERING)


def qa_model_evaluate(*, path: str, name: str, questions: Sequence[SquadQuestion], language: str = "en",
                      max_length: int = 384, doc_stride: int = 128) -> dict:
    """SQuAD 2.0 scores (percent) of a saved checkpoint on gold questions."""
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
    # Imported here: it brings torch and transformers, which only training needs.
    from mlcore.models.qa_finetune import QAFineTuneConfig, QuestionAnsweringTrainer

    config = config or QAFineTuneConfig()

    def measure(trainer: QuestionAnsweringTrainer, directory: Path, revision: str) -> dict:
        metrics: dict = {"train_questions": len(questions), "train_windows": trainer.n_windows_,
                         "epochs": config.epochs, "train_loss": trainer.history_[-1] if trainer.history_ else None}
        if eval_questions:
            metrics["eval"] = qa_model_evaluate(path=str(directory), name=name, questions=eval_questions,
                                                language=language, max_length=config.max_length,
                                                doc_stride=config.doc_stride)
        return metrics

    return model_version_train_and_register(
        name=name, kind=ModelVersion.Kind.QUESTION_ANSWERING, base=base,
        fit=lambda base_path: QuestionAnsweringTrainer(config, base_path).fit(questions, progress=progress),
        measure=measure,
        description=lambda base_path: (
            description or f"Extractive QA fine-tuned from {base_path} on {len(questions)} questions."),
        attach=None if project is None else (
            lambda version: Project.objects.filter(pk=project.pk).update(qa_model=version)),
    )
