"""Release readiness: the wheel builds, installs into a fresh virtual environment, and works there."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_and_runs_an_example_outside_the_source_tree(tmp_path: Path) -> None:
    """A built wheel installed into a fresh venv runs examples/drive_a_deal.py from the installed package."""
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("bezique_rules-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True, timeout=600
    )
    assert install.returncode == 0, install.stderr
    work = tmp_path / "elsewhere"
    work.mkdir()
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import bezique_rules, sys; print(bezique_rules.__file__); print(bezique_rules.__version__)",
        ],
        capture_output=True,
        text=True,
        cwd=work,
        env=clean_env,
        timeout=120,
    )
    assert where.returncode == 0, where.stderr
    location, version = where.stdout.split()
    assert str(env_dir) in location and str(ROOT / "src") not in location
    assert version == __import__("bezique_rules").__version__
    run = subprocess.run(
        [str(python), str(ROOT / "examples" / "drive_a_deal.py")],
        capture_output=True,
        text=True,
        cwd=work,
        env=clean_env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "trick" in run.stdout.lower()
    cli = subprocess.run(
        [str(env_dir / ("Scripts" if os.name == "nt" else "bin") / "bezique-rules"), "rules", "bezique"],
        capture_output=True,
        text=True,
        cwd=work,
        env=clean_env,
        timeout=120,
    )
    assert cli.returncode == 0 and "quartet_rule" in cli.stdout


def test_version_is_single_sourced() -> None:
    """The package version is defined once, in bezique_rules.__version__, and the build reads it from there."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in text
    assert 'path = "src/bezique_rules/__init__.py"' in text
    import bezique_rules

    assert bezique_rules.__version__.count(".") == 2
