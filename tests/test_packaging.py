"""What a user installs is what the product needs: pyproject.toml and its two lock files agree.

pyproject.toml declares the product's dependencies and the ``dev`` extra (test, lint and docs
tools); scripts/lock.sh resolves them into requirements/runtime.lock (start.sh, the Docker images)
and requirements/dev.lock (the test command). Here: every declared dependency is pinned in its lock
at the declared version, every lock line is an exact pin, runtime.lock carries none of the tools,
dev.lock agrees with runtime.lock on every package both install (scripts/lib.sh relies on it), no
CUDA build slips in, and the product's own code imports nothing that only dev.lock installs.
"""
import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]+\])?==(?P<version>[^\s;#]+)$")
# Tools the product never needs: none of them may reach runtime.lock.
TOOLS = {
    "pytest", "pytest-django", "pytest-asyncio", "playwright", "schemathesis", "statsmodels", "girth",
    "krippendorff", "import-linter", "mypy", "ruff", "mkdocs", "mkdocs-material", "websockets", "hypothesis",
}
# The product's code: everything but tests, benchmarks and the test configuration.
NOT_PRODUCT = {"tests", "benchmarks", "node_modules", "docs", "scripts", "static", "templates", "locale"}


def canonical(name: str) -> str:
    """PEP 503 normalised name: ``PyLTI1p3`` and ``pylti1p3``, ``huggingface_hub`` and ``huggingface-hub`` agree."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lines: list[str]) -> dict[str, str]:
    """``{name: version}`` of exact ``name==version`` requirements; anything else fails the test."""
    found: dict[str, str] = {}
    for line in lines:
        match = PIN.match(line.strip())
        assert match, f"not an exact pin: {line!r}"
        found[canonical(match["name"])] = match["version"]
    return found


def lock(name: str) -> dict[str, str]:
    text = (ROOT / "requirements" / f"{name}.lock").read_text(encoding="utf-8")
    return pins([line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")])


@pytest.fixture(scope="module")
def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]


@pytest.fixture(scope="module")
def runtime(project: dict) -> dict[str, str]:
    return pins(project["dependencies"])


@pytest.fixture(scope="module")
def dev(project: dict) -> dict[str, str]:
    return pins(project["optional-dependencies"]["dev"])


def test_runtime_and_dev_are_declared_apart(runtime: dict[str, str], dev: dict[str, str]) -> None:
    assert runtime and dev
    assert not set(runtime) & set(dev), "a package is declared both as the product's and as a dev tool"
    assert not set(runtime) & TOOLS
    assert {"openai", "scikit-learn", "torch", "django"} <= set(runtime)
    assert {"pytest", "ruff", "mypy", "playwright", "mkdocs", "girth", "krippendorff", "statsmodels"} <= set(dev)


def test_runtime_lock_pins_every_product_dependency_as_declared(runtime: dict[str, str]) -> None:
    locked = lock("runtime")
    assert {name: locked.get(name) for name in runtime} == runtime


def test_runtime_lock_carries_no_tool(dev: dict[str, str]) -> None:
    locked = lock("runtime")
    assert not set(locked) & TOOLS, sorted(set(locked) & TOOLS)
    # A dev dependency reaches runtime.lock only when a product package requires it (mpmath: sympy).
    for name in set(locked) & set(dev):
        requirers = [
            other for other in locked if other != name
            and any(canonical(re.split(r"[ ;<>=!~\[(]", requirement, maxsplit=1)[0]) == name
                    for requirement in importlib.metadata.distribution(other).requires or [])
        ]
        assert requirers, f"{name} is in runtime.lock but nothing the product installs requires it"


def test_dev_lock_pins_everything_declared_and_agrees_with_runtime_lock(runtime: dict[str, str],
                                                                         dev: dict[str, str]) -> None:
    locked = lock("dev")
    assert {name: locked.get(name) for name in {**runtime, **dev}} == {**runtime, **dev}
    runtime_locked = lock("runtime")
    assert {name: locked.get(name) for name in runtime_locked} == runtime_locked
    assert set(locked) - set(runtime_locked) >= set(dev) - set(runtime_locked)


@pytest.mark.parametrize("name", ["runtime", "dev"])
def test_lock_has_the_cpu_torch_and_no_cuda_package(name: str, runtime: dict[str, str]) -> None:
    locked = lock(name)
    assert locked["torch"] == runtime["torch"]  # the plain version: lib.sh points pip at the CPU build
    cuda = sorted(package for package in locked if package.startswith(("nvidia-", "triton", "cuda-")))
    assert not cuda, f"{name}.lock would install CUDA packages: {cuda}"


def imported_top_levels(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def product_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0].startswith(".") or parts[0] in NOT_PRODUCT or "tests" in parts or path.name == "conftest.py":
            continue
        files.append(path)
    return files


def test_the_product_imports_only_what_runtime_lock_installs() -> None:
    """Each third-party module the product imports comes from a distribution in runtime.lock."""
    local = {path.name for path in ROOT.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    local |= {path.stem for path in ROOT.glob("*.py")}
    distributions = importlib.metadata.packages_distributions()
    locked = set(lock("runtime"))
    files = product_files()
    assert len(files) > 100  # the walk found the apps
    missing: dict[str, set[str]] = {}
    for path in files:
        for module in imported_top_levels(path) - local - set(sys.stdlib_module_names) - {"__future__"}:
            owners = {canonical(owner) for owner in distributions.get(module, [])}
            if not owners & locked:
                missing.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    assert not missing, f"imported by the product but not in requirements/runtime.lock: {missing}"


@pytest.mark.parametrize("dockerfile", ["web.Dockerfile", "worker.Dockerfile"])
def test_docker_images_install_the_runtime_lock_only(dockerfile: str) -> None:
    lines = [line for line in (ROOT / "docker" / dockerfile).read_text(encoding="utf-8").splitlines()
             if not line.lstrip().startswith("#")]
    installs = [line for line in lines if re.match(r"\s*RUN .*pip install", line)]
    assert installs and all("-r requirements/runtime.lock" in line for line in installs), installs
    assert not [line for line in lines if "dev.lock" in line or "[dev]" in line]


@pytest.mark.parametrize(("script", "lock_set"), [("start.sh", "runtime"), ("test.sh", "dev"), ("screenshots.sh", "dev")])
def test_scripts_install_their_lock(script: str, lock_set: str) -> None:
    text = (ROOT / "scripts" / script).read_text(encoding="utf-8")
    assert re.findall(r"^install_requirements.*$", text, re.M) == [f"install_requirements {lock_set}"]
