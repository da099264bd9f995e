"""``paralign serve``: a local web app to see paralign's results, and its JSON API.

:func:`create_app` (in :mod:`.app`) builds the FastAPI app: pages to align two sentences (the
grid of :mod:`paralign.viz` and a table of links), to compare them by every similarity signal,
to score many pairs at once as ``paralign similarity --pairs`` does (the batch page), to
score a hypothesis with ParaEval (its words highlighted by match tier), to build a word
lattice and to list a phrase's paraphrases; and the JSON API behind them (:mod:`.api`, models
and input limits in :mod:`.models`, error answers in :mod:`.problems`). What it computes, with the models loaded once at start-up,
is the :class:`.engine.Engine`.

Importing this package loads FastAPI (without the `web` extra it raises
:class:`~paralign.errors.ExtraMissingError`); the CLI imports it only when ``serve`` runs. It sits above
:mod:`paralign.viz` (it shows its pictures) and below :mod:`paralign.cli`.

Not for: pictures or reports written to files (:mod:`paralign.viz`), or running a server (the
CLI runs the app with uvicorn).
"""

from __future__ import annotations

from ..errors import ExtraMissingError

#: What the `web` extra installs (pyproject's ``web`` list): a missing one is that extra missing.
WEB_EXTRA_PACKAGES = ("fastapi", "uvicorn", "jinja2", "pydantic", "starlette", "markupsafe")


def _missing_package(exc: ImportError) -> str | None:
    """The package an ImportError says is missing: its own `name`, or that of the error it was
    raised from (starlette re-raises jinja2's absence as a plain ImportError)."""
    cause = exc.__cause__ if isinstance(exc.__cause__, ImportError) else None
    name = exc.name or (cause.name if cause else None)
    return name.split(".")[0] if name else None


try:
    from .app import create_app
    from .engine import Engine, ServeConfig
except ImportError as exc:
    missing = _missing_package(exc)
    if missing not in WEB_EXTRA_PACKAGES:
        raise
    raise ExtraMissingError("paralign.web", "web", missing) from None

__all__ = ["WEB_EXTRA_PACKAGES", "Engine", "ServeConfig", "create_app"]
