"""Where ParaEval's contextual tier keeps its vectors between runs: what a vector file in
$PARALIGN_VECTOR_CACHE is keyed by besides the words of its segments (:func:`vector_key`).

Not for: computing the vectors (:mod:`paralign.neural.encoder`), scoring with them
(:mod:`.graded`) or listing and removing the files (:mod:`paralign.disk_cache`).
"""

from __future__ import annotations

import contextlib

from ...errors import ConfigurationError


def vector_key(encoder: object) -> str:
    """What a cached vector file depends on besides the words: the encoder's name as signatures
    give it (a model package with its version), the layer and stride it reads, and for a local
    model directory each file's name, size and time, so a model retrained into the same
    directory, or another layer, never reads the vectors of the one before."""
    from ...neural.model_files import encoder_id, model_directory

    model = getattr(encoder, "model", None)
    parts = [str(model or "default"), encoder_id(model), f"layer:{getattr(encoder, 'word_layer', None)}", f"stride:{getattr(encoder, 'stride', None)}"]
    with contextlib.suppress(ConfigurationError, OSError):
        for file in sorted(model_directory(model).iterdir()):
            if file.is_file():
                status = file.stat()
                parts.append(f"{file.name}:{status.st_size}:{status.st_mtime_ns}")
    return "|".join(parts)
