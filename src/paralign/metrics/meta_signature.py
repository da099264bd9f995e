"""meta-eval's own signature: what a meta-evaluation figure was computed on and with.

Each metric's signature (ParaEval's, sacrebleu's) says how that metric scored, and says
``nrefs:1`` for reference set A as for B; none said which language pair, reference set or
human judgments a correlation is with, at which level, or the resamples and seed of its
intervals. :func:`meta_signature` gives those, in the parts' vocabulary of the other commands:

* ``pair``: the language pair (``--pair``; one holding ``|`` refused: :func:`pair_part`), ``refs``: the reference sets, joined by ``+`` as
  sources are (``--refs A,B``: ``A+B``; a label holding ``|`` or ``+`` refused: :func:`refs_part`), ``level``: ``system``, ``segment`` or ``both``;
* ``human``: the human judgments the figures are correlated with, ``da#HASH``: the first 8 hex
  digits of SHA-256 over what the level reads of them (:func:`human_hash`), so that two copies of
  the judgments sign alike, and other judgments (another WMT release, a corrected segment map)
  apart;
* ``text``: a hash of the texts the metrics scored, the references of ``refs`` and every
  correlated system's output (:func:`text_hash`): ``refs`` and the systems name files, and a
  ``--wmt`` folder with other text under the same names (another release, a re-tokenised copy,
  a corrected reference) gave other figures under the same signature. Cheap: about 10 ms over
  the 21 files of WMT21 de-en, against 0.2 s to read them and seconds to score them;
* ``scores``: the metrics whose scores a file gives (``meta-eval --scores``), each as
  ``NAME#HASH`` (its name and the first 8 hex digits of SHA-256 over its sorted rows:
  :attr:`paralign.metrics.given_scores.GivenScores.digest`), sorted by name and joined by ``+``;
  absent when there is none. Each such metric's own signature names its file, but the meta-
  evaluation's did not: two runs on other score files signed alike;
* ``bs``, ``seed``: the bootstrap's resamples and seed, as ``--confidence`` signs them.

Not for: the metrics' signatures (:func:`paralign.metrics.correlation.signatures_of`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..signature import join_signature, name_part, short_hash

if TYPE_CHECKING:  # pragma: no cover
    from ..corpora.wmt import WMTPair


def human_hash(data: WMTPair, level: str) -> str:
    """8 hex digits of SHA-256 over the human scores `level`'s numbers read: at system level each
    correlated system's DA z-score (ad-sys-ranking-<lp>-z-names.csv), at segment level each
    judged segment's system, txt line (the SID mapped through seg-line-map-<lp>.tsv), raw and z
    score (ad-seg-scores-<lp>.csv); both for ``both``. Rows are sorted, and numbers written
    exactly (``repr``), so neither the files' order nor their layout changes it; a row's SID, a
    system's SYS_ID, and the rows of systems left out change no number and are not in it."""
    rows: list[str] = []
    if level != "segment":
        rows += sorted(f"system\t{name}\t{score.z!r}" for name, score in data.human.items())
    if level != "system":
        rows += sorted(f"segment\t{s.system}\t{s.line + 1}\t{s.raw!r}\t{s.z!r}" for s in data.segment_scores)
    return short_hash("\n".join(rows).encode("utf-8"))


def text_hash(data: WMTPair, refs: Sequence[str]) -> str:
    """8 hex digits of SHA-256 over the segments scored: each reference set of `refs` and each
    correlated system's output (`data.systems`: not those left out), one row per file, its kind,
    label or system name and a SHA-256 of its segments as read (a byte-order mark, CRLF line
    ends: :func:`paralign.corpora.wmt.iter_lines`), the rows sorted, so the files' order does not
    change it, and one segment changed anywhere does."""
    def digest(segments: Sequence[str]) -> str:
        return hashlib.sha256("\n".join(segments).encode("utf-8")).hexdigest()

    rows = [f"ref\t{label}\t{digest(lines)}" for label, lines in zip(refs, data.reference_streams(refs), strict=True)]
    rows += [f"system\t{name}\t{digest(lines)}" for name, lines in data.systems.items()]
    return short_hash("\n".join(sorted(rows)).encode("utf-8"))


def pair_part(pair: str, what: str = "pair") -> str:
    """The language pair as the signature writes it (``pair:de-en``); a ConfigurationError naming
    `what` (``argument --pair``) when it holds ``|``: a pair is read from the reference files' names
    (``newstest2021.de|x-en.ref.A.en``), and ``pair:de|x-en`` read back as ``pair:de`` and a keyless
    ``x-en`` (:func:`paralign.signature.name_part`). Checked where a meta-evaluation starts."""
    return name_part(pair, "pair:LP", what=what)


#: How the signature writes the reference sets (:func:`refs_part`).
REFS_PART = "refs:LABEL+LABEL"


def refs_part(refs: Sequence[str], what: str = "refs") -> str:
    """``A+B``: the reference sets' labels (each a reference file's, ``newstest2021.de-en.ref.A.en``)
    joined by ``+``; a ConfigurationError naming `what` (the argument: ``argument --refs``) for a
    label holding ``|``, which ends the part (``refs:A|x`` read back as ``refs:A`` and a keyless
    ``x``), or ``+``, which joins labels (``refs:B+C`` of one set read back as sets B and C):
    :func:`paralign.signature.name_part`. Checked where a meta-evaluation starts, before any work."""
    return "+".join(name_part(label, REFS_PART, what=what, marks="+") for label in refs)


def scores_part(digests: Mapping[str, str]) -> str | None:
    """``NAME#HASH+...`` of the metrics whose scores files give (name -> digest), sorted by name
    so the order of ``--scores`` does not change it; None (no part) when there is none."""
    return "+".join(f"{name}#{digests[name]}" for name in sorted(digests)) or None


def meta_signature(data: WMTPair, refs: Sequence[str], level: str, n_resamples: int, seed: int,
                   scores: Mapping[str, str] | None = None) -> str:
    """``pair:de-en|refs:A|level:system|human:da#1a2b3c4d|text:5e6f7a8b|scores:mine#9c0d1e2f|bs:1000|seed:12345|version:X``:
    the settings and data behind a meta-evaluation's figures (see the module docstring); `scores`:
    name -> digest of each metric whose scores a file gives (:func:`scores_part`)."""
    return join_signature({"pair": pair_part(data.pair), "refs": refs_part(refs), "level": level,
                           "human": f"da#{human_hash(data, level)}", "text": text_hash(data, refs),
                           "scores": scores_part(scores or {}), "bs": n_resamples, "seed": seed})
