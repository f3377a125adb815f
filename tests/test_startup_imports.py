"""Management commands start fast: the URLconf, which every system check imports, needs no torch.

torch and transformers take seconds to import. Code that trains or loads a model imports them
inside the function that does it (``mlcore`` loads lazily, see STYLE.md rule 6), so ``manage.py
check``, ``help`` and every command that runs the checks stay quick. A fresh interpreter is needed:
this test process has long imported torch.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("torch", "transformers")
CODE = (
    "import django; django.setup(); import config.urls; import sys; "
    f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules) or 'none')"
)


def test_importing_the_urlconf_does_not_import_torch():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    result = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "none", "config.urls imported " + result.stdout
