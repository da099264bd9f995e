"""The Sultan aligner's options are cheap to import: checking a preset name loads no spaCy."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_importing_the_options_does_not_load_spacy() -> None:
    code = (
        "import sys\n"
        "from paralign.aligners.sultan.options import PRESETS, preset_options\n"
        "assert preset_options('paper') == PRESETS['paper']\n"
        "print('spacy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_config_values_are_checked_and_lists_kept_hashable() -> None:
    """API audit (second pass): ppdb_sim='0.9' was a TypeError from a comparison, and
    entity_types given as a list made the frozen config unhashable."""
    from paralign.aligners.sultan import AlignerConfig
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="ppdb_sim must be a number in .0, 1., got '0.9'"):
        AlignerConfig(ppdb_sim="0.9")
    config = AlignerConfig(entity_types=[["PERSON", "PERSON"]], partial_mention_types=["PERSON"])
    assert config.entity_types == (("PERSON", "PERSON"),) and config.partial_mention_types == ("PERSON",)
    assert hash(config) == hash(AlignerConfig(entity_types=(("PERSON", "PERSON"),)))


@pytest.mark.parametrize("links", [-1, 1.5, None])
def test_context_only_links_must_be_a_count(links) -> None:
    """API audit: `Aligner(context_only_links=-1)` was taken: bool(-1) switched the module on
    and every pair of free content words of one category met the evidence needed (at least -1),
    so 'sponsored' aligned to 'drafted' with none, silently; --context-links refused it."""
    from paralign.aligners.sultan import AlignerConfig
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="context_only_links must be"):
        AlignerConfig(context_only_links=links)
    assert AlignerConfig(context_only_links=0).context_only_links == 0
