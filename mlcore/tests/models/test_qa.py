"""Extractive QA inference and fine-tuning on tiny random BERTs (mlcore.models.qa, mlcore.models.qa_finetune)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlcore.models.loading import ModelLoadError
from mlcore.models.qa import ExtractiveQAModel, QAConfig, QAExample, QASpec, decode_best_span, load_qa_model
from mlcore.models.qa_finetune import QA_TRAINING_META_FILE, QAFineTuneConfig, QuestionAnsweringTrainer, window_labels
from mlcore.stats.squad_metrics import SquadAnswer, SquadQuestion, squad_evaluate
from mlcore.testing import build_tiny_bert_qa

PERSIAN_WORDS = ("تهران", "پایتخت", "ایران", "است", "کتاب")


@pytest.fixture(scope="module")
def tiny_qa_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_bert_qa(tmp_path_factory.mktemp("tiny_qa"), extra_words=PERSIAN_WORDS)


def _toy_questions(n: int) -> list[SquadQuestion]:
    context = "the cat ate an apple . the dog saw the ball ."
    start = context.index("an apple")
    answerable = SquadQuestion("a", "what did the cat eat ?", context, "t", (SquadAnswer("an apple", start),), False)
    impossible = SquadQuestion("n", "what did the bird eat ?", context, "t", (), True)
    return [SquadQuestion(f"{q.qid}{i}", q.question, q.context, q.title, q.answers, q.is_impossible)
            for i in range(n) for q in (answerable, impossible)][:n]


def test_prediction_is_an_exact_slice_of_the_context(tiny_qa_dir: Path) -> None:
    model = ExtractiveQAModel(QASpec(str(tiny_qa_dir), "tiny"), QAConfig(null_threshold=1e9))
    contexts = ["the cat ate an apple . the dog saw the ball .",
                "تهران پایتخت ایران است و کتاب\u200cها \U0001F3C5 the cat ate an apple"]
    predictions = model.predict([QAExample("what did the cat eat ?", c) for c in contexts])
    assert len(predictions) == 2
    for prediction, context in zip(predictions, contexts, strict=True):
        # A threshold of 1e9 forces a span, so the offsets are exercised.
        assert prediction.has_answer and prediction.text
        assert context[prediction.start:prediction.start + len(prediction.text)] == prediction.text
        assert prediction.model_name == "tiny" and len(prediction.model_revision) == 12


def test_long_contexts_are_windowed_and_answered_from_any_window(tiny_qa_dir: Path) -> None:
    context = " ".join(["the dog saw the ball ."] * 60)  # ~360 tokens: several windows of 64
    model = ExtractiveQAModel(QASpec(str(tiny_qa_dir), "tiny"),
                              QAConfig(max_length=64, doc_stride=16, null_threshold=1e9))
    prediction = model.predict([QAExample("what ?", context)])[0]
    assert context[prediction.start:prediction.start + len(prediction.text)] == prediction.text
    assert model.predict([]) == []


def test_no_answer_when_the_cls_score_wins() -> None:
    # logits: [CLS] scores 20, best span 1 + 1.
    score, span, null = decode_best_span([10, 1, 0], [10, 0, 1], [None, (0, 3), (4, 7)], QAConfig())
    assert (score, span, null) == (2.0, (0, 7), 20.0)
    # Spans longer than max_answer_tokens or ending before they start are never chosen.
    score, span, _ = decode_best_span([0, 9, 0, 0], [0, 0, 0, 9], [None, (0, 1), (2, 3), (4, 5)],
                                      QAConfig(max_answer_tokens=2))
    assert span != (0, 5)


def test_config_is_validated() -> None:
    with pytest.raises(ValueError, match="doc_stride"):
        QAConfig(max_length=64, doc_stride=64)
    with pytest.raises(ValueError):
        QAFineTuneConfig(epochs=0)


def test_missing_checkpoint_raises_model_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="does not exist"):
        load_qa_model(QASpec(str(tmp_path / "nope"), "nope"))


def test_window_labels_point_at_the_answer_tokens_or_cls() -> None:
    offsets = [(0, 0), (0, 4), (0, 0), (0, 5), (6, 9), (10, 12), (0, 0)]
    seq = [None, 0, None, 1, 1, 1, None]
    assert window_labels(offsets, seq, (6, 12)) == (4, 5)
    assert window_labels(offsets, seq, None) == (0, 0)
    assert window_labels(offsets, seq, (20, 25)) == (0, 0)  # not inside this window


def test_fine_tuning_learns_the_toy_task_and_saves_a_loadable_model(tiny_qa_dir: Path, tmp_path: Path) -> None:
    questions = _toy_questions(24)
    config = QAFineTuneConfig(epochs=6, batch_size=8, learning_rate=3e-3, max_length=64, doc_stride=16, threads=1)
    steps = []
    trainer = QuestionAnsweringTrainer(config, str(tiny_qa_dir)).fit(questions, progress=steps.append)
    assert trainer.history_[-1] < trainer.history_[0]
    assert steps[-1].step == steps[-1].total_steps == 6 * 3
    out = trainer.save(tmp_path / "qa")
    meta = json.loads((out / QA_TRAINING_META_FILE).read_text(encoding="utf-8"))
    assert meta["config"]["epochs"] == 6 and meta["windows"] == 24
    model = ExtractiveQAModel(QASpec(str(out), "toy"), QAConfig(max_length=64, doc_stride=16))
    predictions = model.predict([QAExample(q.question, q.context) for q in questions])
    result = squad_evaluate(questions, {q.qid: p.text for q, p in zip(questions, predictions, strict=True)})
    assert result.has_ans_f1 > 90.0  # chance is far lower on a 12-token context: it learned the span


def test_fine_tuning_refuses_no_data(tiny_qa_dir: Path) -> None:
    with pytest.raises(ValueError, match="zero questions"):
        QuestionAnsweringTrainer(QAFineTuneConfig(), str(tiny_qa_dir)).fit([])
    with pytest.raises(RuntimeError, match="fit"):
        QuestionAnsweringTrainer(QAFineTuneConfig(), str(tiny_qa_dir)).save("unused")
