"""Fixtures for the management command tests: a round with no model loading, sample TSV rows."""
import pytest

# Eight small CODAH-style rows written for these tests, in canonical form (so export == input).
GOOD_ROWS = [
    ("q", "Sara had four apples and ate one. She", "had three apples left.", "had five apples.", "had no apples.", "had ten apples.", 0),
    ("i", "Ben said the test was a breeze. He", "felt a cold wind.", "found the test easy.", "failed badly.", "opened a window.", 1),
    ("n", "The shop was not open, so Ana", "bought bread inside.", "paid the cashier.", "went home without bread.", "ate lunch there.", 2),
    ("r", "Kim gave Lee a book because she had finished it. Lee", "read the book next.", "wrote the book.", "finished it first.", "burned the shelf.", 0),
    ("p", "The pitcher threw the ball. The crowd", "poured water from it.", "cheered loudly.", "filled it with milk.", "washed the jug.", 1),
    ("o", "It began to rain, so Omar", "put on sunglasses.", "watered the lawn.", "opened his umbrella.", "lit a campfire.", 2),
    ("qn", "None of the three cups were full. Each cup", "was not full.", "overflowed.", "held ten litres.", "was full.", 0),
    ("ir", "Mia told Jo to break a leg before the show. Jo", "hurt his knee.", "called a doctor.", "thanked her and went on stage.", "broke a chair.", 2),
]


def tsv(rows) -> str:
    return "".join("\t".join(str(field) for field in row) + "\n" for row in rows)


@pytest.fixture
def good_tsv_text() -> str:
    return tsv(GOOD_ROWS)


@pytest.fixture
def plain_round(course):
    """An open round whose live model is the default v0 row (nothing gets loaded)."""
    from collector.services import round_create

    return round_create(course=course, name="cmd-round", title="Commands round")
