"""paralign.signature: the pieces of every sacrebleu-style signature."""

from __future__ import annotations

from paralign._version import __version__
from paralign.signature import join_signature, part_fault, signature_parts, with_parts


def test_join_puts_the_version_last_and_leaves_out_none() -> None:
    assert join_signature({"a": 1, "b": None, "version": "x", "c": "y"}) == f"a:1|c:y|version:{__version__}"


def test_parts_added_later_go_before_the_version() -> None:
    signature = join_signature({"config": "default"})
    assert with_parts(signature, {"bs": 1000, "seed": 12345, "none": None}) == (
        f"config:default|bs:1000|seed:12345|version:{__version__}")
    assert with_parts("config:paper", {"bs": 10}) == "config:paper|bs:10"  # no version part: at the end


def test_a_value_holding_a_bar_cannot_be_a_part_one_holding_a_colon_can() -> None:
    """``|`` ends a part (signature_parts would read two, the second with no key); ``:`` does not
    (a part's key ends at its first), as ``aligner:sultan:default`` holds one."""
    assert part_fault("run|1.tsv") == "'run|1.tsv' holds '|', which separates a signature's parts"
    assert part_fault("sultan:default") is None
    assert signature_parts(join_signature({"aligner": "sultan:default"}))["aligner"] == "sultan:default"


def test_a_file_name_holding_a_bar_is_refused_naming_the_file_and_the_option(tmp_path) -> None:
    """Every signature part that writes a file's name writes it through file_name_part: its last
    component as written, or a ConfigurationError naming the file (and the command's option, when
    one gave it) where the name holds ``|``, which signature_parts would read as two parts."""
    import pytest

    from paralign.errors import ConfigurationError
    from paralign.signature import file_name_part

    assert file_name_part(tmp_path / "run:1#x.tsv", "model:FILE#HASH") == "run:1#x.tsv"
    assert file_name_part("dir\\t.tsv", "t:FILE", name="t.tsv") == "t.tsv"  # as the caller writes it
    bar = tmp_path / "run|1.tsv"
    with pytest.raises(ConfigurationError) as caught:
        file_name_part(bar, "model:FILE#HASH", option="--model")
    assert str(caught.value) == (f"argument --model: {bar}: the file's name 'run|1.tsv' holds '|', which separates "
                                 "a signature's parts (the signature names it: model:FILE#HASH): copy or link the "
                                 "file under another name")
    with pytest.raises(ConfigurationError, match=r"^x/run\|1\.tsv: the file's name"):
        file_name_part("x/run|1.tsv", "system:FILE#HASH")
