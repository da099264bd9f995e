"""HTML reports of evaluations: one self-contained page per command's result.

One module per report: :mod:`.alignment` (``evaluate-aligner --report``), :mod:`.sts`
(``evaluate-sts --report``), :mod:`.meta_eval` (``meta-eval --report``), :mod:`.paraeval`
(``paraeval --report``); :mod:`.parts` holds
what they share (stylesheet, score tables, filter controls). Each function returns the page's
text; the command writes it.

Not for: computing the results (the library below) or the pictures (:mod:`paralign.viz`).
"""

from __future__ import annotations

from .alignment import alignment_report
from .meta_eval import meta_eval_report
from .paraeval import graded_report, paraeval_report, systems_report
from .sts import sts_report

__all__ = ["alignment_report", "graded_report", "meta_eval_report", "paraeval_report", "sts_report", "systems_report"]
