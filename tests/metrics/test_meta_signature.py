"""meta-eval's own signature: pair, reference sets, level, a hash of the human scores read, and the
bootstrap. Before, a meta-evaluation had the metrics' signatures only, which say ``nrefs:1`` for
reference set A as for B and nothing of the pair, the level or the human judgments."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from paralign._version import __version__
from paralign.corpora.wmt import HumanScore, SegmentScore, WMTPair, load_wmt
from paralign.metrics.meta_signature import human_hash, meta_signature, text_hash
from paralign.signature import signature_parts


def _pair(**changes: object) -> WMTPair:
    human = {"Good": HumanScore("Good", "g", 80.0, 0.5, 3, 3), "Bad": HumanScore("Bad", "b", 20.0, -0.6, 3, 3)}
    segments = (SegmentScore("Good", 0, 2, 95.0, 1.1, 2), SegmentScore("Bad", 0, 2, 10.0, -1.0, 2),
                SegmentScore("Good", 1, 3, 90.0, 1.0, 2))
    data = WMTPair("de-en", {"A": ("x", "y"), "B": ("x", "y")}, {"Good": ("x", "y"), "Bad": ("x", "y")},
                   human, segment_scores=segments)
    return replace(data, **changes)


def test_the_signature_names_pair_refs_level_human_scores_and_bootstrap() -> None:
    signature = meta_signature(_pair(), ["A", "B"], "both", 1000, 12345)
    assert signature == (f"pair:de-en|refs:A+B|level:both|human:da#{human_hash(_pair(), 'both')}"
                         f"|text:{text_hash(_pair(), ['A', 'B'])}|bs:1000|seed:12345|version:{__version__}")
    assert signature_parts(meta_signature(_pair(), ["B"], "system", 20, 7)) == {
        "pair": "de-en", "refs": "B", "level": "system", "human": f"da#{human_hash(_pair(), 'system')}",
        "text": text_hash(_pair(), ["B"]), "bs": "20", "seed": "7", "version": __version__}


def test_score_files_metrics_are_named_with_their_hashes_sorted_and_absent_without_any() -> None:
    """meta-eval --scores: two runs on other score files signed alike (only each metric's own
    signature named its file). Now a ``scores`` part names each such metric and its file's hash,
    sorted by name, between ``text`` and ``bs``; without one the signature is as it was."""
    data = _pair()
    plain = meta_signature(data, ["A"], "system", 1000, 12345)
    assert "scores" not in signature_parts(plain)
    assert meta_signature(data, ["A"], "system", 1000, 12345, {}) == plain
    signed = meta_signature(data, ["A"], "system", 1000, 12345, {"zeta": "0badf00d", "mine": "1a2b3c4d"})
    parts = signature_parts(signed)
    assert list(parts) == ["pair", "refs", "level", "human", "text", "scores", "bs", "seed", "version"]
    assert parts["scores"] == "mine#1a2b3c4d+zeta#0badf00d"
    assert signature_parts(meta_signature(data, ["A"], "system", 1000, 12345, {"mine": "1a2b3c4e"}))["scores"] \
        == "mine#1a2b3c4e"


def test_the_human_hash_is_over_the_scores_the_level_reads_not_their_order_or_ids() -> None:
    data = _pair()
    reordered = _pair(human=dict(reversed(data.human.items())), segment_scores=data.segment_scores[::-1])
    renumbered = _pair(human={n: replace(s, sys_id=s.sys_id * 2, raw=s.raw + 1) for n, s in data.human.items()},
                       segment_scores=tuple(replace(s, sid=s.sid + 10, n=9) for s in data.segment_scores))
    for level in ("system", "segment", "both"):
        assert human_hash(reordered, level) == human_hash(data, level)
        assert human_hash(renumbered, level) == human_hash(data, level)  # no number reads them
    z = _pair(human={**data.human, "Bad": replace(data.human["Bad"], z=-0.7)})
    assert human_hash(z, "system") != human_hash(data, "system") and human_hash(z, "both") != human_hash(data, "both")
    assert human_hash(z, "segment") == human_hash(data, "segment")  # the segment level reads no system z
    mapped = _pair(segment_scores=(replace(data.segment_scores[0], line=5), *data.segment_scores[1:]))
    raw = _pair(segment_scores=(replace(data.segment_scores[0], raw=96.0), *data.segment_scores[1:]))
    for other in (mapped, raw):  # another segment map, another raw score (DARR reads it)
        assert human_hash(other, "segment") != human_hash(data, "segment")
        assert human_hash(other, "system") == human_hash(data, "system")
    assert len({human_hash(data, level) for level in ("system", "segment", "both")}) == 3


def test_the_text_hash_is_over_the_segments_scored_not_the_files_order() -> None:
    """The references of `refs` and the correlated systems' outputs, each file's segments under
    its label or name; not their order, nor a reference set that was not scored."""
    data = _pair()
    base = text_hash(data, ["A"])
    assert text_hash(_pair(systems=dict(reversed(data.systems.items()))), ["A"]) == base
    assert text_hash(_pair(references={"A": ("x", "y")}), ["A"]) == base  # B is not scored under refs:A
    assert text_hash(_pair(references={"A": ("x", "y"), "B": ("x", "z")}), ["A", "B"]) != text_hash(data, ["A", "B"])
    assert text_hash(_pair(systems={**data.systems, "Bad": ("x", "y!")}), ["A"]) != base  # one segment
    assert text_hash(_pair(systems={"Good": ("x", "y"), "Worse": ("x", "y")}), ["A"]) != base  # a system's name
    assert text_hash(_pair(systems={"Good": ("x", "y")}), ["A"]) != base  # a system left out
    assert text_hash(_pair(references={"A": ("x", "y"), "B": ("x y",)}), ["A", "B"]) != text_hash(data, ["A", "B"])


@pytest.fixture(scope="module")
def wmt21(data: Path) -> Path:
    root = data / "mt" / "wmt21-toEnglish"
    if not (root / "humaneval").is_dir():
        pytest.skip(f"WMT21 data not found under {data} (PARALIGN_DATA): mt/wmt21-toEnglish")
    return root


def test_wmt21_pairs_and_levels_sign_their_own_human_scores(wmt21: Path) -> None:
    """On the WMT21 data: each pair's judgments hash apart, and the segment level's (the segment
    DA through the SID -> line map) apart from the system level's."""
    hashes = {}
    for pair in ("cs-en", "de-en"):
        data = load_wmt(wmt21, pair, ["A"], segments=True)
        hashes.update({(pair, level): human_hash(data, level) for level in ("system", "segment", "both")})
        again = load_wmt(wmt21, pair, ["B"], segments=True)
        assert human_hash(again, "both") == hashes[pair, "both"]  # the references are not the human scores
    assert len(set(hashes.values())) == 6


def test_wmt21_texts_hash_by_reference_set_and_pair_in_well_under_a_second(wmt21: Path) -> None:
    """On the WMT21 data: each pair's and reference set's texts hash apart, a load of the same
    files alike; hashing the 21 files of de-en takes milliseconds (about 10 ms measured), next to
    reading them and scoring them."""
    import time

    hashes = {}
    for pair in ("cs-en", "de-en"):
        for refs in (["A"], ["B"], ["A", "B"]):
            data = load_wmt(wmt21, pair, refs)
            start = time.perf_counter()
            hashes[pair, tuple(refs)] = text_hash(data, refs)
            assert time.perf_counter() - start < 1.0
    assert len(set(hashes.values())) == 6
    assert text_hash(load_wmt(wmt21, "cs-en", ["A"]), ["A"]) == hashes["cs-en", ("A",)]


def test_a_reference_label_holding_a_bar_or_a_plus_is_refused_before_any_work() -> None:
    """A label is a reference file's (``newstest2021.de-en.ref.A|x.en``): ``refs:A|x`` read back as
    ``refs:A`` and a keyless ``x``, and ``refs:B+C`` of one set as the sets B and C. Now a
    ConfigurationError naming ``refs``, from meta_signature and where a meta-evaluation starts
    (before any metric scores); labels without them sign as they did."""
    from paralign.errors import ConfigurationError
    from paralign.metrics.correlation import meta_evaluate
    from paralign.metrics.segment_correlation import meta_evaluate_levels

    lines = ("x", "y")
    data = _pair(references={"A|x": lines, "B+C": lines, "A:1": lines})
    for label, mark in (("A|x", "|"), ("B+C", "+")):
        pattern = f"^refs: {label!r} holds {mark!r}".replace("|", r"\|").replace("+", r"\+")
        with pytest.raises(ConfigurationError, match=pattern):
            meta_signature(data, [label], "system", 10, 1)
        with pytest.raises(ConfigurationError, match=pattern):
            meta_evaluate(data, [label], ["unknown-metric"], n_resamples=10)  # refused before the metric is
        with pytest.raises(ConfigurationError, match=pattern):
            meta_evaluate_levels(data, [label], ["unknown-metric"], level="both", n_resamples=10)
    assert signature_parts(meta_signature(data, ["A:1"], "system", 10, 1))["refs"] == "A:1"


def test_a_language_pair_holding_a_bar_is_refused_before_any_work() -> None:
    """A pair is read from the reference files' names (``newstest2021.de|x-en.ref.A.en``):
    ``pair:de|x-en`` read back as ``pair:de`` and a keyless ``x-en``. Now a ConfigurationError
    naming ``pair``, from meta_signature and where a meta-evaluation starts."""
    from paralign.errors import ConfigurationError
    from paralign.metrics.correlation import meta_evaluate
    from paralign.metrics.segment_correlation import meta_evaluate_levels

    data = _pair(pair="de|x-en")
    with pytest.raises(ConfigurationError, match=r"^pair: 'de\|x-en' holds '\|'"):
        meta_signature(data, ["A"], "system", 10, 1)
    with pytest.raises(ConfigurationError, match=r"^pair: 'de\|x-en' holds '\|'"):
        meta_evaluate(data, ["A"], ["unknown-metric"], n_resamples=10)  # refused before the metric is
    with pytest.raises(ConfigurationError, match=r"^pair: 'de\|x-en' holds '\|'"):
        meta_evaluate_levels(data, ["A"], ["unknown-metric"], level="both", n_resamples=10)
    assert signature_parts(meta_signature(_pair(pair="de:x-en"), ["A"], "system", 10, 1))["pair"] == "de:x-en"
