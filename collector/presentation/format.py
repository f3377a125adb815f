"""Small display formatting shared by the pages, the websocket payloads and the CLI."""
from collector.models import CATEGORY_CHOICES


def duration(seconds: int) -> str:
    """``83`` -> ``"1:23"``; hours as ``"1:02:03"``."""
    seconds = max(0, int(seconds or 0))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def category_name(key: str) -> str:
    """A category's name in the active language, lower case as in a list (``negation``; Persian ``نفی``)."""
    return str(dict(CATEGORY_CHOICES).get(key, key)).lower()
