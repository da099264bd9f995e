"""WMT21 loader (synthetic layout and the real data) and the meta-evaluation on a subset."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from paralign.cli.meta_eval import render
from paralign.corpora.wmt import (
    iter_lines,
    language_pairs,
    load_human_scores,
    load_wmt,
    system_files,
    wmt_dir,
)
from paralign.errors import FormatError, MismatchError, ResourceMissingError
from paralign.metrics.correlation import meta_evaluate, resolve_metrics
from paralign.metrics.paraeval import ParaEval


def _fake(tmp_path: Path, hyp_lines: int = 3) -> Path:
    root = tmp_path / "wmt"
    for sub in ("references", "system-outputs", "sources"):
        (root / "txt" / sub).mkdir(parents=True)
    (root / "humaneval").mkdir()
    refs = root / "txt" / "references"
    (refs / "newstest2021.xx-en.ref.A.en").write_bytes(b"a b\nc\rd\ne f\n")
    (refs / "newstest2021.xx-en.ref.B.en").write_bytes(b"a b\nc d\ne f")
    outs = root / "txt" / "system-outputs"
    for name in ("Allegro.eu", "Nemo-X", "Other", "Unranked"):
        (outs / f"newstest2021.xx-en.hyp.{name}.en").write_text("a b\nc d\ne\n", encoding="utf-8")
    (outs / "newstest2021.xx-en.hyp.Other.en").write_text("x\n" * hyp_lines, encoding="utf-8")
    (root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv").write_text(
        "70.1 0.2 10 12 Allegro.eu.3 Allegro.eu\n"
        "69 0.1 10 12 Nemo.1 Nemo-X\n"
        "60 -0.1 10 12 HUMAN.0 HUMAN\n"
        "50 -0.3 10 12 Other.2 Other\n"
        "40 -0.4 10 12 Gone.4 Gone\n", encoding="utf-8")
    return root


def test_synthetic_layout_and_traps(tmp_path):
    root = _fake(tmp_path)
    assert language_pairs(root) == ["xx-en"]
    assert "Allegro.eu" in system_files(root, "xx-en")  # dots in names
    data = load_wmt(root, "xx-en")
    assert len(data) == 3
    assert data.references["A"][1] == "c\rd"  # split on LF only
    assert data.references["B"][2] == "e f"  # no final newline
    assert set(data.systems) == {"Allegro.eu", "Nemo-X", "Other"}  # joined on NAME
    assert "HUMAN" not in data.human and data.unscored == ("Unranked",)
    assert data.missing == ("Gone",)
    assert data.human["Nemo-X"].sys_id == "Nemo.1" and data.human["Nemo-X"].z == 0.1
    assert "HUMAN" in load_human_scores(root, "xx-en", include_human=True)
    assert load_wmt(root, "xx-en", refs=["B"]).reference_streams(["B"])[0][0] == "a b"
    with pytest.raises(MismatchError, match="no reference 'C'"):
        load_wmt(root, "xx-en", refs=["C"])


def test_line_count_mismatch_names_the_file(tmp_path):
    root = _fake(tmp_path, hyp_lines=4)
    with pytest.raises(MismatchError, match=r"hyp\.Other\.en: 4 lines, expected 3"):
        load_wmt(root, "xx-en")


def test_bad_human_scores_and_missing_folder(tmp_path):
    root = _fake(tmp_path)
    (root / "humaneval" / "ad-sys-ranking-xx-en-z-names.csv").write_text(
        "70 0.2 10 12 A.1 A\nseventy 0.1 1 1 B.1 B\n", encoding="utf-8")
    with pytest.raises(FormatError, match="z-names.csv:2"):
        load_human_scores(root, "xx-en")
    with pytest.raises(ResourceMissingError):
        wmt_dir(tmp_path / "nowhere")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"ok\ncaf\xe9\n")
    with pytest.raises(FormatError, match="latin1.txt:2"):
        list(iter_lines(bad))


def test_real_counts(data):
    assert language_pairs(data / "mt" / "wmt21-toEnglish") == ["cs-en", "de-en", "ru-en"]
    expected = {"cs-en": 8, "de-en": 19, "ru-en": 10}  # README: systems with outputs
    for pair, n_systems in expected.items():
        wmt = load_wmt(data / "mt" / "wmt21-toEnglish", pair)
        assert len(wmt) == 1000 and set(wmt.references) == {"A", "B"}
        assert len(wmt.systems) == n_systems and not wmt.unscored and not wmt.missing
        assert "HUMAN" not in wmt.human
    de = load_wmt(data, "de-en")
    assert de.human["NVIDIA-NeMo"].sys_id == "Nemo.7"
    assert de.human["HuaweiTSC"].z == pytest.approx(-0.12)


def test_meta_evaluation_on_a_subset(data):
    full = load_wmt(data, "cs-en")
    n = 120
    sub = replace(full, references={k: v[:n] for k, v in full.references.items()},
                  systems={k: v[:n] for k, v in full.systems.items()})
    metrics = resolve_metrics(["bleu", "chrf", "mup", "paraeval"], ParaEval([]))
    result = meta_evaluate(sub, ["A", "B"], metrics, n_resamples=60, seed=1)
    names = list(result.metrics)
    assert names == ["bleu", "chrf", "mup", "paraeval_p", "paraeval_r", "paraeval_f"]
    refs = [list(r) for r in sub.reference_streams(["A", "B"])]
    for system, hyps in sub.systems.items():
        assert result.metrics["bleu"].scores[system] == pytest.approx(
            BLEU().corpus_score(list(hyps), refs).score)
    payload = result.to_dict()
    for name in names:
        for kind in ("pearson", "spearman", "kendall"):
            cell = payload["metrics"][name][kind]
            assert -1 <= cell["value"] <= 1 and cell["low"] <= cell["high"]
    assert set(payload["metrics"]["paraeval_f"]["vs"]) == {"bleu", "chrf"}
    assert "nrefs:2|res:none" in payload["signatures"]["paraeval_f"]
    text = render(result)
    assert text.splitlines()[0] == "cs-en refs A+B: 8 systems, 60 resamples (seed 1)"
    assert any(line.startswith("paraeval_f") for line in text.splitlines())
