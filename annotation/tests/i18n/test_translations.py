"""Every string of the crowdworker pages is translated into Persian, and the .mo files are fresh.

The templates are read with Django's own template lexer: text outside ``{% translate %}`` /
``{% blocktranslate %}`` that contains words (or a translatable attribute such as
``aria-label``) fails, and so does a ``translate`` msgid without a Persian translation. The
JavaScript of those pages goes through ``gettext()``/``ngettext()`` (the djangojs catalogue)
and may not assign English text to the page directly.
"""
import gettext as gettext_module
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.template.base import Lexer, TokenType

LOCALE = Path(settings.BASE_DIR) / "locale" / "fa" / "LC_MESSAGES"
TEMPLATES = Path(settings.BASE_DIR) / "annotation" / "templates" / "annotation"
WORKER_TEMPLATES = ["task_list.html", "annotate.html", "second_pass.html", "_paragraph.html",
                    "_language_switch.html", "_session_eyebrow.html"]
WORKER_SCRIPTS = ["annotation.js", "annotation_review.js", "lib/api.js", "lib/i18n.js", "lib/paragraph_timer.js"]
TRANSLATED_ATTRIBUTES = re.compile(r'\b(?:title|alt|placeholder|aria-label)="([^"{]*)"')
# Key names and brand-like tokens read the same in every language.
UNTRANSLATABLE = {"Shift", "Ctrl", "Alt", "Enter", "Esc", "Tab", "F1"}
NOT_TEXT_BLOCKS = {"main_class", "extra_head", "scripts"}  # class names and <link>/<script> tags


def _catalog(domain: str) -> dict:
    with open(LOCALE / f"{domain}.po", "rb") as handle:
        return {m.id: m for m in read_po(handle, locale="fa") if m.id}


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return "fuzzy" not in message.flags and all(strings)


def _words(text: str) -> list[str]:
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text)  # tags, with their attributes (checked separately)
    text = re.sub(r"&\w+;", " ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in UNTRANSLATABLE]


def template_msgids(source: str) -> tuple[list[str], list[str]]:
    """(msgids of translate/blocktranslate tags, untranslated words found outside them)."""
    msgids: list[str] = []
    skeleton: list[str] = []  # the template's own text; tags, variables and translations as a placeholder
    block: list[str] | None = None
    trimmed = comment = False
    blocks: list[str] = []
    for token in Lexer(source).tokenize():
        contents = token.contents
        if token.token_type == TokenType.BLOCK:
            name = contents.split()[0]
            if name == "block":
                blocks.append(contents.split()[1])
            elif name == "endblock":
                blocks.pop()
            elif name == "comment":
                comment = True
            elif name == "endcomment":
                comment = False
            elif name == "translate":
                msgids.append(re.match(r'translate\s+"([^"]*)"', contents).group(1))
            elif name == "blocktranslate":
                block, trimmed = [], " trimmed" in contents
            elif name in ("plural", "endblocktranslate") and block is not None:
                text = "".join(block)
                if trimmed:
                    text = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
                msgids.append(text)
                block = [] if name == "plural" else None
        elif block is not None:
            block.append(contents if token.token_type == TokenType.TEXT else f"%({contents})s")
            continue
        if token.token_type == TokenType.TEXT and not comment and not NOT_TEXT_BLOCKS.intersection(blocks):
            skeleton.append(contents)
        elif token.token_type != TokenType.COMMENT:
            skeleton.append("\x00")
    text = "".join(skeleton)
    loose = [w for value in TRANSLATED_ATTRIBUTES.findall(text) for w in _words(value)]
    return msgids, _words(text) + loose


@pytest.mark.parametrize("name", WORKER_TEMPLATES)
def test_every_string_of_the_worker_templates_is_translated(name):
    msgids, loose = template_msgids((TEMPLATES / name).read_text())
    assert not loose, f"{name}: text outside {{% translate %}}: {loose}"
    catalog = _catalog("django")
    plural_ids = {m.id[0]: m for m in catalog.values() if isinstance(m.id, tuple)}
    plural_ids.update({m.id[1]: m for m in catalog.values() if isinstance(m.id, tuple)})
    missing = [msgid for msgid in msgids if not _translated(catalog.get(msgid) or plural_ids.get(msgid))]
    assert not missing, f"{name}: not in locale/fa/LC_MESSAGES/django.po or not translated: {missing}"


def test_the_lexer_check_catches_an_untranslated_string():
    msgids, loose = template_msgids('{% load i18n %}<p title="Hover text">Plain words</p>{% translate "Known" %}'
                                    "{% blocktranslate trimmed with n=x %}\n  Has {{ n }}\n  lines{% endblocktranslate %}")
    assert loose == ["Plain", "words", "Hover", "text"]
    assert template_msgids('<a class="x" href="{% url "y" %}">{% translate "Known" %}</a>')[1] == []
    assert msgids == ["Known", "Has %(n)s lines"]


@pytest.mark.parametrize("name", WORKER_SCRIPTS)
def test_every_string_of_the_worker_scripts_is_translated(name):
    source = (Path(settings.BASE_DIR) / "static" / "js" / name).read_text()
    source = re.sub(r"/\*.*?\*/|^\s*//[^\n]*", "", source, flags=re.S | re.M)  # comments are for developers
    direct = re.findall(r'(?:textContent|placeholder|title)\s*=\s*"[^"]*[A-Za-z]{2,}[^"]*"', source)
    assert not direct, f"{name} writes English to the page without gettext: {direct}"
    catalog = _catalog("djangojs")
    ids = set(catalog) | {part for key in catalog if isinstance(key, tuple) for part in key}
    used = re.findall(r'\b(?:gettext|ngettext)\("((?:[^"\\]|\\.)*)"', source)
    used += re.findall(r'\bngettext\("(?:[^"\\]|\\.)*",\s*"((?:[^"\\]|\\.)*)"', source)
    assert used or name.startswith("lib/")
    missing = [text for text in used if text not in ids]
    assert not missing, f"{name}: not in locale/fa/LC_MESSAGES/djangojs.po: {missing}"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_persian_message_is_translated_and_the_mo_file_is_compiled_from_it(domain):
    catalog = _catalog(domain)
    assert catalog, domain
    untranslated = [key for key, message in catalog.items() if not _translated(message)]
    assert not untranslated
    with open(LOCALE / f"{domain}.mo", "rb") as handle:
        compiled = gettext_module.GNUTranslations(handle)
    stale = [key for key, message in catalog.items()
             if (compiled.ngettext(key[0], key[1], 1) if isinstance(key, tuple) else compiled.gettext(key))
             != (message.string[0] if isinstance(key, tuple) else message.string)]
    assert not stale, f"{domain}.mo is older than {domain}.po: run `bash scripts/messages.sh compile`"
