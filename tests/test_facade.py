"""The package facade: every name in __all__ resolves, and heavy parts load lazily."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import paralign


@pytest.mark.parametrize("name", paralign.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(paralign, name) is not None


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        paralign.no_such_thing  # noqa: B018


def test_paralign_align_says_what_to_call() -> None:
    """``paralign.align(x, y)``, as the command ``paralign align`` is named, was "module 'paralign'
    has no attribute 'align'", nothing more: it now names the Aligner's align (and still is an
    AttributeError, so ``hasattr`` and ``getattr(paralign, "align", None)`` work as before)."""
    with pytest.raises(AttributeError, match=r"no attribute 'align': use an Aligner's align: aligner = "
                                             r"paralign\.Aligner\(\); aligner\.align\(source, target\)") as caught:
        paralign.align  # noqa: B018
    assert caught.value.name == "align" and not hasattr(paralign, "align")


def test_import_does_not_load_spacy_or_the_aligner() -> None:
    code = "import sys, paralign; print('spacy' in sys.modules, 'paralign.aligners.sultan' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


#: What README's Install says `import paralign` loads none of, with the web and neural extras'
#: libraries and the other heavy dependencies: none is loaded by `--help` either.
HEAVY = ("spacy", "nltk", "pandas", "dask", "distributed", "torch", "transformers", "fastapi", "uvicorn",
         "numpy", "scipy", "pyarrow", "sacrebleu", "eflomal")

HELP_RUN = """
import contextlib, io, json, sys
import paralign
loaded = {m.partition(".")[0] for m in sys.modules}
from paralign.cli import build_parser, main
commands = [[]] + [[name] for name in build_parser()._subparsers._group_actions[0].choices]
for command in commands:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main([*command, "--help"])
print(json.dumps([sorted(loaded), sorted({m.partition(".")[0] for m in sys.modules})]))
"""


def test_import_and_every_help_load_no_heavy_library() -> None:
    """`import paralign`, then `paralign --help` and every command's `--help`, in a fresh
    interpreter: none of :data:`HEAVY` is loaded."""
    done = subprocess.run([sys.executable, "-c", HELP_RUN], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    after_import, after_help = json.loads(done.stdout)
    assert [m for m in HEAVY if m in after_import] == []
    assert [m for m in HEAVY if m in after_help] == []


@pytest.mark.parametrize(
    "code",
    [
        "from paralign import get_aligner, similarity; assert callable(similarity)",
        "from paralign.similarity import evaluate_sts; import paralign; assert callable(paralign.similarity)",
        "import paralign; paralign.get_aligner; assert callable(paralign.similarity)",
        "from paralign import *; assert callable(similarity)",
    ],
)
def test_the_similarity_function_is_not_shadowed_by_its_module(code: str) -> None:
    """`paralign.similarity` is the function whatever was imported first (the submodule has the
    same name, and importing a submodule rebinds the package attribute unless guarded)."""
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)


def test_dir_lists_every_public_name_lazy_ones_included() -> None:
    """`dir(paralign)` (and so `help`) shows the lazily imported names before their first use."""
    code = (
        "import paralign, paralign.aligners, sys\n"
        "missing = set(paralign.__all__) - set(dir(paralign))\n"
        "missing |= set(paralign.aligners.__all__) - set(dir(paralign.aligners))\n"
        "assert not missing, missing\n"
        "assert 'spacy' not in sys.modules  # listing names imports nothing\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


ROOT = Path(paralign.__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "paralign"


def test_every_data_file_of_the_package_is_shipped_in_the_wheel() -> None:
    """Each non-Python file under src/paralign/ is matched by a package-data glob of
    pyproject.toml (setuptools' glob, where * stops at a slash), so an installed wheel has it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["paralign"]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern) if path.is_file()}
    data = {path for path in PACKAGE.rglob("*")
            if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts}
    assert data - shipped == set()


def test_the_demo_runs_from_its_copy_inside_the_package() -> None:
    """`paralign demo` from an installed wheel was 'demo gold not found (run from a source
    checkout ...)': its pairs were read from examples/demo/, which a wheel does not hold. It
    reads the copy in paralign/data/demo/, which must stay the same as examples/demo/."""
    from paralign.cli.demo import DEMO_DIR

    assert DEMO_DIR.resolve().is_relative_to(PACKAGE)
    for name in ("gold.jsonl", "pairs.tsv"):
        assert (DEMO_DIR / name).read_bytes() == (ROOT / "examples" / "demo" / name).read_bytes(), (
            f"examples/demo/{name} and src/paralign/data/demo/{name} differ: copy the one you changed")


def test_every_public_function_and_method_has_a_docstring() -> None:
    """help(paralign.X) says what each public name and method does (six methods had none)."""
    import inspect

    missing = []
    for name in paralign.__all__:
        value = getattr(paralign, name)
        if callable(value) and not inspect.getdoc(value):
            missing.append(name)
        if not inspect.isclass(value) or issubclass(value, BaseException):
            continue
        for attr, member in vars(value).items():
            if attr.startswith("_") and attr != "__call__":
                continue
            function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
            if callable(function) and not inspect.getdoc(function):
                missing.append(f"{name}.{attr}")
    assert missing == []


def test_every_error_class_is_re_exported() -> None:
    """Every public error of paralign.errors is a name of the package, as ``paralign.InputTypeError``
    is: ``SameReferenceError`` (raised by ``paralign.paraeval`` for one reference set given
    twice) and ``ClusterStalledError`` (by ``paralign.parallel``'s cluster) were not, so a caller
    catching them had to know the submodule, unlike every other error."""
    import inspect

    import paralign.errors

    errors = {name for name, value in vars(paralign.errors).items()
              if inspect.isclass(value) and issubclass(value, paralign.ParalignError) and not name.startswith("_")
              and value.__module__ == "paralign.errors"}
    assert errors - set(paralign.__all__) == set()
    assert all(getattr(paralign, name) is getattr(paralign.errors, name) for name in errors)


#: Where each public name of `paralign` and of `paralign.similarity` is defined: the name must be
#: that very object, whichever is imported first (the similarity package is imported on first use).
HOMES: dict[str, dict[str, str]] = {
    "paralign": {
        "AlignedPair": "paralign.corpora.base", "AlignedSentences": "paralign.alignment",
        "Aligner": "paralign.aligners.sultan.aligner", "AlignerConfig": "paralign.aligners.sultan.options",
        "Alignment": "paralign.alignment", "AlignmentIndexError": "paralign.errors", "Annotator": "paralign.nlp",
        "ClusterStalledError": "paralign.errors", "ConfigurationError": "paralign.errors",
        "EmptyScoringError": "paralign.errors", "ExtraMissingError": "paralign.errors", "Entity": "paralign.sentence",
        "FormatError": "paralign.errors", "InputFileError": "paralign.errors", "InputTypeError": "paralign.errors",
        "Lattice": "paralign.lattice.word_lattice", "LatticeError": "paralign.errors",
        "LatticeOptions": "paralign.lattice.build", "LogisticModel": "paralign.similarity.model",
        "MismatchError": "paralign.errors", "ParaEval": "paralign.metrics.paraeval.paper",
        "ParalignError": "paralign.errors", "ParaphraseSource": "paralign.paraphrase_table",
        "ParaphraseTable": "paralign.paraphrase_table", "PhrasePair": "paralign.phrases",
        "PivotOptions": "paralign.pivot_input", "ResourceMissingError": "paralign.errors",
        "SameReferenceError": "paralign.errors", "Sentence": "paralign.sentence", "SimilarityError": "paralign.errors",
        "Token": "paralign.sentence", "TokenIndexError": "paralign.errors", "WordNetSynonyms": "paralign.paraphrases",
        "__version__": "paralign._version", "align_scores": "paralign.metrics.parametric_align",
        "annotate": "paralign.nlp", "annotate_many": "paralign.nlp", "build_lattice": "paralign.lattice.build",
        "evaluate_aligner": "paralign.aligners.evaluation", "evaluate_paraphrase": "paralign.similarity.paraphrase",
        "evaluate_sts": "paralign.similarity.sts", "get_aligner": "paralign.aligners.registry",
        "load_groups": "paralign.corpora.alignments", "load_pairs": "paralign.corpora.alignments",
        "monolingual_paraphrases": "paralign.pivot", "paraeval": "paralign.metrics.paraeval.scoring",
        "parallel": "paralign.workers", "phrase_pairs": "paralign.phrases", "pivot_paraphrases": "paralign.pivot",
        "ppdb_table": "paralign.paraphrases", "score_alignments": "paralign.metrics.alignment_scores",
        "similarity": "paralign.similarity.scores", "similarity_many": "paralign.similarity.scores",
        "symmetrize": "paralign.alignment", "table_scores": "paralign.metrics.parametric",
    },
    "paralign.similarity": {
        "BOOTSTRAP_SAMPLES": "paralign.similarity.thresholds", "CLASSIFIERS": "paralign.similarity.model",
        "DEFAULT_CLASSIFIER": "paralign.similarity.model", "DEFAULT_SIGNAL": "paralign.similarity.signals",
        "DEFAULT_THRESHOLD_RULE": "paralign.similarity.thresholds",
        "PARAPHRASE_PRESET": "paralign.similarity.paraphrase", "SIGNALS": "paralign.similarity.signals",
        "THRESHOLD_RULES": "paralign.similarity.thresholds", "BinaryScores": "paralign.similarity.thresholds",
        "ContentProportion": "paralign.similarity.signals", "CrossValidation": "paralign.similarity.validation",
        "IdfTable": "paralign.similarity.signals", "ParaphraseEvaluation": "paralign.similarity.paraphrase_evaluation",
        "Signal": "paralign.similarity.signals", "SignalFactory": "paralign.similarity.signals",
        "SimilarityBatch": "paralign.similarity.scores", "StsEvaluation": "paralign.similarity.sts",
        "StsFileResult": "paralign.similarity.sts", "StsReport": "paralign.similarity.sts",
        "accuracy_curve": "paralign.similarity.thresholds", "binary_scores": "paralign.similarity.thresholds",
        "choose_threshold": "paralign.similarity.thresholds", "content_indices": "paralign.similarity.signals",
        "cross_validate_model": "paralign.similarity.validation",
        "cross_validate_threshold": "paralign.similarity.validation",
        "evaluate_feature_rows": "paralign.similarity.paraphrase_features",
        "evaluate_paraphrase": "paralign.similarity.paraphrase",
        "evaluate_paraphrase_files": "paralign.similarity.paraphrase", "evaluate_sts": "paralign.similarity.sts",
        "evaluate_sts_files": "paralign.similarity.sts",
        "features_evaluation": "paralign.similarity.paraphrase_features",
        "fit_on_files": "paralign.similarity.signals", "fit_signal": "paralign.similarity.signals",
        "is_content_word": "paralign.similarity.signals", "is_number": "paralign.similarity.signals",
        "make_signal": "paralign.similarity.signals", "map_aligned": "paralign.similarity.scores",
        "mcnemar": "paralign.similarity.validation", "needs_fit": "paralign.similarity.signals",
        "paraphrase_from_scores": "paralign.similarity.paraphrase_evaluation", "pearson": "paralign.similarity.sts",
        "register_signal": "paralign.similarity.signals", "score_aligned": "paralign.similarity.scores",
        "similarity": "paralign.similarity.scores", "similarity_many": "paralign.similarity.scores",
        "spearman": "paralign.similarity.sts", "stratified_folds": "paralign.similarity.validation",
        "sts_from_scores": "paralign.similarity.sts", "training_sentences": "paralign.similarity.scores",
        "weighted_mean": "paralign.similarity.sts",
    },
}

#: What `dir()` lists besides the public names and the submodules imported so far.
DIR_EXTRAS = {"paralign": {"TYPE_CHECKING", "annotations", "first_use_names"},
              "paralign.similarity": {"annotations", "moved_names"}}

#: The similarity package's submodules that `dir(paralign.similarity)` lists, loaded or not.
SIMILARITY_SUBMODULES = {"contextual", "features", "hybrid", "model", "paraphrase", "paraphrase_evaluation",
                         "paraphrase_features", "scores", "signals", "signature", "split_notes", "sts",
                         "thresholds", "validation"}

SAME_OBJECTS_RUN = """
import importlib, json, sys, types
{first}
import paralign
packages = {{"paralign": paralign, "paralign.similarity": importlib.import_module("paralign.similarity")}}
listed = {{label: [name for name in dir(package) if not name.startswith("_")] for label, package in packages.items()}}
modules = {{label: [name for name in names if isinstance(vars(packages[label]).get(name), types.ModuleType)]
           for label, names in listed.items()}}
homes = json.loads(sys.argv[1])
wrong = [f"{{label}}.{{name}}" for label, names in homes.items() for name, home in names.items()
         if getattr(packages[label], name) is not getattr(importlib.import_module(home), name)]
print(json.dumps({{"wrong": wrong, "all": {{label: p.__all__ for label, p in packages.items()}}, "dir": listed, "modules": modules,
                  "similarity is the function": paralign.similarity is packages["paralign.similarity"].similarity}}))
"""


@pytest.mark.parametrize("first", ["", "from paralign.similarity import sts", "import paralign.similarity.hybrid",
                                   "import paralign.similarity.scores",
                                   "from paralign import similarity_many", "import paralign; paralign.LogisticModel"])
def test_every_public_name_of_paralign_and_of_similarity_is_the_object_it_was(first: str) -> None:
    """`paralign.similarity` (the package) is imported on first use, no longer by ``import
    paralign``: each public name of `paralign` and of `paralign.similarity` is still the object
    defined in its home module (:data:`HOMES`), whatever is imported first; their `__all__` and
    what `dir()` lists (besides submodules imported so far) are unchanged, and
    `paralign.similarity` is the function."""
    done = subprocess.run([sys.executable, "-c", SAME_OBJECTS_RUN.format(first=first), json.dumps(HOMES)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["wrong"] == []
    assert found["similarity is the function"]
    for label, names in HOMES.items():
        assert sorted(found["all"][label]) == sorted(names)
        listed = set(found["dir"][label]) - set(found["modules"][label])
        if label == "paralign.similarity":
            listed |= SIMILARITY_SUBMODULES & set(found["dir"][label])
            assert set(found["dir"][label]) >= SIMILARITY_SUBMODULES
        assert listed == set(names) - {"__version__"} | DIR_EXTRAS[label] | (
            SIMILARITY_SUBMODULES if label == "paralign.similarity" else set())


def test_import_paralign_does_not_import_the_similarity_package() -> None:
    """`import paralign` imported `paralign.similarity` and its whole package (about 70% of its
    import time, docs/results/help-startup.md): it is imported on first use of its names."""
    code = ("import sys, paralign; print('paralign.similarity' in sys.modules); paralign.similarity_many; "
            "print('paralign.similarity' in sys.modules, callable(paralign.similarity))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]


def test_the_similarity_package_imports_sts_and_paraphrase_identification_on_first_use() -> None:
    """`paralign.similarity` imported all its parts; the parts only STS and paraphrase
    identification need (paraphrase, sts, thresholds, validation, model, features) are imported
    when one of their names, or the part itself, is first asked for. The signals' registry holds
    every signal as before (the contextual and hybrid signals register when the package opens)."""
    code = (
        "import importlib, sys\n"
        "sim = importlib.import_module('paralign.similarity')\n"
        "later = ['paralign.similarity.' + p for p in ('paraphrase', 'sts', 'thresholds', 'validation', 'model')]\n"
        "print([m for m in later if m in sys.modules])\n"
        "print(sorted(n for n in ('embedding', 'contextual-alignment', 'hybrid') if n in sim.SIGNALS))\n"
        "print(sim.pearson is sim.sts.pearson, sim.model.LogisticModel.__name__, 'paralign.similarity.sts' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "['contextual-alignment', 'embedding', 'hybrid']", "True LogisticModel True"]
