"""Settings read without loading anything: which device settings are taken."""

from __future__ import annotations

import pytest

from paralign.settings import DEVICE_FORMS, DEVICES, is_device


@pytest.mark.parametrize("device", ["auto", "cpu", "cuda", "cuda:0", "cuda:1", "cuda:12"])
def test_device_settings_taken_include_a_gpu_index(device: str) -> None:
    """cuda:N, as torch, sentence-transformers and BERTScore users write it, beside the names."""
    assert is_device(device)


@pytest.mark.parametrize("device", ["CPU", "Cuda", "CUDA:1", " cuda", "cuda ", "cuda:", "cuda:01",
                                    "cuda:-1", "cuda:+1", "cuda: 1", "cuda:1.0", "cuda:0x1",
                                    "cuda:\uff11", "cuda:1\n", "gpu", "tpu", "cpu:0", "", None, 1])
def test_device_settings_torch_refuses_are_refused(device: object) -> None:
    """torch's own spelling only: lower case, an index of ASCII digits without sign or leading zero."""
    assert not is_device(device)


def test_device_forms_list_every_name_and_the_index_form() -> None:
    assert (*DEVICES, "cuda:N") == DEVICE_FORMS
