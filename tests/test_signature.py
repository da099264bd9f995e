"""paralign.signature: the pieces of every sacrebleu-style signature."""

from __future__ import annotations

from paralign._version import __version__
from paralign.signature import join_signature, with_parts


def test_join_puts_the_version_last_and_leaves_out_none() -> None:
    assert join_signature({"a": 1, "b": None, "version": "x", "c": "y"}) == f"a:1|c:y|version:{__version__}"


def test_parts_added_later_go_before_the_version() -> None:
    signature = join_signature({"config": "default"})
    assert with_parts(signature, {"bs": 1000, "seed": 12345, "none": None}) == (
        f"config:default|bs:1000|seed:12345|version:{__version__}")
    assert with_parts("config:paper", {"bs": 10}) == "config:paper|bs:10"  # no version part: at the end
