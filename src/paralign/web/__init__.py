"""``paralign serve``: a local web app to see paralign's results, and its JSON API.

:func:`create_app` (in :mod:`.app`) builds the FastAPI app: pages to align two sentences (the
grid of :mod:`paralign.viz` and a table of links), to compare them by every similarity signal,
to score a hypothesis with ParaEval (its words highlighted by match tier), to build a word
lattice and to list a phrase's paraphrases; and the JSON API behind them (:mod:`.api`, models
and input limits in :mod:`.models`). What it computes, with the models loaded once at start-up,
is the :class:`.engine.Engine`.

Importing this package loads FastAPI; the CLI imports it only when ``serve`` runs. It sits above
:mod:`paralign.viz` (it shows its pictures) and below :mod:`paralign.cli`.

Not for: pictures or reports written to files (:mod:`paralign.viz`), or running a server (the
CLI runs the app with uvicorn).
"""

from __future__ import annotations

from .app import create_app
from .engine import Engine, ServeConfig

__all__ = ["Engine", "ServeConfig", "create_app"]
