"""Demo span-annotation projects for ``seed_demo`` (services level, idempotent).

A small English and a small Persian project, owned by the demo instructor, with short
articles written for this demo (not taken from any dataset). One validation article per
project already has a crowdworker's submitted questions, so the second pass, the flags page
and the dashboard have something to show. Running the seed again changes nothing.
"""
import json
from dataclasses import dataclass

from accounts.models import User
from accounts.services import user_create
from annotation.models import Paragraph, Project, SpanQuestion, Split
from annotation.services.authoring import question_add, session_start_on, session_submit
from annotation.services.imports import articles_import
from annotation.services.projects import project_create

WORKER_LOGINS = (("mina", "stumper-demo-worker"), ("sam", "stumper-demo-worker"))
Z = "\u200c"  # zero-width non-joiner, written as "+" in the Persian texts below

EN_ARTICLES = {
    "Lake Baikal": (
        "Lake Baikal is a rift lake in southern Siberia, Russia. It is the deepest lake in the world, reaching "
        "1,642 metres, and it holds roughly a fifth of the unfrozen fresh water on the surface of the Earth. The "
        "lake formed about 25 million years ago, which also makes it one of the oldest lakes known. More than 300 "
        "rivers flow into Baikal, but only one, the Angara, flows out of it. The lake is home to thousands of "
        "species of plants and animals, many of which live nowhere else, among them the Baikal seal, one of the "
        "few seals that live only in fresh water.",
        ["Monarch butterfly"],
    ),
    "Printing press": (
        "The printing press with movable metal type was developed in Europe by Johannes Gutenberg around 1440 "
        "in the city of Mainz. Printers in East Asia had earlier used movable type made of clay, wood and bronze, "
        "but Gutenberg combined metal type cast in a hand mould with an oil-based ink and a screw press adapted "
        "from those used to make wine. His best known work, the Gutenberg Bible, was finished in about 1455, and "
        "fewer than fifty copies of it survive today. Within fifty years presses were working in more than two "
        "hundred European cities, and books became far cheaper than copies written by hand.",
        ["Lake Baikal"],
    ),
    "Monarch butterfly": (
        "The monarch butterfly is known for its long seasonal migration in North America. Each autumn, millions "
        "of monarchs fly south from Canada and the northern United States to spend the winter in the fir forests "
        "of central Mexico, a journey of up to 4,000 kilometres. No single butterfly makes the whole round trip: "
        "the monarchs that return north in spring lay eggs on milkweed plants along the way, and it takes three "
        "or four generations to reach Canada again. The caterpillars feed only on milkweed, which makes both them "
        "and the adult butterflies poisonous to many birds.",
        ["Lake Baikal", "Printing press"],
    ),
}

FA_ARTICLES = {
    "دریاچه ارومیه": (
        "دریاچه ارومیه بزرگ+ترین دریاچه داخلی ایران است و در شمال غربی کشور، میان استان+های آذربایجان شرقی و "
        "آذربایجان غربی قرار دارد. آب این دریاچه بسیار شور است و به همین دلیل ماهی در آن زندگی نمی+کند، اما نوعی "
        "سخت+پوست کوچک به نام آرتمیا در آن فراوان است. در دهه+های گذشته سطح آب دریاچه به+شدت پایین آمد و بخش "
        "بزرگی از آن خشک شد. کارشناسان ساختن سدهای فراوان روی رودهای منطقه، برداشت بی+رویه آب+های زیرزمینی و "
        "کاهش بارش را از علت+های اصلی این بحران می+دانند. از سال ۱۳۹۲ طرح+هایی برای نجات دریاچه آغاز شد.",
        ["نوروز"],
    ),
    "حافظ": (
        "خواجه شمس+الدین محمد حافظ شیرازی از بزرگ+ترین شاعران زبان فارسی است که در سده هشتم هجری در شیراز "
        "زندگی می+کرد. بیشتر شعرهای او غزل است و دیوان او را بسیاری از ایرانیان در خانه دارند. مردم در شب یلدا و "
        "نوروز با دیوان حافظ فال می+گیرند. آرامگاه او در باغی در شمال شیراز به نام حافظیه قرار دارد و هر سال "
        "گردشگران زیادی از آن دیدن می+کنند. روز بیستم مهر در تقویم ایران روز بزرگداشت حافظ نام+گذاری شده است.",
        ["نوروز", "دریاچه ارومیه"],
    ),
    "نوروز": (
        "نوروز جشن آغاز سال نو در ایران و بسیاری از کشورهای همسایه است و هم+زمان با اعتدال بهاری، معمولاً در روز "
        "۲۰ یا ۲۱ مارس، برگزار می+شود. خانواده+ها پیش از نوروز خانه+تکانی می+کنند و سفره هفت+سین می+چینند که هفت "
        "چیز با نام+های آغازشده با حرف «س» روی آن قرار می+گیرد، مانند سیب، سبزه و سکه. در روزهای نوروز مردم به "
        "دیدن خویشاوندان می+روند و بزرگ+ترها به کوچک+ترها عیدی می+دهند. جشن نوروز در سیزدهمین روز سال با "
        "سیزده+بدر به پایان می+رسد. در سال ۲۰۰۹ یونسکو نوروز را در فهرست میراث ناملموس بشر ثبت کرد.",
        ["حافظ"],
    ),
}

# (question, answer text or None for unanswerable), per article; used for the validation article.
EN_QUESTIONS = {
    "Lake Baikal": [("How deep does the lake get at its deepest point?", "1,642 metres"),
                    ("Which river drains the lake?", "the Angara"),
                    ("What share of the world's surface fresh water is in Baikal?", "roughly a fifth"),
                    ("Which seal species lives only in fresh water?", "the Baikal seal"),
                    ("How many tourists visit Baikal each year?", None)],
    "Printing press": [("In which city did Gutenberg develop his press?", "Mainz"),
                       ("When was the Gutenberg Bible finished?", "about 1455"),
                       ("What kind of press did Gutenberg adapt?", "a screw press"),
                       ("How many copies of the Gutenberg Bible survive?", "fewer than fifty"),
                       ("How much did a Gutenberg Bible cost?", None)],
    "Monarch butterfly": [("Where do monarchs spend the winter?", "the fir forests of central Mexico"),
                          ("How long can the journey south be?", "up to 4,000 kilometres"),
                          ("What do the caterpillars eat?", "milkweed"),
                          ("How many generations does the trip north take?", "three or four generations"),
                          ("How fast can a monarch fly?", None)],
}
FA_QUESTIONS = {
    "دریاچه ارومیه": [("بزرگ+ترین دریاچه داخلی ایران کدام است؟", "دریاچه ارومیه"),
                      ("چه جانوری در آب شور دریاچه فراوان است؟", "آرتمیا"),
                      ("طرح+های نجات دریاچه از چه سالی آغاز شد؟", "۱۳۹۲"),
                      ("عمق دریاچه چند متر است؟", None),
                      ("چرا ماهی در دریاچه زندگی نمی+کند؟", "آب این دریاچه بسیار شور است")],
    "حافظ": [("حافظ در کدام شهر زندگی می+کرد؟", "شیراز"),
             ("بیشتر شعرهای حافظ در چه قالبی است؟", "غزل"),
             ("آرامگاه حافظ چه نام دارد؟", "حافظیه"),
             ("روز بزرگداشت حافظ چه روزی است؟", "روز بیستم مهر"),
             ("حافظ چند فرزند داشت؟", None)],
    "نوروز": [("نوروز هم+زمان با چه رویدادی است؟", "اعتدال بهاری"),
              ("جشن نوروز با چه چیزی پایان می+یابد؟", "سیزده+بدر"),
              ("یونسکو در چه سالی نوروز را ثبت کرد؟", "۲۰۰۹"),
              ("بزرگ+ترها به کوچک+ترها چه می+دهند؟", "عیدی"),
              ("نخستین جشن نوروز در چه سالی برگزار شد؟", None)],
}

PROJECTS = (
    ("Demo: English reading comprehension", "en", EN_ARTICLES, EN_QUESTIONS,
     "Write 5 to 10 questions about the paragraph. Mark the shortest span that answers each question, or mark "
     "it unanswerable if the paragraph does not say (about a quarter of the questions, on the same topic)."),
    ("Demo: Persian reading comprehension (PQuAD-style)", "fa", FA_ARTICLES, FA_QUESTIONS,
     "برای هر پاراگراف ۵ تا ۱۰ پرسش بنویسید و پاسخ هر پرسش را در متن انتخاب کنید؛ اگر متن پاسخ را نمی+دهد، "
     "پرسش را «بی+پاسخ» علامت بزنید."),
)


@dataclass(frozen=True)
class AnnotationDemoSeed:
    projects: tuple[Project, ...]
    created_users: tuple[str, ...]


def _fa(text: str) -> str:
    return text.replace("+", Z)


def _worker(username: str, password: str) -> tuple[User, bool]:
    existing = User.objects.filter(username=username).first()
    if existing is not None:
        return existing, False
    return user_create(username=username, password=password, role=User.Role.CROWDWORKER), True


def _article_lines(articles: dict, language: str) -> list[str]:
    fix = _fa if language == "fa" else str
    return [json.dumps({"title": title, "paragraphs": [fix(text)], "links": links, "has_infobox": True},
                       ensure_ascii=False) for title, (text, links) in articles.items()]


def _write_questions(project: Project, worker: User, questions: dict, language: str) -> None:
    """The validation article's questions, written by ``worker`` through the authoring services."""
    fix = _fa if language == "fa" else str
    paragraph = Paragraph.objects.filter(article__project=project, article__split=Split.VALIDATION).first()
    session = paragraph and session_start_on(user=worker, paragraph=paragraph)
    if session is None:
        return
    context = paragraph.context
    for question, text in questions[paragraph.article.title]:
        if text is None:
            question_add(session=session, user=worker, question=fix(question), is_impossible=True)
        else:
            text = fix(text)
            question_add(session=session, user=worker, question=fix(question),
                         answer={"text": text, "answer_start": context.index(text)})
    session_submit(session=session, user=worker)


def annotation_demo_seed(*, owner: User) -> AnnotationDemoSeed:
    """Create the demo crowdworkers and the two demo projects (nothing happens on a second run)."""
    workers, created = [], []
    for username, password in WORKER_LOGINS:
        user, is_new = _worker(username, password)
        workers.append(user)
        created += [username] if is_new else []
    projects = []
    for name, language, articles, questions, instructions in PROJECTS:
        project = Project.objects.filter(name=name).first()
        if project is None:
            # One article per split, so the demo has open tasks and a second pass to show.
            project = project_create(owner=owner, name=name, language=language,
                                     instructions=_fa(instructions) if language == "fa" else instructions,
                                     train_ratio=0.34, validation_ratio=0.33, test_ratio=0.33)
            articles_import(project=project, lines=_article_lines(articles, language), min_chars=200)
        if not SpanQuestion.objects.filter(project=project).exists():
            _write_questions(project, workers[0], questions, language)
        projects.append(project)
    return AnnotationDemoSeed(projects=tuple(projects), created_users=tuple(created))
