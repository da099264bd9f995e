"""What the pages say to a person using them: a refusal in the words of the form on the screen
(its boxes' lines, the choices this server offers), never in the words of the JSON API or of
the server's operator."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlencode

import pytest


def _error(answer) -> str:
    """The page's refusal, as its text reads."""
    found = re.search(r'<p class="error" role="alert" id="error">(.*?)</p>', answer.text, re.S)
    assert found, answer.text[:2000]
    return unescape(re.sub(r"<[^>]+>", "", found.group(1)))


@pytest.mark.parametrize(("path", "fields", "said"), [
    ("/paraeval", {"hypothesis": "a cat", "references": "\n".join(f"r{n}" for n in range(9))},
     "references: has 9 lines; it may have at most 8"),
    ("/lattice", {"sentences": "\n".join(f"a cat {n}" for n in range(11))},
     "sentences: has 11 lines; it may have at most 10"),
])
def test_a_box_of_too_many_lines_is_said_to_have_lines(client, path, fields, said) -> None:
    """The paraeval and lattice pages said a box "has 9 items" where the user typed lines."""
    answer = client.get(f"{path}?{urlencode(fields)}")
    assert answer.status_code == 422
    assert _error(answer) == said
