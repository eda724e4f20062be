"""The optional extras the command line needs for some inputs and commands, and the one line that says so.

A scan with `--cluster local` without the cluster extra ended in "internal error: ModuleNotFoundError: No
module named 'distributed'", exit 3, after its journal was written; `serve` said it cleanly. Every command
now asks here before it starts (`require`), and `main` turns a missing extra's module found later
(`missing_extra`) into the same line: what needs it, the pip command, exit 2.
"""

from __future__ import annotations

import importlib

#: The modules of each extra (pyproject.toml's optional-dependencies), the first one the extra's own.
EXTRAS: dict[str, tuple[str, ...]] = {
    "pdf": ("pypdfium2",),
    "ocr": ("pytesseract",),
    "web": ("fastapi", "uvicorn", "multipart"),
    "postgres": ("psycopg",),
    "cluster": ("distributed",),
}


class MissingExtra(Exception):
    """An optional extra is not installed; the message is the whole line the user reads."""

    def __init__(self, extra: str, what: str, detail: str = "") -> None:
        self.extra = extra
        more = f" ({detail})" if detail else ""
        super().__init__(f"{what} needs the {extra} extra: pip install 'citetracer[{extra}]'{more}")


def require(extra: str, what: str) -> None:
    """Raise MissingExtra unless every module of `extra` imports; `what` names what needs it ('--cluster')."""
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise MissingExtra(extra, what) from exc


def missing_extra(exc: BaseException) -> MissingExtra | None:
    """The extra whose module an ImportError (anywhere in its chain of causes) failed to find, or None."""
    seen: BaseException | None = exc
    while seen is not None:
        name = getattr(seen, "name", None) if isinstance(seen, ImportError) else None
        if name:
            top = name.split(".", 1)[0]
            for extra, modules in EXTRAS.items():
                if top in modules:
                    return MissingExtra(extra, "this command", f"no module named '{top}'")
        seen = seen.__cause__ or seen.__context__
    return None
