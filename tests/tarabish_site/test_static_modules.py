"""The pages' JavaScript modules as production serves them: every module under a hashed name,
and every module's imports naming the hashed files of the same deploy, so a phone that keeps
the score-pad for good never runs it against an older outbox."""

import json
import posixpath
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

JS = Path(settings.BASE_DIR) / "static" / "js"
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']""", re.MULTILINE | re.DOTALL
)


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("static")
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "tarabish_site.staticfiles.HashedStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", "--no-input", verbosity=0)
    return root, json.loads((root / "staticfiles.json").read_text())["paths"]


def modules() -> list[str]:
    return sorted(path.relative_to(JS.parent).as_posix() for path in JS.rglob("*.js"))


def test_production_serves_the_static_files_through_the_hashing_storage() -> None:
    from tarabish_site.staticfiles import HashedStaticFilesStorage

    assert HashedStaticFilesStorage.support_js_module_import_aggregation


@pytest.mark.parametrize("name", modules())
def test_every_module_imports_the_hashed_modules_of_its_deploy(
    collected: tuple[Path, dict[str, str]], name: str
) -> None:
    root, paths = collected
    hashed = paths[name]
    assert hashed != name
    text = (root / hashed).read_text()
    sources = IMPORT.findall((JS.parent / name).read_text())
    imports = IMPORT.findall(text)
    assert len(imports) == len(sources)
    for target in imports:
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(hashed), target))
        assert resolved in paths.values(), f"{name} imports {target}, not a hashed file"
        assert (root / resolved).is_file()
