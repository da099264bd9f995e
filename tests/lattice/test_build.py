"""lattice.build.LatticeOptions checks its settings when made (API audit R4)."""

from __future__ import annotations

import pytest

from paralign.errors import ConfigurationError
from paralign.lattice import LatticeOptions


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"max_gaps": -1}, "max_gaps must be a count >= 0, got -1"),
        ({"max_gaps": 1.5}, "max_gaps must be a count >= 0, got 1.5"),
        ({"method": "nosuch"}, "unknown lattice method 'nosuch'"),
    ],
)
def test_bad_options_are_refused_when_made(bad, message) -> None:
    """max_gaps=-1 was accepted and, being non-zero, turned relaxed merging on."""
    with pytest.raises(ConfigurationError, match=message):
        LatticeOptions(**bad)
    assert LatticeOptions(method="msa", max_gaps=2).max_gaps == 2
