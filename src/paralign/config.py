"""Moved to :mod:`paralign.settings`; this path is removed in paralign 0.3."""

from ._moved import alias_module

alias_module(__name__, "paralign.settings")
