"""paralign.caching: a capped cache holds at most its limit, starts again when full, pickles."""

from __future__ import annotations

import pickle

import pytest

from paralign.caching import CappedDict, cache_dict
from paralign.errors import ConfigurationError


def test_a_capped_dict_never_holds_more_than_its_limit_and_starts_again_when_full() -> None:
    cache: CappedDict[int, int] = CappedDict(3)
    sizes = []
    for key in range(10):
        cache[key] = key * key
        sizes.append(len(cache))
        assert cache[key] == key * key  # the entry just stored is always there
    assert max(sizes) == 3 and sizes[:4] == [1, 2, 3, 1]
    cache[9] = 0  # a key it holds is replaced, never a reason to clear
    assert len(cache) == sizes[-1] and cache[9] == 0


def test_a_capped_dict_keeps_its_limit_through_pickling() -> None:
    cache: CappedDict[str, int] = CappedDict(2)
    cache["a"], cache["b"] = 1, 2
    copy = pickle.loads(pickle.dumps(cache))
    assert isinstance(copy, CappedDict) and copy.limit == 2 and copy == {"a": 1, "b": 2}
    copy["c"] = 3
    assert copy == {"c": 3}


def test_cache_dict_is_plain_without_a_limit_and_refuses_a_limit_below_one() -> None:
    assert type(cache_dict(None)) is dict
    assert isinstance(cache_dict(5), CappedDict)
    with pytest.raises(ConfigurationError, match="at least 1"):
        CappedDict(0)
