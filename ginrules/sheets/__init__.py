"""Printable rule sheets and score pads, rendered from a compiled ruleset."""
