"""Test data of the ambiguity probes: a small biography collection, occupation, names and question files."""
import json
from pathlib import Path

from annotation.models import Article, Paragraph
from annotation.services.projects import project_create

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
