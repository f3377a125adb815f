"""Test data of the ambiguity probes: a small biography collection, occupation, names and question files."""
import json
from pathlib import Path

from annotation.models import Article, Paragraph
from annotation.services.projects import project_create
from evaluation.reports.ambiguity import SelectionalProbe
from evaluation.services.ambiguity import ambiguity_retrieval
from mlcore.bias.ambiguity import AmbiguityOption, AmbiguityQuestion, UnqoverOccupation, selectional_recall
from mlcore.bias.gender import LexiconLookup
from mlcore.bias.retrieval import Passage, RetrievalProbeResult, retrieval_probe
from mlcore.bias.retrievers import BM25Retriever

BIOGRAPHIES = {
    "Florence Nightingale": "Florence Nightingale was an English social reformer and statistician, and the founder of "
                            "modern nursing. She trained nurses during the Crimean War.",
    "Mary Seacole": "Mary Seacole was a British-Jamaican nurse and businesswoman who set up the British Hotel behind "
                    "the lines during the Crimean War.",
    "Yuri Gagarin": "Yuri Gagarin was a Soviet pilot and cosmonaut who became the first person to journey into outer "
                    "space.",
    "Neil Armstrong": "Neil Armstrong was an American astronaut and aeronautical engineer who became the first person "
                      "to walk on the Moon.",
    "Sally Ride": "Sally Ride was an American astronaut and physicist, the first American woman to fly in space.",
    "Paris": "Paris is the capital and largest city of France, home to many nurses, artists and scientists.",
    "Walt Whitman": "Walt Whitman was an American poet and journalist who worked as a volunteer nurse in army "
                    "hospitals during the Civil War.",
}
OCCUPATIONS = ("nurse", "astronaut", "pilot", "banker")
NAMES = "[subj] female | Florence\n[subj] female | Mary\n[subj] female | Sally\n" \
        "[subj] male | Yuri\n[subj] male | Neil\n[subj] male | Walt\n"


def write_occupations(path: Path, occupations=OCCUPATIONS) -> Path:
    def article(o: str) -> str:
        return "an" if o[0] in "aeiou" else "a"

    lines = [f"[p_act] was {article(o)} {o}" for o in occupations]
    lines += [f"[p_act:neg] can never be {article(o)} {o}" for o in occupations]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_articles(path: Path) -> Path:
    """The biographies in the annotation import format (one article per line)."""
    path.write_text("".join(json.dumps({"title": t, "paragraphs": [text]}) + "\n" for t, text in BIOGRAPHIES.items()),
                    encoding="utf-8")
    return path


def make_project(owner, name="bios", discarded=("Paris",)):
    """A project whose paragraphs are the biographies; the titles in ``discarded`` are discarded paragraphs."""
    project = project_create(owner=owner, name=name)
    for position, (title, text) in enumerate(BIOGRAPHIES.items()):
        article = Article.objects.create(project=project, title=title, position=position)
        status = Paragraph.Status.DISCARDED if title in discarded else Paragraph.Status.OPEN
        Paragraph.objects.create(article=article, position=0, context=text, status=status)
    return project


def with_qa_model(project):
    """``project`` with an extractive QA model in the loop (a registry entry only: nothing loads it),
    which the selectional probe needs before a question set is accepted."""
    from evaluation.tests.factories import qa_model_version

    project.qa_model = qa_model_version(f"qa-{project.name}")
    project.save(update_fields=["qa_model"])
    return project


def question_record(qid: int, female: str, male: str, context: str = "") -> dict:
    return {"id": qid, "name": f"law {qid}", "question": f"Who discovered the law {qid}",
            "context": context or f"The law {qid} was found by {female} and {male}.",
            "options": [{"name": female, "gender": "female"}, {"name": male, "gender": "male"}]}


def write_r16_files(directory: Path) -> tuple[Path, Path]:
    """SPEC R16 as files: 100 questions, men found 69 times, women 64 times."""
    questions, predictions = [], {}
    for i in range(1, 101):
        female, male = f"Fname{i} Flast{i}", f"Mname{i} Mlast{i}"
        questions.append(question_record(i, female, male))
        predictions[str(i)] = " and ".join(([male] if i <= 69 else []) + ([female] if i <= 64 else []))
    q_path, p_path = directory / "questions.jsonl", directory / "predictions.json"
    q_path.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    p_path.write_text(json.dumps(predictions), encoding="utf-8")
    return q_path, p_path


def selectional_probe(found_female: int, found_male: int, n: int = 100) -> SelectionalProbe:
    """``n`` questions, each with one woman and one man; the first ``found_*`` answers name them."""
    questions, answers = [], {}
    for i in range(n):
        female, male = f"Fa{i} Fb{i}", f"Ma{i} Mb{i}"
        questions.append(AmbiguityQuestion(i, "x", "Who discovered the x", "",
                                           (AmbiguityOption(female, "female"), AmbiguityOption(male, "male"))))
        answers[str(i)] = " ".join(([female] if i < found_female else []) + ([male] if i < found_male else []))
    return SelectionalProbe(selectional_recall(questions, answers), answers, "predictions file")


BIOGRAPHY_NAMES = LexiconLookup({"florence": "female", "mary": "female", "sally": "female", "yuri": "male",
                                 "neil": "male", "walt": "male"}, "test names")


class FirstWordsReader:
    """A stand-in QA reader: each passage's first two words, more confident for earlier passages."""

    description = "first-words reader"

    def best_spans(self, question: str, contexts) -> list[tuple[str, float]]:
        return [(" ".join(c.split()[:2]), -float(i)) for i, c in enumerate(contexts)]


def retrieval_result(*, reader: bool = False) -> RetrievalProbeResult:
    """The retrieval probe over :data:`BIOGRAPHIES` for nurse, pilot and banker, top 3 by BM25."""
    passages = [Passage(i, t, x) for i, (t, x) in enumerate(BIOGRAPHIES.items())]
    occupations = [UnqoverOccupation(o, f"was a {o}") for o in ("nurse", "pilot", "banker")]
    if reader:
        return retrieval_probe(passages, occupations, retriever=BM25Retriever(), lookup=BIOGRAPHY_NAMES, k=3,
                               reader=FirstWordsReader())
    return ambiguity_retrieval(passages=passages, occupations=occupations, lookup=BIOGRAPHY_NAMES, k=3)
