"""The translation catalogues: ``make messages`` writes them, ``make check`` checks them.

``python tools/i18n.py messages``
    extracts every marked string (``makemessages``) into ``locale/<lang>/LC_MESSAGES/django.po``
    for each language of ``settings.LANGUAGES`` but English, then compiles the ``.mo`` files
    (``compilemessages``), which are committed so that a server needs no gettext.

``python tools/i18n.py check``
    fails when a catalogue is not what the code asks of it:

    * stale: the strings marked in the code (extracted afresh from a copy of the checkout, so
      the committed files are never touched) are not exactly the ``msgid`` of the ``.po``;
    * incomplete: an entry of the ``.po`` is untranslated or fuzzy (``msgfmt --statistics``);
    * not compiled: the committed ``.mo`` says something else than the ``.po`` compiled now
      (both read back with ``msgunfmt``, so the check does not depend on msgfmt's version).

It uses GNU gettext's own tools (``msgfmt``, ``msgcmp``, ``msgunfmt``), which Django's
``makemessages`` and ``compilemessages`` need anyway.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where no marked string of the service lives (or what is not the project's).
IGNORED = [
    *("var/*", "tests/*", "benchmarks/*", "tools/*", "deploy/*", "screenshots/*", "htmlcov/*"),
]
MAKEMESSAGES_OPTIONS = [
    "--no-obsolete",
    # File names without line numbers: a line moved elsewhere does not rewrite the catalogue.
    "--add-location=file",
    *(f"--ignore={pattern}" for pattern in IGNORED),
]


def locales() -> list[str]:
    """Every language of the settings but the one the code is written in, as locale names."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")
    sys.path.insert(0, str(ROOT))
    import django
    from django.conf import settings
    from django.utils.translation import to_locale

    django.setup()
    return [to_locale(code) for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def _manage(root: Path, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=root, check=True)


def messages() -> None:
    for locale in locales():
        _manage(ROOT, "makemessages", f"--locale={locale}", *MAKEMESSAGES_OPTIONS)
    _manage(ROOT, "compilemessages", *(f"--locale={locale}" for locale in locales()))


def _tool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=False)


def _unformatted(mo: Path) -> str:
    result = _tool("msgunfmt", "--sort-output", mo)
    if result.returncode:
        raise SystemExit(f"{mo}: {result.stderr.strip()}")
    return result.stdout


def check() -> list[str]:
    """The catalogues' faults, in words; empty when every catalogue is complete and current."""
    faults: list[str] = []
    with tempfile.TemporaryDirectory(prefix="tarabish-i18n-") as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(
            ROOT,
            copy,
            symlinks=True,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", "var", "node_modules", "screenshots", "htmlcov", "*.pyc"
            ),
        )
        for locale in locales():
            po = ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"
            mo = po.with_suffix(".mo")
            if not po.exists():
                faults.append(f"{po.relative_to(ROOT)} is missing: run make messages")
                continue
            fresh = copy / "locale" / locale / "LC_MESSAGES" / "django.po"
            fresh.unlink()
            options = (f"--locale={locale}", "--verbosity=0", *MAKEMESSAGES_OPTIONS)
            _manage(copy, "makemessages", *options)
            name = po.relative_to(ROOT)
            # Each marked string has a translation in the committed catalogue (msgcmp counts
            # an untranslated or fuzzy entry as missing)...
            missing = _tool("msgcmp", po, fresh)
            if missing.returncode:
                lacking = f"{name}: strings marked in the code lack a translation:"
                faults.append(f"{lacking}\n{missing.stderr}")
            # ...and the catalogue holds nothing the code no longer marks.
            extra = _tool("msgcmp", "--use-untranslated", "--use-fuzzy", fresh, po)
            if extra.returncode:
                stale = f"{name}: entries no code marks any more (run make messages):"
                faults.append(f"{stale}\n{extra.stderr}")
            stats = _tool("msgfmt", "--check", "--statistics", "-o", Path(tmp) / "new.mo", po)
            if stats.returncode:
                faults.append(f"{name}: msgfmt refuses it:\n{stats.stderr}")
            elif "fuzzy" in stats.stderr or "untranslated" in stats.stderr:
                faults.append(f"{name}: {stats.stderr.strip()}")
            elif not mo.exists() or _unformatted(mo) != _unformatted(Path(tmp) / "new.mo"):
                faults.append(f"{mo.relative_to(ROOT)} is not {name} compiled: run make messages")
    return faults


def main(argv: list[str]) -> int:
    if argv[1:] == ["messages"]:
        messages()
        return 0
    if argv[1:] == ["check"]:
        faults = check()
        for fault in faults:
            print(fault, file=sys.stderr)
        return 1 if faults else 0
    print(f"usage: {argv[0]} messages|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
