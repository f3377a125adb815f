"""Errors the annotation app raises for people; each message is meant to be shown as is."""
from collections.abc import Sequence

from collector.exceptions import AccessError

__all__ = ["AccessError", "ImportFailed"]


class ImportFailed(Exception):
    """An import file had problems; nothing was written. ``errors`` lists ``(location, message)``.

    A location is a line number for JSON Lines and a JSON path such as
    ``data[3].paragraphs[0].qas[2] (id '1801005')`` for SQuAD files.
    """

    def __init__(self, errors: Sequence[tuple[str | int, str]]):
        self.errors = [(str(where), message) for where, message in errors]
        shown = [f"{where}: {message}" for where, message in self.errors[:50]]
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        super().__init__(f"{len(self.errors)} problem(s), nothing imported:\n" + "\n".join(shown) + more)
