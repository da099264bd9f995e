"""The JSON API: each route's answer (align, similarity, ParaEval, lattice), as the command line gives it."""

from __future__ import annotations

import json

import pytest

PAIR = {"source": "The cat sat on the mat.", "target": "A cat was sitting on the mat."}


def test_align_gives_tokens_links_with_words_and_an_svg_grid(client) -> None:
    import xml.etree.ElementTree as ET

    answer = client.post("/api/align", json={**PAIR, "picture": True})
    assert answer.status_code == 200
    data = answer.json()
    assert data["source_tokens"] == ["The", "cat", "sat", "on", "the", "mat", "."]
    links = {(link["i"], link["j"]): (link["source"], link["target"]) for link in data["links"]}
    assert links[(1, 1)] == ("cat", "cat") and links[(5, 6)] == ("mat", "mat")
    assert data["pharaoh"].split() == [f"{i}-{j}" for i, j in sorted(links)]
    svg = ET.fromstring(data["svg"])
    cells = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if "link" in g.get("class", "").split()]
    assert {(int(g.get("data-i")), int(g.get("data-j"))) for g in cells} == set(links)
    assert client.post("/api/align", json=PAIR).json()["svg"] is None


def test_presets_and_the_exact_aligner(client) -> None:
    exact = client.post("/api/align", json={**PAIR, "aligner": "exact"}).json()
    assert exact["aligner"] == "exact"
    assert all(link["source"].lower() == link["target"].lower() for link in exact["links"])
    paper = client.post("/api/align", json={**PAIR, "preset": "paper"}).json()
    assert paper["aligner"] == "sultan:paper"
    assert exact["signature"].startswith("aligner:exact|spacy:")
    assert paper["signature"].startswith("aligner:sultan:paper|sim:ppdb-1.0-xxxl-lexical|spacy:")
    refused = client.post("/api/align", json={**PAIR, "preset": "nope"})
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == "preset"


def test_the_contextual_aligner_is_named_as_the_library_names_it(client, engine) -> None:
    """The aligner "contextual" is the sultan aligner's contextual preset: the library and the CLI
    name it sultan:contextual (aligner_label; `similarity --aligner contextual --format json`), as
    the API does for the preset. The API named it "contextual" in /api/align's and
    /api/similarity's "aligner" (the signature said sultan:contextual), and the pages so."""
    from paralign.aligners.registry import aligner_label, get_aligner

    if "contextual" in engine.missing_aligners:
        pytest.skip(engine.missing_aligners["contextual"])
    named = aligner_label(get_aligner("contextual"))
    assert named == "sultan:contextual"
    for body in ({**PAIR, "aligner": "contextual"}, {**PAIR, "preset": "contextual"}):
        for route in ("/api/align", "/api/similarity"):
            answer = client.post(route, json=body).json()
            assert answer["aligner"] == named, (route, body)
            assert f"aligner:{named}|" in answer["signature"]
    page = client.get("/align", params={**PAIR, "aligner": "contextual"}).text
    assert f"aligner {named}:" in page


def test_similarity_scores_every_signal_from_one_alignment(client) -> None:
    data = client.post("/api/similarity", json=PAIR).json()
    info = client.get("/api/info").json()
    assert set(data["scores"]) == set(info["signals"]) and "sultan2014" in data["scores"]
    assert all(0.0 <= v <= 1.0 for v in data["scores"].values() if v is not None)
    assert data["scores"]["sultan2014"] == 1.0  # every content word aligns
    signature = dict(part.split(":", 1) for part in data["signature"].split("|"))
    assert set(signature["signal"].split("+")) == set(data["scores"]) and signature["aligner"] == "sultan:default"
    different = client.post("/api/similarity", json={"source": "Prices rose.", "target": "The dog barked."})
    assert different.json()["scores"]["sultan2014"] == 0.0


def test_the_shipped_hybrid_with_another_aligner_comes_with_a_note(client) -> None:
    """The hybrid blend was fitted on sultan:default alignments: with that aligner no note, with
    the exact aligner one note naming both (the score is still given), as the CLI warns."""
    if "hybrid" not in client.get("/api/info").json()["signals"]:
        pytest.skip("the neural extra is not installed (no hybrid signal)")
    assert client.post("/api/similarity", json=PAIR).json()["notes"] == []
    exact = client.post("/api/similarity", json={**PAIR, "aligner": "exact"}).json()
    assert exact["scores"]["hybrid"] is not None
    assert len(exact["notes"]) == 1 and "fitted on sultan:default" in exact["notes"][0]
    assert "aligned by exact" in exact["notes"][0]


def test_paraeval_paper_spans_cover_the_hypothesis_with_tiers(client) -> None:
    data = client.post("/api/paraeval", json={"hypothesis": "the cat sat on the mat", "config": "paper",
                                              "references": ["a feline sat on the mat"]}).json()
    assert data["config"] == "paper" and data["score"] is None and data["graded"] is None
    assert data["tokens"] == ["the", "cat", "sat", "on", "the", "mat"]
    spans = data["spans"]
    assert [s["start"] for s in spans] == sorted(s["start"] for s in spans)
    assert sum(s["end"] - s["start"] for s in spans) == len(data["tokens"])
    tiers = {s["text"]: s["tier"] for s in spans}
    assert tiers["cat"] == "synonym"  # from the --table file: cat -> feline
    assert tiers["mat"] == "exact"
    assert 0 < data["precision"] <= 1 and data["counts"]["hyp_words"] == 6
    assert "small.tsv" in data["signature"]


def test_paraeval_default_config_shows_its_matches_by_tier(client) -> None:
    """The default config's per-tier view: each match's words on both sides, tier, grade and
    weight; the chunks; and the statistics they add up to (the score's own)."""
    body = {"hypothesis": "the cat sat on the mat", "references": ["a dog barked", "a feline sat on the mat"]}
    data = client.post("/api/paraeval", json=body).json()
    assert data["config"] == "default" and data["signature"].startswith("nrefs:2|config:default|")
    graded = data["graded"]
    assert graded["reference"] == 1 and len(graded["reference_scores"]) == 2
    assert graded["reference_scores"][1] == data["score"] > graded["reference_scores"][0]
    assert graded["reference_tokens"] == ["a", "feline", "sat", "on", "the", "mat"]
    found = {(m["hypothesis"], m["reference"]): (m["tier"], m["grade"], m["weight"]) for m in graded["matches"]}
    assert found[("cat", "feline")] == ("paraphrase", 0.8, 0.8)  # the --table file's probability, the tier's weight
    assert found[("mat", "mat")] == ("exact", 1.0, 1.0)
    counts = data["counts"]
    for tier in ("exact", "stem", "synonym", "paraphrase"):
        hyp = sum(m["grade"] * (m["hyp_end"] - m["hyp_start"]) for m in graded["matches"] if m["tier"] == tier)
        assert hyp == pytest.approx(counts[f"{tier}_hc"] + counts[f"{tier}_hf"]), tier
    assert [c["text"] for c in graded["chunks"]] == ["the", "cat sat on", "mat"]  # 'the' took the reference's 'the'
    assert len(graded["chunks"]) == counts["chunks"]
    assert sum(c["end"] - c["start"] for c in graded["chunks"]) == counts["matches"]
    assert graded["penalty"] == pytest.approx(0.6 * (counts["chunks"] / counts["matches"]) ** 0.2)
    assert data["score"] == pytest.approx(graded["fmean"] * (1 - graded["penalty"]))
    assert [(s["text"], s["tier"]) for s in data["spans"]] == [
        ("the", "exact"), ("cat", "paraphrase"), ("sat", "exact"), ("on", "exact"), ("the", "unmatched"), ("mat", "exact")]


def test_paraeval_config_is_checked(client, engine, monkeypatch) -> None:
    body = {"hypothesis": "the cat", "references": ["a cat"]}
    refused = client.post("/api/paraeval", json={**body, "config": "meteor"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == [{"field": "config",
                                         "message": "must be default, contextual or paper"}]
    assert client.post("/api/paraeval", json={**body, "config": ["paper"]}).status_code == 422
    assert client.get("/api/info").json()["paraeval_configs"] == engine.paraeval_configs
    assert engine.paraeval_configs[0] == "default" and "paper" in engine.paraeval_configs
    # a server without the neural extra does not offer contextual, and says why when asked
    monkeypatch.setitem(engine.missing, "contextual", "ParaEval's contextual config needs the optional extra 'neural'")
    monkeypatch.delitem(engine.graded, "contextual", raising=False)
    assert "contextual" not in client.get("/api/info").json()["paraeval_configs"]
    answer = client.post("/api/paraeval", json={**body, "config": "contextual"})
    assert answer.status_code == 422 and "optional extra 'neural'" in answer.json()["error"]


def test_lattice_of_two_sentences(client) -> None:
    data = client.post("/api/lattice", json={"sentences": ["the cat sat on the mat", "a cat sat on the rug"],
                                             "picture": True}).json()
    assert data["paths"] == "4" and len(data["some_paths"]) == 4
    assert "the cat sat on the mat" in data["some_paths"] and "a cat sat on the rug" in data["some_paths"]
    assert {e["word"] for e in data["edges"]} >= {"cat", "mat", "rug"}
    assert data["svg"].startswith("<svg")


def test_text_comes_back_as_data_not_markup(client) -> None:
    script = "<script>alert(1)</script> & co"
    data = client.post("/api/align", json={"source": script, "target": "alert it", "picture": True}).json()
    assert "<script>" in "".join(data["source_tokens"]) or "script" in data["source_tokens"]
    assert "<script>" not in data["svg"] and "&lt;" in data["svg"]


@pytest.mark.parametrize("config", ["default", "paper", "contextual", None])
def test_paraeval_gives_the_segment_figures_of_the_cli(client, engine, table_path, tmp_path, config) -> None:
    """The API scores a segment as `paralign paraeval --config NAME --sentence-level` does with
    the same sources (the default config when none is named, as the command line): the same
    numbers, counts and signature. It scored with the paper config only, which the command line
    does not by default."""
    from paralign.cli import main

    if config is not None and config not in engine.paraeval_configs:
        pytest.skip(f"this server does not offer the {config} config: {engine.missing.get(config)}")
    hypothesis, references = "he bought two apples for three dollars", ["he paid 3 dollars for 2 apples",
                                                                       "he purchased two apples for 3 bucks"]
    (tmp_path / "hyp.txt").write_text(hypothesis + "\n", encoding="utf-8")
    argv = ["paraeval", "-i", str(tmp_path / "hyp.txt"), "--table", str(table_path), "--sentence-level",
            "--format", "json", "-o", str(tmp_path / "out.json")]
    for k, reference in enumerate(references):
        (tmp_path / f"ref{k}.txt").write_text(reference + "\n", encoding="utf-8")
        argv += ["-r", str(tmp_path / f"ref{k}.txt")]
    assert main(argv + (["--config", config] if config else [])) == 0
    cli = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["segments"][0]
    body = {"hypothesis": hypothesis, "references": references, **({"config": config} if config else {})}
    api = client.post("/api/paraeval", json=body).json()
    assert api["config"] == (config or "default")
    for key in ("precision", "recall", "f", "signature", "counts"):
        assert api[key] == cli[key], key
    assert api["score"] == cli.get("score")  # the paper config has no headline score but F
    if config != "paper":
        assert f"config:{config or 'default'}|" in api["signature"] and api["graded"]["matches"]
    summary = client.get("/openapi.json").json()["paths"]["/api/paraeval"]["post"]["summary"]
    assert "paralign paraeval --config NAME --sentence-level" in summary and "default config by default" in summary


def test_spaces_around_a_sentence_change_nothing_as_on_the_command_line(client, tmp_path) -> None:
    """A sentence pasted with a space before it was aligned with a whitespace token first: the
    page's grid had an empty first row and every index moved by one (Pharaoh ``1-0 2-1 ...``
    where ``paralign align`` prints ``0-0 1-1 ...`` for the same pair, as it strips each side);
    the lattice API drew whitespace edges. Now a text's surrounding spaces are dropped."""
    from paralign.cli import main

    padded = {"source": "  The cat sat on the mat. ", "target": "\tA cat was sitting on the mat.\n"}
    (tmp_path / "pair.jsonl").write_text(json.dumps(padded) + "\n", encoding="utf-8")
    assert main(["align", "--format", "json", "-o", str(tmp_path / "out.jsonl"), str(tmp_path / "pair.jsonl")]) == 0
    cli = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    api = client.post("/api/align", json=padded).json()
    assert api["source_tokens"] == cli["source"] == ["The", "cat", "sat", "on", "the", "mat", "."]
    assert api["target_tokens"] == cli["target"] and api["pharaoh"] == cli["alignment"]
    assert client.post("/api/similarity", json=padded).json()["source_tokens"] == cli["source"]
    lattice = client.post("/api/lattice", json={"sentences": ["  the cat sat ", "a cat sat\t"]}).json()
    assert {e["word"] for e in lattice["edges"]} == {"the", "a", "cat", "sat"}
    assert sorted(lattice["some_paths"]) == ["a cat sat", "the cat sat"]
    assert client.post("/api/paraphrases", json={"phrase": " cat ", "table": "small.tsv"}).json()["phrase"] == "cat"


#: Pairs whose tokens spaCy splits in ways worth checking (contractions, quotes, abbreviations,
#: times, a character reference that stands for a space).
EXACT_PAIRS = [("The cat sat on the mat.", "A cat was sitting on the mat."),
               ("Don't stop: \"it's fine\", she said.", "She said it's fine&nbsp;& don't STOP!"),
               ("U.S. officials met at 3:30 p.m. on Jan. 5th.", "Officials of the U.S. met on 5 January at 3:30.")]


def test_the_exact_aligner_reads_tokens_alone_and_answers_as_the_command_line(client, engine, tmp_path, capsys,
                                                                               monkeypatch) -> None:
    """/api/align and /api/similarity with the exact aligner ran the whole spaCy parse for each
    pair, where `paralign align --aligner exact` and `paralign similarity --aligner exact` (for a
    signal that reads tokens alone) tokenise only: now the engine does too (no parse: the
    pipeline's annotation is made to fail here), with the command line's tokens, links, scores
    and signatures. A server one of whose signals reads more than tokens (the hybrid, of the
    session's engine) still parses for /api/similarity, as the command line does for that
    signal, and gives the same scores."""
    import dataclasses

    from fastapi.testclient import TestClient

    import paralign.nlp
    from paralign.cli import main
    from paralign.web import create_app

    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{s}\t{t}\n" for s, t in EXACT_PAIRS), encoding="utf-8")
    assert main(["align", str(path), "--aligner", "exact", "--format", "json"]) == 0
    aligned = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["similarity", "--pairs", str(path), "--aligner", "exact", "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["failures"] == [] and engine.parses("exact", scored=True)  # the hybrid reads more than tokens
    for (s, t), score in zip(EXACT_PAIRS, scored["scores"], strict=True):
        parsed = client.post("/api/similarity", json={"source": s, "target": t, "aligner": "exact"}).json()
        assert parsed["scores"]["sultan2014"] == score and parsed["aligner"] == "exact"

    def parse(*args, **kwargs):
        raise AssertionError("the pair was parsed")

    monkeypatch.setattr(paralign.nlp, "annotate_many", parse)
    tokens_only = dataclasses.replace(engine, signals={"sultan2014": engine.signals["sultan2014"]})
    with TestClient(create_app(engine=tokens_only)) as tokens_client:
        for (s, t), line, score in zip(EXACT_PAIRS, aligned, scored["scores"], strict=True):
            pair = {"source": s, "target": t, "aligner": "exact"}
            answer = client.post("/api/align", json=pair).json()
            assert [[link["i"], link["j"]] for link in answer["links"]] == line["links"]
            assert ((answer["source_tokens"], answer["target_tokens"], answer["pharaoh"], answer["signature"])
                    == (line["source"], line["target"], line["alignment"], line["signature"]))
            similar = tokens_client.post("/api/similarity", json=pair).json()
            assert similar["scores"] == {"sultan2014": score} and similar["aligner"] == scored["aligner"] == "exact"
            assert similar["signature"] == scored["signature"] and similar["source_tokens"] == line["source"]
