"""Helpers for reading the pictures back: SVG and HTML are parsed as XML, never searched as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from paralign.viz.svg import Element, svg_file


def local(tag: str) -> str:
    """A tag without its namespace (``{http://www.w3.org/2000/svg}rect`` → ``rect``)."""
    return tag.rsplit("}", 1)[-1]


class Picture:
    """A parsed SVG picture with the lookups the tests need."""

    def __init__(self, root: Element | str):
        text = svg_file(root) if isinstance(root, Element) else root
        self.text = text
        self.root = ET.fromstring(text.encode("utf-8"))

    def all(self, tag: str | None = None, cls: str | None = None) -> list[ET.Element]:
        """Elements with this tag (any namespace) and/or this class among their classes."""
        return [e for e in self.root.iter()
                if (tag is None or local(e.tag) == tag) and (cls is None or cls in e.get("class", "").split())]

    def viewbox(self) -> tuple[float, float, float, float]:
        x, y, w, h = (float(v) for v in self.root.get("viewBox").split())
        return x, y, w, h

    def tags(self) -> set[str]:
        return {local(e.tag) for e in self.root.iter()}

    def title(self, element: ET.Element) -> str | None:
        """The text of an element's own ``<title>`` child."""
        found = [c for c in element if local(c.tag) == "title"]
        return found[0].text if found else None


@pytest.fixture()
def picture():
    """`picture(element_or_text)`: the parsed :class:`Picture`."""
    return Picture
