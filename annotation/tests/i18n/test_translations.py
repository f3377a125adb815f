"""Every string of the crowdworker pages is translated into Persian, and the .mo files are fresh.

The templates (and those of the password reset a worker receives) are read with Django's own
template lexer: text outside ``{% translate %}`` / ``{% blocktranslate %}`` that contains words
(or a translatable attribute such as ``aria-label``) fails, and so does a ``translate`` msgid
without a Persian translation. The
JavaScript of those pages goes through ``gettext()``/``ngettext()`` (the djangojs catalogue)
and may not assign English text to the page directly. The messages their websocket and APIs
send (errors of the services and validation, the socket's status lines) are read with Python's
``ast``: English text handed to an error or a response outside ``gettext()`` fails, and so does
a message without a Persian translation. Log lines are not messages for people and are left alone.
"""
import ast
import gettext as gettext_module
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.template.base import Lexer, TokenType

LOCALE = Path(settings.BASE_DIR) / "locale" / "fa" / "LC_MESSAGES"
TEMPLATES = Path(settings.BASE_DIR) / "annotation" / "templates" / "annotation"
WORKER_TEMPLATES = ["task_list.html", "_session_page.html", "annotate.html", "second_pass.html", "_paragraph.html",
                    "_language_switch.html", "_session_eyebrow.html"]
# The password reset a crowdworker gets in their language (accounts.languages): email and pages;
# and the sign-in page around them (also the page after signing out), in the worker's chosen language.
RESET_TEMPLATES = Path(settings.BASE_DIR) / "accounts" / "templates" / "accounts"
RESET_TEMPLATE_NAMES = ["password_reset_subject.txt", "password_reset_email.txt", "password_reset_form.html",
                        "password_reset_done.html", "password_reset_confirm.html", "password_reset_complete.html",
                        "login.html"]
# The sign-in form's messages on that page: wrong password, tries left, locked.
SIGN_IN_MODULES = ["accounts/forms.py"]
WORKER_SCRIPTS = ["annotation.js", "annotation_review.js", "lib/api.js", "lib/i18n.js", "lib/paragraph_timer.js",
                  "annotate/model_loop.js", "annotate/question_form.js", "annotate/question_list.js", "review/parts.js"]
# The Python behind those pages whose messages reach the worker: the model-in-the-loop socket
# (and its base), the worker APIs and what they call.
WORKER_MODULES = ["core/sockets.py", "annotation/consumers.py", "annotation/apis/worker_home.py",
                  "annotation/apis/authoring.py", "annotation/apis/second_pass.py", "annotation/apis/session_time.py",
                  "annotation/inputs.py", "annotation/selectors/projects.py", "annotation/selectors/authoring.py",
                  "annotation/selectors/second_pass.py", "annotation/selectors/reviews.py",
                  "annotation/services/authoring.py", "annotation/services/second_pass.py", "mlcore/data/spans.py"]
# Worker modules whose every message comes from what they call (nothing of their own to translate).
NO_MESSAGES_OF_THEIR_OWN = {"annotation/apis/authoring.py", "annotation/apis/second_pass.py",
                            "annotation/apis/session_time.py", "annotation/selectors/second_pass.py"}
TRANSLATORS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext"}
# Calls whose text a person reads: errors the socket and APIs send, and API responses.
MESSAGE_CALLS = {"ValidationError", "AccessError", "ClientError", "SpanError", "AnswerFinal", "PermissionDenied",
                 "Response", "send_status"}
# Msgids made elsewhere and marked there with gettext_noop (SpanError's, in mlcore/data/spans.py).
MARKED_ELSEWHERE = {"error.template"}
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


def _called(node: ast.AST) -> str:
    func = node.func if isinstance(node, ast.Call) else None
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _english(node: ast.AST) -> list[str]:
    """English text in an expression, outside translation calls (dict keys are field names)."""
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(node)]  # an f-string cannot be translated as a whole
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and re.search(r"[A-Za-z]{2,}\s+\w", node.value) else []
    if isinstance(node, ast.Call):
        return []  # a translation, or a value computed elsewhere
    if isinstance(node, ast.Dict):
        return [text for value in node.values for text in _english(value)]
    return [text for child in ast.iter_child_nodes(node) for text in _english(child)]


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def python_messages(source: str) -> tuple[list[str], list[str]]:
    """(msgids of the translation calls, English messages found outside them) of a Python module."""
    tree = ast.parse(source)
    msgids, loose = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) in TRANSLATORS and node.args:
            if _called(node).startswith("ngettext") and all(_is_text(arg) for arg in node.args[:2]):
                msgids.append((node.args[0].value, node.args[1].value))  # the catalogue's key of a plural
            elif _is_text(node.args[0]):
                msgids.append(node.args[0].value)
            elif ast.unparse(node.args[0]) not in MARKED_ELSEWHERE:
                loose.append(ast.unparse(node))  # a computed msgid is never in the catalogue
        elif isinstance(node, ast.Call) and _called(node) in MESSAGE_CALLS:
            loose += [text for arg in [*node.args, *(k.value for k in node.keywords)] for text in _english(arg)]
    # Module and class constants holding a sentence are messages too (``BUSY_MESSAGE = ...``).
    for scope in [tree, *(n for n in tree.body if isinstance(n, ast.ClassDef))]:
        for node in scope.body:
            if isinstance(node, ast.Assign) and not isinstance(node.value, ast.Call):
                loose += _english(node.value)
    return msgids, loose


def test_the_python_check_catches_an_untranslated_message():
    msgids, loose = python_messages(
        'BUSY = "The model is busy."\nDONE = _("Done now.")\nlogger.warning("Not a message for people")\n'
        'raise ValidationError({"question": "Too long here.", "other": _("Fine %(n)s.") % {"n": 3}})\n'
        'raise ClientError(f"Size {n} is too big")\nraise AccessError(gettext_lazy(MESSAGE))\n')
    assert msgids == ["Done now.", "Fine %(n)s."]
    assert loose == ["Too long here.", "f'Size {n} is too big'", "gettext_lazy(MESSAGE)", "The model is busy."]


@pytest.mark.parametrize("name", WORKER_MODULES + SIGN_IN_MODULES)
def test_every_message_of_the_worker_socket_and_apis_is_translated(name):
    msgids, loose = python_messages((Path(settings.BASE_DIR) / name).read_text())
    assert not loose, f"{name}: English for people outside gettext(): {loose}"
    assert msgids or name in NO_MESSAGES_OF_THEIR_OWN
    catalog = _catalog("django")
    missing = [msgid for msgid in msgids if msgid not in catalog or not _translated(catalog[msgid])]
    assert not missing, f"{name}: not in locale/fa/LC_MESSAGES/django.po or not translated: {missing}"


@pytest.mark.parametrize("path", [TEMPLATES / name for name in WORKER_TEMPLATES]
                         + [RESET_TEMPLATES / name for name in RESET_TEMPLATE_NAMES], ids=lambda path: path.name)
def test_every_string_of_the_worker_templates_is_translated(path):
    name = path.name
    msgids, loose = template_msgids(path.read_text())
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


def _compiled_string(compiled: gettext_module.GNUTranslations, message) -> str:
    """What the .mo file gives for ``message`` (singular form for a plural), in its context if it has one."""
    if isinstance(message.id, tuple):
        if message.context:
            return compiled.npgettext(message.context, message.id[0], message.id[1], 1)
        return compiled.ngettext(message.id[0], message.id[1], 1)
    return compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_persian_message_is_translated_and_the_mo_file_is_compiled_from_it(domain):
    catalog = _catalog(domain)
    assert catalog, domain
    untranslated = [key for key, message in catalog.items() if not _translated(message)]
    assert not untranslated
    with open(LOCALE / f"{domain}.mo", "rb") as handle:
        compiled = gettext_module.GNUTranslations(handle)
    with open(LOCALE / f"{domain}.po", "rb") as handle:
        messages = [m for m in read_po(handle, locale="fa") if m.id]  # with their contexts (pgettext)
    stale = [message.id for message in messages if _compiled_string(compiled, message) != (
        message.string[0] if isinstance(message.id, tuple) else message.string)]
    assert not stale, f"{domain}.mo is older than {domain}.po: run `bash scripts/messages.sh compile`"


def test_the_python_check_reads_a_plural_as_the_catalogue_keys_it():
    msgids, loose = python_messages('raise ValidationError(ngettext("%(n)s try left.", "%(n)s tries left.", n) % {"n": n})')
    assert msgids == [("%(n)s try left.", "%(n)s tries left.")] and loose == []
