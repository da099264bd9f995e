"""The Sultan aligner's options are cheap to import: checking a preset name loads no spaCy."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_options_does_not_load_spacy() -> None:
    code = (
        "import sys\n"
        "from paralign.aligners.sultan.options import PRESETS, preset_options\n"
        "assert preset_options('paper') == PRESETS['paper']\n"
        "print('spacy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]
