"""The round's import page: upload a CODAH TSV or JSON file, see what it holds, then import it.

"Preview" checks the whole file as ``manage.py import_codah`` does (``codah_import_check``) and
stores nothing: either the questions it would import or every bad row, by line, as the command
lists them. "Import" then imports the previewed file, all or nothing, as the course owner's
accepted questions (``codah_import``), and goes back to the round page.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from collector.forms.imports import RoundImportForm
from collector.models import LETTERS, Round
from collector.selectors.rounds import round_for_manager
from collector.services.imports import (
    codah_import,
    codah_import_check,
    import_format,
    import_stage,
    import_staged,
    import_unstage,
)
from collector.views.rounds import back_to_round
from core.exceptions import ImportFailed

PREVIEW_ROWS = 20  # questions shown in the preview; the count says how many there are
PROBLEMS_SHOWN = 100
FORMAT_NAMES = {"tsv": "CODAH TSV", "json": "JSON"}


@login_required
@require_http_methods(["GET", "POST"])
def round_import(request: HttpRequest, round_id: int) -> HttpResponse:
    """Preview (``action=preview``) or import (``action=import``) a file of questions into the round."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    form = RoundImportForm(request.POST or None, request.FILES or None)
    context = {"round": round_, "form": form, "preview": None, "problems": []}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        text = data["file"] if data["file"] is not None else import_staged(
            round_=round_, user=request.user, token=data["staged"])
        if text is None:
            form.add_error("file", _("The previewed file is no longer kept (after an hour): choose it again."))
            return render(request, "collector/round_import.html", context)
        options = {"file_format": import_format(text), **form.import_options()}
        try:
            if request.POST.get("action") == "import" and data["staged"]:
                questions = codah_import(round_=round_, text=text, author=round_.course.owner, **options)
            else:
                context["preview"] = _preview(round_, request, text, data, options)
        except ImportFailed as error:
            rows = _problems(form, error)
            context.update(problems=rows[:PROBLEMS_SHOWN], problems_intro=_problems_intro(len(rows)))
        else:
            if context["preview"] is None:
                import_unstage(round_=round_, user=request.user, token=data["staged"])
                messages.success(request, _imported_message(len(questions), data["staged_name"], round_))
                return back_to_round(round_)
    return render(request, "collector/round_import.html", context)


def _preview(round_: Round, request: HttpRequest, text: str, data: dict, options: dict) -> dict:
    """What the file would import (ImportFailed if anything is wrong); the file is kept for the import."""
    plan = codah_import_check(round_=round_, text=text, **options)
    token = data["staged"] or import_stage(round_=round_, user=request.user, text=text)
    rows = [{"line": line, "prompt": example.prompt, "categories": example.categories,
             "choices": [(LETTERS[i], choice, i == example.label) for i, choice in enumerate(example.choices)]}
            for line, example in zip(plan.lines[:PREVIEW_ROWS], plan.examples[:PREVIEW_ROWS])]
    return {"token": token, "name": data["staged_name"], "format": FORMAT_NAMES[options["file_format"]],
            "count": len(plan.examples), "rows": rows, "more": max(0, len(plan.examples) - PREVIEW_ROWS),
            "source": plan.source or (round_.source_dataset, round_.source_license)}


def _problems(form: RoundImportForm, error: ImportFailed) -> list[dict]:
    """The file's bad rows as the error summary lists them, each linked to the file field (to pick a
    fixed file); a problem with the options goes beside the source dataset instead."""
    rows = []
    for where, message in error.errors:
        if where == "options":
            form.add_error("source_dataset", message)
        else:
            rows.append({"id": form["file"].id_for_label, "messages": [message],
                         "label": _("line %(line)s") % {"line": where} if isinstance(where, int) else str(where)})
    return rows


def _imported_message(count: int, name: str, round_: Round) -> str:
    values = {"count": count, "name": name or _("the file"), "round": round_.name, "owner": round_.course.owner}
    return ngettext("Imported %(count)s question from %(name)s into round %(round)s, as an accepted question by %(owner)s.",
                    "Imported %(count)s questions from %(name)s into round %(round)s, as accepted questions by %(owner)s.",
                    count) % values


def _problems_intro(rows: int) -> str:
    if not rows:
        return _("Nothing was imported: fix the problems marked below.")
    if rows > PROBLEMS_SHOWN:
        return _("Nothing was imported: the file has %(rows)s problems (the first %(shown)s below), by line as "
                 "manage.py import_codah lists them. Fix them and choose the file again.") % {"rows": rows, "shown": PROBLEMS_SHOWN}
    return ngettext("Nothing was imported: the file has %(rows)s problem, by line as "
                    "manage.py import_codah lists them. Fix it and choose the file again.",
                    "Nothing was imported: the file has %(rows)s problems, by line as "
                    "manage.py import_codah lists them. Fix them and choose the file again.", rows) % {"rows": rows}
