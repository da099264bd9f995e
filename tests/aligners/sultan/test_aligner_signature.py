"""What `help()` and `inspect.signature` show of the Sultan aligner's constructor."""

from __future__ import annotations

import inspect

import paralign


def test_the_aligner_class_shows_its_init_parameters() -> None:
    """`inspect.signature(paralign.Aligner)` (and `help()`'s class header, IDEs' hints) showed
    `(similarity='ppdb', *args, **kwargs)`, from the `__new__` that builds the contextual aligner
    for "contextual", hiding every option: ppdb_sim, w, annotator, ..."""
    shown = inspect.signature(paralign.Aligner)
    parameters = inspect.signature(paralign.Aligner.__init__).parameters
    assert list(shown.parameters) == [name for name in parameters if name != "self"]
    assert shown.parameters["ppdb_sim"].default == 0.9 and "args" not in shown.parameters
