"""Pictures of paralign's results, in pure Python: the "reports" end of the data flow.

SVG pictures (:mod:`.svg` writes them): the alignment grid (:mod:`.grid`), the side-by-side lines
view (:mod:`.lines`) and word lattice drawings (:mod:`.lattice`); one self-contained HTML page of
many pictures (:mod:`.html`); the ``pretty`` terminal view (:mod:`.terminal`). What the alignment
pictures draw for each link, against gold or not, is :mod:`.marks`; how it looks, :mod:`.style`.

No third-party drawing library and no system binary; nothing is printed (callers write the
text these functions return). The library below this package never imports it.

Not for: computing alignments, lattices or scores (the layers below) or command-line options
(:mod:`paralign.cli`).
"""

from __future__ import annotations

from .grid import alignment_grid
from .html import Section, alignment_section, error_section, page, signature_note
from .lattice import lattice_drawing
from .lines import alignment_lines
from .marks import AlignmentView, LinkMark, link_marks
from .svg import Element, el, svg_file, with_description
from .terminal import not_aligned, pretty

__all__ = [
    "AlignmentView", "Element", "LinkMark", "Section", "alignment_grid", "alignment_lines", "alignment_section", "el",
    "error_section", "lattice_drawing", "link_marks", "not_aligned", "page", "pretty", "signature_note", "svg_file",
    "with_description",
]
