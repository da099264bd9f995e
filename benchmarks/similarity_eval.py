"""Full evaluation of alignment-based similarity (issue 7): STS 2012/2013, STS Benchmark dev, MSRP.

Every sentence is annotated once; each aligner (Sultan et al. 2014 with its default options and
with its paraphrase and paper presets, and the exact-match baseline) aligns each data set once;
every registered signal is then scored on those alignments, and the `features` classifier
(evaluate-paraphrase's default) is trained and tested with the default options and the
paraphrase preset. IDF
signals are fitted on the training side only: STS 2012 (all files) for STS 2013, STS 2012 train
for STS 2012 test, STS Benchmark train for its dev set, MSRP train+val for MSRP test.
On the MSRP training pairs only, every signal x threshold rule is cross-validated (10 folds,
--cv-repeats fold assignments) and compared with the default (paired, bootstrap, McNemar): the
evidence for choosing a rule, signal or aligner preset without looking at the test set (the
presets are cross-validated with the default signal).

    .venv/bin/python benchmarks/similarity_eval.py [--out docs/results/similarity.md] [--workers N]
        [--cache /tmp/paralign-annotations] [--cv-repeats 30] [--cv-bootstrap 50]

Writes the markdown tables into --out (between its BEGIN/END markers; the rest is kept) and the raw figures to --json (default: beside --out).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypedDict

from paralign.aligners.batch import AlignedBatch, align_pairs
from paralign.aligners.exact import exact_match_aligner
from paralign.aligners.registry import get_aligner
from paralign.alignment import AlignFunction
from paralign.corpora.msrp import load_msrp
from paralign.corpora.sts import load_sts
from paralign.nlp import ANNOTATION_VERSION, Annotator, model_name
from paralign.sentence import Sentence
from paralign.settings import data_dir
from paralign.similarity import (
    DEFAULT_SIGNAL,
    DEFAULT_THRESHOLD_RULE,
    PARAPHRASE_PRESET,
    THRESHOLD_RULES,
    CrossValidation,
    cross_validate_model,
    cross_validate_threshold,
    evaluate_feature_rows,
    fit_signal,
    make_signal,
    map_aligned,
    mcnemar,
    paraphrase_from_scores,
    score_aligned,
    sts_from_scores,
    training_sentences,
    weighted_mean,
)
from paralign.similarity.features import (
    ALIGNMENT_FEATURES,
    DEFAULT_FEATURE_SET,
    FEATURE_SETS,
    FEATURES,
    pair_features,
)

SIGNAL_NAMES = ("sultan2014", "sultan2015", "mean-proportion", "idf", "idf2015", "numbers", "all-words")
STS2013 = ("headlines", "OnWN", "FNWN")
STS2012_TEST = ("MSRpar", "OnWN", "SMTeuroparl", "SMTnews")
STS2012_TRAIN = ("MSRpar", "SMTeuroparl")


class PaperFigures(TypedDict):
    """Sultan et al. (2014)'s published figures, in percent."""

    sts2013_mean: float
    msrp: dict[str, float]


PAPER: PaperFigures = {"sts2013_mean": 67.15, "msrp": {"accuracy": 73.4, "precision": 76.6, "recall": 86.4, "f1": 81.2}}


def annotate_all(
    annotator: Annotator, pairs: Sequence[tuple[str, str]], cache: Path | None = None
) -> list[tuple[Sentence, Sentence]]:
    """Annotate pairs; with `cache`, reuse a pickle made from the same texts and model."""
    texts = [x for p in pairs for x in p]
    flat = cached_pipe(annotator, texts, cache)
    return list(zip(flat[0::2], flat[1::2], strict=True))


def cached_pipe(annotator: Annotator, texts: list[str], cache: Path | None) -> list[Sentence]:
    key = None
    if cache is not None:
        digest = hashlib.sha1("\n".join(texts).encode("utf-8"))
        digest.update(repr((annotator.model, annotator.disable, model_name(annotator.nlp), ANNOTATION_VERSION)).encode())
        key = cache / f"{digest.hexdigest()}.pkl"
        if key.exists():
            with open(key, "rb") as handle:
                return pickle.load(handle)
    sentences = list(annotator.pipe(texts))
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        with open(key, "wb") as handle:
            pickle.dump(sentences, handle)
    return sentences


def sentences_of(pairs: Sequence[tuple[Sentence, Sentence]]) -> list[Sentence]:
    return [s for p in pairs for s in p]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/results/similarity.md")
    parser.add_argument("--json", default=None)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--aligners", default="sultan,sultan-paraphrase,sultan-paper,exact",
                        help="sultan (default options), sultan-paraphrase and sultan-paper (presets), exact")
    parser.add_argument("--cache", default=None, help="folder for pickled annotations (re-runs skip spaCy)")
    parser.add_argument("--cv-repeats", type=int, default=30, help="repeats of 10-fold CV on MSRP training")
    parser.add_argument("--cv-bootstrap", type=int, default=50, help="bootstrap resamples of the CV difference")
    args = parser.parse_args(argv)
    root = data_dir()
    if root is None:
        print("corpora not found: set PARALIGN_DATA", file=sys.stderr)
        return 2
    sim = root / "similarity"
    annotator = Annotator()
    log = lambda msg: print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)  # noqa: E731

    # -- data -------------------------------------------------------------------------------
    sts_sets: dict[str, tuple[Path, str]] = {}
    for name in STS2013:
        sts_sets[f"2013 {name}"] = (sim / "sts" / "2013" / f"{name}.test.tsv", "sts2013")
    for name in STS2012_TEST:
        sts_sets[f"2012 {name}"] = (sim / "sts" / "2012" / f"{name}.test.tsv", "sts2012")
    sts_sets["STSB dev"] = (sim / "stsbenchmark" / "sts-dev.csv", "stsb")
    loaded = {name: load_sts(path) for name, (path, _) in sts_sets.items()}
    idf_files = {
        "sts2013": [sim / "sts" / "2012" / f.name for f in sorted((sim / "sts" / "2012").glob("*.tsv"))],
        "sts2012": [sim / "sts" / "2012" / f"{n}.train.tsv" for n in STS2012_TRAIN],
        "stsb": [sim / "stsbenchmark" / "sts-train.csv"],
    }
    msrp_train = load_msrp(sim / "msrp" / "msr-para-train.tsv", sim / "msrp" / "msr-para-val.tsv")
    msrp_test = load_msrp(sim / "msrp" / "msr-para-test.tsv")

    # -- annotation (once) ------------------------------------------------------------------
    t0 = time.perf_counter()
    cache = Path(args.cache) if args.cache else None
    annotated = {
        name: annotate_all(annotator, [(p.sentence1, p.sentence2) for p in d], cache) for name, d in loaded.items()
    }
    annotated["msrp train"] = annotate_all(annotator, [(p.sentence1, p.sentence2) for p in msrp_train], cache)
    annotated["msrp test"] = annotate_all(annotator, [(p.sentence1, p.sentence2) for p in msrp_test], cache)
    lemma_annotator = Annotator(disable=("parser", "ner"))
    idf_sentences: dict[str, list[Sentence]] = {}
    for key, files in idf_files.items():
        texts = [s for f in files for p in load_sts(f) for s in (p.sentence1, p.sentence2)]
        idf_sentences[key] = cached_pipe(lemma_annotator, texts, cache)
    log(f"annotated in {time.perf_counter() - t0:.0f}s")

    aligners: dict[str, AlignFunction | None] = {"sultan": None, "exact": exact_match_aligner}
    aligners.update({f"sultan-{p}": get_aligner("sultan", p) for p in ("paraphrase", "paper")})
    results: dict = {"sts": {}, "msrp": {}, "cv": {}, "timing": {}, "skipped": {}}
    cv_baseline: dict = {}
    preset_baseline: dict = {}
    for name, d in loaded.items():
        results["skipped"][name] = {"rows": len(d.skipped), "notes": len(d.notes)}
    results["skipped"]["msrp train"] = {"rows": len(msrp_train.skipped), "notes": len(msrp_train.notes)}
    results["skipped"]["msrp test"] = {"rows": len(msrp_test.skipped), "notes": len(msrp_test.notes)}

    for aligner_name in args.aligners.split(","):
        aligner = aligners[aligner_name]
        batches: dict[str, AlignedBatch] = {}
        t0 = time.perf_counter()
        for name, pairs in annotated.items():
            batches[name] = align_pairs(pairs, aligner=aligner, workers=args.workers)
            log(f"{aligner_name}: aligned {name} ({len(pairs)} pairs, {len(batches[name].failures)} failed)")
        results["timing"][aligner_name] = time.perf_counter() - t0
        for signal_name in SIGNAL_NAMES:
            base = make_signal(signal_name)
            per_set = {}
            for name, (_, group) in sts_sets.items():
                signal = fit_signal(base, idf_sentences[group])
                scored = score_aligned(batches[name], signal)
                ev = sts_from_scores(scored.scores, [p.score for p in loaded[name]], scored.failures, signal.name)
                per_set[name] = ev.to_dict()
            results["sts"][f"{aligner_name}/{signal_name}"] = per_set
            signal = fit_signal(base, training_sentences(batches["msrp train"]))
            train_scores = score_aligned(batches["msrp train"], signal)
            test_scores = score_aligned(batches["msrp test"], signal)
            msrp_ev = paraphrase_from_scores(
                train_scores.scores, msrp_train.labels, test_scores.scores, msrp_test.labels, signal.name
            )
            results["msrp"][f"{aligner_name}/{signal_name}"] = msrp_ev.to_dict()
            if aligner_name == "sultan" or (aligner_name.startswith("sultan-") and signal_name == DEFAULT_SIGNAL):
                cv_key = signal_name if aligner_name == "sultan" else f"{aligner_name}/{signal_name}"
                train_labels = msrp_train.labels
                kept = [(s, g) for s, g in zip(train_scores.scores, train_labels, strict=True) if s is not None]
                results["cv"][cv_key] = cross_validate_signal(
                    [s for s, _ in kept], [g for _, g in kept], args.cv_repeats, args.cv_bootstrap, cv_baseline
                )
                if aligner_name == "sultan" and signal_name == DEFAULT_SIGNAL:
                    cv_baseline.update(values=[s for s, _ in kept], labels=[g for _, g in kept])
                if aligner_name == f"sultan-{PARAPHRASE_PRESET}" and signal_name == DEFAULT_SIGNAL:
                    preset_baseline.update(values=[s for s, _ in kept])
                log(f"{aligner_name}: cross-validated {signal_name} on MSRP training")
        if aligner_name in ("sultan", f"sultan-{PARAPHRASE_PRESET}"):
            features_classifier(results, aligner_name, batches, msrp_train.labels, msrp_test.labels, args,
                                cv_baseline, preset_baseline)
            log(f"{aligner_name}: features classifier trained, tested and cross-validated")
        log(f"{aligner_name}: scored")

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    json_path = Path(args.json) if args.json else out.with_suffix(".json")
    json_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write_block(out, render(results, sts_sets))
    log(f"wrote {out} and {json_path}")
    return 0


FOLDS = 10
FEATURES_KEY = "features"
#: The feature sets this benchmark measures: those its rows (:func:`pair_features`, the lexical
#: FEATURES) hold. The set with embedding features needs the neural extra's encoder and is
#: measured by benchmarks/neural_similarity.py.
LEXICAL_SETS = {name: names for name, names in FEATURE_SETS.items() if set(names) <= set(FEATURES)}


def features_key(feature_set: str) -> str:
    """Row name of the ``features`` classifier with one feature set, e.g. ``features:alignment``."""
    return f"{FEATURES_KEY}:{feature_set}"


def features_classifier(
    results: dict, aligner_name: str, batches: dict[str, AlignedBatch], train_labels: list[bool],
    test_labels: list[bool], args: argparse.Namespace, cv_baseline: dict, preset_baseline: dict,
) -> None:
    """The ``features`` classifier (evaluate-paraphrase's default) with each feature set on one
    aligner's MSRP batches: test figures and CV against the default signal. For the paraphrase
    preset also the two comparisons that decided the default: the alignment features against
    the preset's single signal (fifth session), and alignment+mt against alignment (sixth)."""
    # every feature once per pair; each set's rows are a choice of columns
    train_all, _ = map_aligned(batches["msrp train"], pair_features, "features")
    test_all, _ = map_aligned(batches["msrp test"], pair_features, "features")
    set_rows: dict[str, list] = {}
    for set_name, names in LEXICAL_SETS.items():
        rows = select_features(train_all, names)
        ev = evaluate_feature_rows(rows, train_labels, select_features(test_all, names), test_labels,
                                   DEFAULT_THRESHOLD_RULE, 0, 1.0, names)
        key = f"{aligner_name}/{features_key(set_name)}"
        results["msrp"][key] = replace(ev, feature_set=set_name).to_dict()
        kept = [(r, g) for r, g in zip(rows, train_labels, strict=True) if r is not None]
        rows_kept, labels_kept = [r for r, _ in kept], [g for _, g in kept]
        set_rows[set_name] = rows_kept
        results["cv"][key if aligner_name != "sultan" else features_key(set_name)] = cross_validate_signal(
            rows_kept, labels_kept, args.cv_repeats, args.cv_bootstrap, cv_baseline, features=names
        )
    if preset_baseline and aligner_name == f"sultan-{PARAPHRASE_PRESET}":
        only_default = (DEFAULT_THRESHOLD_RULE,)
        results["features_vs_preset"] = cross_validate_signal(
            set_rows["alignment"], labels_kept, args.cv_repeats, args.cv_bootstrap, preset_baseline,
            features=ALIGNMENT_FEATURES, rules=only_default,
        )["rules"][DEFAULT_THRESHOLD_RULE]
        results["mt_vs_alignment"] = cross_validate_signal(
            set_rows[DEFAULT_FEATURE_SET], labels_kept, args.cv_repeats, args.cv_bootstrap,
            {"values": set_rows["alignment"], "features": ALIGNMENT_FEATURES},
            features=FEATURE_SETS[DEFAULT_FEATURE_SET], rules=only_default,
        )["rules"][DEFAULT_THRESHOLD_RULE]


def select_features(rows: list, names: Sequence[str]) -> list:
    """The `names` columns of rows of all :data:`FEATURES` (None rows stay None)."""
    columns = [FEATURES.index(name) for name in names]
    return [None if r is None else [r[c] for c in columns] for r in rows]


def auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Area under the ROC curve (probability that a paraphrase outscores a non-paraphrase)."""
    from scipy.stats import rankdata

    ranks = rankdata(scores)
    pos = sum(labels)
    neg = len(labels) - pos
    return (sum(r for r, g in zip(ranks, labels, strict=True) if g) - pos * (pos + 1) / 2) / (pos * neg)


def cross_validate_signal(
    values: Sequence, labels: list[bool], repeats: int, bootstrap: int, baseline: dict,
    *, features: Sequence[str] | None = None, rules: Sequence[str] = tuple(THRESHOLD_RULES),
) -> dict:
    """Every threshold rule cross-validated on the training scores (10 folds, `repeats` seeds),
    compared with the baseline's scores + default rule on the same folds: paired difference over
    repeats, McNemar on the first repeat's held-out predictions, and the bootstrap SD of the CV
    accuracy difference (pairs resampled, same resample and folds for both sides).

    With `features` the values are feature rows (those columns) of the ``features`` classifier,
    refitted on every fold (:func:`cross_validate_model`); its AUC is not reported (in-sample
    probabilities). The baseline is ``{"values": ...}`` and, for a model, ``"features"``."""
    import random

    def cv_of(vals: Sequence, labs: list[bool], rule: str, names: Sequence[str] | None, **kw: int) -> CrossValidation:
        if names is not None:
            return cross_validate_model(vals, labs, rule, features=names, folds=FOLDS, **kw)
        return cross_validate_threshold(vals, labs, rule, folds=FOLDS, **kw)

    base_values, base_features = baseline.get("values", values), baseline.get("features")
    base_cv = cv_of(base_values, labels, DEFAULT_THRESHOLD_RULE, base_features, repeats=repeats)
    out: dict = {"auc": None if features is not None else auc(values, labels), "rules": {}}
    for rule in rules:
        cv = cv_of(values, labels, rule, features, repeats=repeats)
        diff, se = cv.paired_difference(base_cv)
        only_new, only_base, p = mcnemar(cv.held_out, base_cv.held_out, labels)
        rng = random.Random(0)
        boot = []
        for b in range(bootstrap):
            idx = [rng.randrange(len(labels)) for _ in labels]
            lab = [labels[k] for k in idx]
            new = cv_of([values[k] for k in idx], lab, rule, features, seed=1000 + b)
            old = cv_of([base_values[k] for k in idx], lab, DEFAULT_THRESHOLD_RULE, base_features, seed=1000 + b)
            boot.append(new.accuracy - old.accuracy)
        mean_boot = sum(boot) / len(boot) if boot else 0.0
        sd = (sum((d - mean_boot) ** 2 for d in boot) / (len(boot) - 1)) ** 0.5 if len(boot) > 1 else 0.0
        out["rules"][rule] = {
            **cv.to_dict(),
            "diff": diff,
            "diff_se_repeats": se,
            "diff_sd_bootstrap": sd,
            "mcnemar": {"only_this": only_new, "only_default": only_base, "p": p},
        }
    return out


BEGIN, END = "<!-- BEGIN similarity_eval -->", "<!-- END similarity_eval -->"


def write_block(path: Path, tables: str) -> None:
    """Replace the generated block of `path` (between BEGIN/END markers) or append it."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{tables}{END}\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1].lstrip("\n")
    else:
        text = text + ("\n" if text else "") + block
    path.write_text(text, encoding="utf-8")


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.2f}"


def render(results: dict, sts_sets: dict[str, tuple[Path, str]]) -> str:
    lines = ["(generated by `benchmarks/similarity_eval.py`)", ""]
    keys = list(results["sts"])
    groups = (("**STS 2013 mean** (paper 67.15)", "sts2013"), ("STS 2012 mean", "sts2012"))
    for measure, title in (("pearson", "### STS: Pearson ×100 per set (gold: SemEval); size-weighted means"),
                           ("spearman", "Spearman ×100 (same runs):")):
        lines += [title, ""]
        lines.append("| aligner/signal | " + " | ".join(sts_sets) + " | " + " | ".join(g for g, _ in groups) + " |")
        lines.append("|---|" + "---:|" * (len(sts_sets) + len(groups)))
        if measure == "pearson":
            first = results["sts"][keys[0]]
            sizes = [str(first[name]["pairs"]) for name in sts_sets]
            means = [str(sum(first[n]["pairs"] for n, (_, g) in sts_sets.items() if g == group)) for _, group in groups]
            lines.append("| pairs | " + " | ".join(sizes + means) + " |")
        for k in keys:
            per_set = results["sts"][k]
            row = [_pct(per_set[name][measure]) for name in sts_sets]
            for _, group in groups:
                names = [n for n, (_, g) in sts_sets.items() if g == group]
                row.append(_pct(weighted_mean([(per_set[n][measure], per_set[n]["pairs"]) for n in names])))
            lines.append(f"| {k} | " + " | ".join(row) + " |")
        lines.append("")
    lines += ["### MSRP test (threshold chosen on the 4,076 training pairs; P/R/F1 of the paraphrase class)", "",
              f"`{FEATURES_KEY}:SET` rows: the `features` classifier with one feature set "
              f"(evaluate-paraphrase's default: `{FEATURES_KEY}:{DEFAULT_FEATURE_SET}`), whose threshold "
              "is on the probability of its logistic model.", ""]
    lines.append("| aligner/signal | threshold | accuracy | precision | recall | F1 | train accuracy |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    p = PAPER["msrp"]
    lines.append(f"| paper (Sultan et al. 2014) | | {p['accuracy']} | {p['precision']} | {p['recall']} | {p['f1']} | |")
    for k, r in results["msrp"].items():
        lines.append(
            f"| {k} | {r['threshold']:.4f} | {_pct(r['accuracy'])} | {_pct(r['precision'])} | "
            f"{_pct(r['recall'])} | {_pct(r['f1'])} | {_pct(r['train']['accuracy'])} |"
        )
    if results.get("cv"):
        lines += render_cv(results["cv"], results["sts"])
    preset = f"sultan-{PARAPHRASE_PRESET}"
    for name, new, old, what in (
        ("features_vs_preset", features_key("alignment"), DEFAULT_SIGNAL, "made the features classifier evaluate-paraphrase's default"),
        ("mt_vs_alignment", features_key(DEFAULT_FEATURE_SET), features_key("alignment"), "added the MT-overlap features to it"),
    ):
        versus = results.get(name)
        if versus:
            lines += [
                "",
                f"`{preset}/{new}` against `{preset}/{old}`, both with `{DEFAULT_THRESHOLD_RULE}` (the comparison "
                f"that {what}; same folds): Δ CV accuracy {100 * versus['diff']:+.2f}, boot SD "
                f"{100 * versus['diff_sd_bootstrap']:.2f}, McNemar "
                f"{versus['mcnemar']['only_this']}/{versus['mcnemar']['only_default']} p={versus['mcnemar']['p']:.3f}.",
            ]
    lines += ["", "Alignment time (all sets, both splits of MSRP): " + ", ".join(f"{k} {v:.0f}s" for k, v in results["timing"].items()), ""]
    return "\n".join(lines) + "\n"


def render_cv(cv: dict, sts: dict) -> list[str]:
    """The cross-validation table: every signal x threshold rule on the MSRP training pairs."""
    first = next(iter(cv.values()))["rules"][DEFAULT_THRESHOLD_RULE]
    lines = [
        "",
        f"### MSRP training: {FOLDS}-fold cross-validation ({first['repeats']} repeats; never the test set)",
        "",
        f"Held-out predictions of every fold pooled; mean over {first['repeats']} stratified fold assignments "
        f"(seeds 0-{first['repeats'] - 1}). Δ: accuracy difference to `{DEFAULT_SIGNAL}` + `{DEFAULT_THRESHOLD_RULE}` "
        "on the same folds; boot SD: standard deviation of that difference over bootstrap resamples of the "
        "training pairs; McNemar: pairs only this / only the default gets right (first repeat) and exact p. "
        "AUC: threshold-free separation of the training pairs. STS 2013: weighted mean Pearson (same aligner). "
        "Rows named `sultan-paraphrase/...` and `sultan-paper/...` use the aligner's presets; the others its "
        "default options.",
        "",
        "| signal | AUC | STS 2013 | rule | CV accuracy | ± sd | P | R | F1 | Δ accuracy | boot SD | McNemar | mean threshold |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for signal, entry in cv.items():
        per_set = sts.get(signal if "/" in signal else f"sultan/{signal}", {})
        names = [n for n in per_set if n.startswith("2013")]
        m13 = weighted_mean([(per_set[n]["pearson"], per_set[n]["pairs"]) for n in names]) if names else None
        for rule, r in entry["rules"].items():
            m = r["mcnemar"]
            lines.append(
                f"| {signal} | {_pct(entry['auc'])} | {_pct(m13)} | {rule} | {_pct(r['accuracy'])} | "
                f"{_pct(r['accuracy_sd'])} | {_pct(r['precision'])} | {_pct(r['recall'])} | {_pct(r['f1'])} | "
                f"{100 * r['diff']:+.2f} | {100 * r['diff_sd_bootstrap']:.2f} | "
                f"{m['only_this']}/{m['only_default']} p={m['p']:.2f} | {r['mean_threshold']:.4f} |"
            )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
